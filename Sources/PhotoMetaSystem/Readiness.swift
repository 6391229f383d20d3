import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// Waiting for several descriptors at once (`poll(2)`): the service sleeps until inotify or a
/// client has something, so it uses no CPU while nothing happens.
package enum Readiness {
    /// The descriptors of `fds` that are readable (or hung up), waiting at most
    /// `timeoutMilliseconds` (negative: no limit); empty after the timeout. A wait interrupted
    /// by a signal's handler (EINTR: SIGINT and SIGTERM have one in `watch` and `serve`,
    /// `TerminationSignals`) goes on for the time left: an interruption is not an answer (a
    /// helper taken for silent would be killed).
    /// `priority`: descriptors that count only when marked `POLLPRI` (`MountTable`'s).
    package static func wait(_ fds: [Int32], priority: [Int32] = [], timeoutMilliseconds: Int32) -> Set<Int32> {
        let deadline = timeoutMilliseconds < 0 ? nil : SystemCalls.deadline(afterMilliseconds: Int(timeoutMilliseconds))
        var polled =
            fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            + priority.map { pollfd(fd: $0, events: Int16(POLLPRI), revents: 0) }
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let (seconds, attoseconds) = ContinuousClock.now.duration(to: deadline).components
                let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
                milliseconds = Int32(clamping: max(0, total))
            }
            let n = polled.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
            if n > 0 { return Set(polled.filter { $0.revents != 0 }.map(\.fd)) }
            if n == 0 || errno != EINTR { return [] }
        }
    }
}

/// This process, as the service announces it.
package enum ThisProcess {
    /// `getpid(2)` (through `SystemCalls`).
    package static var id: Int32 { SystemCalls.processID }
}
