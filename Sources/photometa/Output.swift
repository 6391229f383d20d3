#if canImport(Glibc)
import Glibc
#endif
import Foundation

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
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds))
        timer.setEventHandler { stdoutBuffer.flush() }
        timer.resume()
        flushTimer.set(timer)
    }

    private static let flushTimer = TimerBox()

    static func err(_ s: String) {
        stdoutBuffer.flush()
        stderrBuffer.append(s.hasSuffix("\n") ? s : s + "\n")
        stderrBuffer.flush()
    }
}

/// Keeps the periodic flush timer alive.
private final class TimerBox: @unchecked Sendable {
    private var timer: DispatchSourceTimer?
    func set(_ t: DispatchSourceTimer) { timer = t }
}

private final class FDBuffer: @unchecked Sendable {
    private let fd: Int32
    private var bytes: [UInt8] = []
    private let lock = NSLock()

    init(fd: Int32) {
        self.fd = fd
        bytes.reserveCapacity(1 << 16)
    }

    func append(_ s: String) {
        lock.lock()
        bytes.append(contentsOf: s.utf8)
        let full = bytes.count >= 1 << 16
        lock.unlock()
        if full { flush() }
    }

    func flush() {
        lock.lock()
        defer { lock.unlock() }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return write(fd, base + done, bytes.count - done)
            }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                break  // EPIPE and friends: the reader went away; drop the output.
            }
            done += n
        }
        bytes.removeAll(keepingCapacity: true)
    }
}

/// A usage error: printed with a hint to `--help`, exit 64.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
