import Foundation
import PhotoMetaCore
import PhotoMetaSystem
import Synchronization

/// Buffered writes to stdout and stderr by file descriptor, flushed explicitly so streamed
/// output (`--jsonl`) appears as results arrive, and large outputs cost few system calls.
enum Output {
    private static let stdoutBuffer = FDBuffer(fd: 1)
    private static let stderrBuffer = FDBuffer(fd: 2)

    static func out(_ s: String) { stdoutBuffer.append(s) }
    static func flush() { stdoutBuffer.flush() }

    /// The first error a write to stdout met, if any (output after it was dropped).
    static var stdoutFailure: SystemError? { stdoutBuffer.failure }

    /// Flushes stdout and tells whether everything written so far reached it.
    static func delivered() -> Bool {
        stdoutBuffer.flush()
        return stdoutBuffer.failure == nil
    }

    /// Streams stdout: whatever is buffered is written at least every `milliseconds`, so a
    /// line reaches the reader within that time without a system call per line.
    static func flushPeriodically(milliseconds: Int = 10) {
        flushTimer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds))
        flushTimer.resume()
    }

    /// Created once and never released; only `flushPeriodically` (called once, from the main
    /// thread) touches it, hence `nonisolated(unsafe)`.
    nonisolated(unsafe) private static let flushTimer: DispatchSourceTimer = {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.setEventHandler { stdoutBuffer.flush() }
        return timer
    }()

    /// One message line on stderr. Control characters in it (from a file name, a folder given
    /// on the command line) are shown as escapes, so no name can drive the terminal.
    static func err(_ s: String) {
        stdoutBuffer.flush()
        let line = s.hasSuffix("\n") ? String(s.dropLast()) : s
        statusShown.withLock { shown in
            // A progress line in the way is erased first; its next redraw comes after.
            if shown { stderrBuffer.append("\r\u{1B}[K") }
            shown = false
            stderrBuffer.append(TerminalText.escape(line) + "\n")
            stderrBuffer.flush()
        }
    }

    /// Whether a progress line is on the terminal now.
    private static let statusShown = Mutex(false)

    /// Draws `line` as the progress line (over the previous one), or erases it when nil. Only
    /// `ProgressLine` calls this, and only when stderr is a terminal.
    static func status(_ line: String?) {
        statusShown.withLock { shown in
            stderrBuffer.append("\r\u{1B}[K" + (line ?? ""))
            stderrBuffer.flush()
            shown = line != nil
        }
    }
}

/// Bytes waiting for one file descriptor; written (in order, never interleaved) by `flush`.
private final class FDBuffer: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        /// The first write error; once set, output is dropped (the reader cannot take it).
        var failure: SystemError?
    }
    private let fd: Int32
    private let state: Mutex<State>

    init(fd: Int32) {
        self.fd = fd
        var s = State()
        s.bytes.reserveCapacity(1 << 16)
        state = Mutex(s)
    }

    var failure: SystemError? { state.withLock { $0.failure } }

    func append(_ s: String) {
        let full = state.withLock { st in
            st.bytes.append(contentsOf: s.utf8)
            return st.bytes.count >= 1 << 16
        }
        if full { flush() }
    }

    func flush() {
        state.withLock { st in
            if st.failure == nil, let e = FileDescriptorOutput.writeAll(fd, st.bytes) { st.failure = e }
            st.bytes.removeAll(keepingCapacity: true)
        }
    }
}

/// A usage error: printed with a hint to `--help`, exit 64.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
