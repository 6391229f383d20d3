#if canImport(Glibc)
    import Glibc
#endif

/// A pipe a loop waiting in `poll(2)` (`Readiness`) includes so that another thread can wake it
/// at once: `serve` then sleeps without a timeout while nothing happens (no CPU at all when
/// idle) and still stops as soon as SIGTERM is taken. Both ends close-on-exec and non-blocking
/// (a full pipe only means a wake is already pending). Never closed: it lives as long as the
/// process's stop flag.
package final class WakePipe: Sendable {
    /// The end to poll for reading.
    package let descriptor: Int32
    private let writer: Int32

    /// A new pipe, or nil when the process is out of descriptors (the caller polls with a
    /// timeout instead).
    package init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        descriptor = ends[0]
        writer = ends[1]
    }

    /// Makes the read end readable (a byte written; EAGAIN means one is already there).
    package func wake() {
        var byte: UInt8 = 1
        _ = write(writer, &byte, 1)
    }
}
