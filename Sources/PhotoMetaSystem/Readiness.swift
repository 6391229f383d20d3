import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// Waiting for several descriptors at once (`poll(2)`): the service sleeps until inotify or a
/// client has something, so it uses no CPU while nothing happens.
package enum Readiness {
    /// The descriptors of `fds` that are readable (or hung up), waiting at most
    /// `timeoutMilliseconds`; empty after the timeout or an interrupted wait (EINTR).
    package static func wait(_ fds: [Int32], timeoutMilliseconds: Int32) -> Set<Int32> {
        var polled = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let n = polled.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
        guard n > 0 else { return [] }
        return Set(polled.filter { $0.revents != 0 }.map(\.fd))
    }
}

/// This process, as the service announces it.
package enum ThisProcess {
    /// `getpid(2)` (through `SystemCalls`).
    package static var id: Int32 { SystemCalls.processID }
}
