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
        stderrBuffer.append(TerminalText.escape(line) + "\n")
        stderrBuffer.flush()
    }
}

/// Bytes waiting for one file descriptor; written (in order, never interleaved) by `flush`.
private final class FDBuffer: Sendable {
    private let fd: Int32
    private let bytes: Mutex<[UInt8]>

    init(fd: Int32) {
        self.fd = fd
        var b: [UInt8] = []
        b.reserveCapacity(1 << 16)
        bytes = Mutex(b)
    }

    func append(_ s: String) {
        let full = bytes.withLock { b in
            b.append(contentsOf: s.utf8)
            return b.count >= 1 << 16
        }
        if full { flush() }
    }

    func flush() {
        bytes.withLock { b in
            // A failed write (EPIPE: the reader went away) drops the output; nothing to do about it.
            FileDescriptorOutput.writeAll(fd, b)
            b.removeAll(keepingCapacity: true)
        }
    }
}

/// A usage error: printed with a hint to `--help`, exit 64.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
