import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// The descriptor-level libc calls of the service's building blocks (`RuntimeFolder`,
/// `ServiceLock`, `UnixSocket`, `UnixSocketListener`), each wrapped once here: EINTR retried where
/// the call can be interrupted, a failure returned as the `SystemError` of its errno, timeouts
/// counted against one monotonic deadline so that a retried `poll` never waits longer in total
/// than it was asked to.
enum SystemCalls {
    /// `open(2)` with `flags` (the caller's `O_NOFOLLOW | O_CLOEXEC`...), retried after EINTR.
    static func open(_ path: String, _ flags: Int32, mode: UInt32 = 0) throws(SystemError) -> Int32 {
        while true {
            let fd = PathBytes.withCPath(path) { Glibc.open($0, flags, mode_t(mode)) }
            if fd >= 0 { return fd }
            if errno != EINTR { throw SystemError(errno: errno) }
        }
    }

    /// `close(2)`, once; EINTR is not retried (on Linux the descriptor is closed anyway).
    static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    /// `mkdir(2)` with `mode` (the umask may clear bits, never add them).
    static func makeFolder(_ path: String, mode: UInt32) throws(SystemError) {
        if PathBytes.withCPath(path, { mkdir($0, mode_t(mode)) }) != 0 { throw SystemError(errno: errno) }
    }

    /// `chmod(2)` by path (for a socket after `bind`: on Linux `fchmod` of a bound socket's
    /// descriptor does not change the file `bind` made).
    static func changeMode(_ path: String, _ mode: UInt32) throws(SystemError) {
        if PathBytes.withCPath(path, { chmod($0, mode_t(mode)) }) != 0 { throw SystemError(errno: errno) }
    }

    /// `fchmod(2)` on an open file (or on a socket before `bind`, whose file then gets this
    /// mode less the umask).
    static func changeMode(descriptor fd: Int32, _ mode: UInt32) throws(SystemError) {
        if fchmod(fd, mode_t(mode)) != 0 { throw SystemError(errno: errno) }
    }

    /// `flock(2)` with `operation` (`LOCK_EX | LOCK_NB`...), retried after EINTR. EWOULDBLOCK
    /// (another open file description holds a conflicting lock) is thrown like any other errno.
    static func lock(_ fd: Int32, _ operation: Int32) throws(SystemError) {
        while flock(fd, operation) != 0 {
            if errno != EINTR { throw SystemError(errno: errno) }
        }
    }

    /// Up to `limit` bytes from the start of the file (`pread` at 0, retried after EINTR).
    static func readStart(_ fd: Int32, limit: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit)
        while true {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, limit, 0) }
            if n >= 0 { return Array(bytes[..<n]) }
            if errno != EINTR { throw SystemError(errno: errno) }
        }
    }

    /// Makes the file hold exactly `bytes`: `pwrite` at 0, then `ftruncate` to their length, so a
    /// reader in between sees the new bytes first (never an empty file).
    static func replaceContents(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return pwrite(fd, base + done, bytes.count - done, off_t(done))
            }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { throw SystemError(errno: n == 0 ? EIO : errno) }
            done += n
        }
        while ftruncate(fd, off_t(bytes.count)) != 0 {
            if errno != EINTR { throw SystemError(errno: errno) }
        }
    }

    /// This process's effective user id (`geteuid`): whose files and peers are trusted.
    static var userID: UInt32 { geteuid() }

    /// This process's id (`getpid`).
    static var processID: Int32 { getpid() }

    /// The instant `milliseconds` from now (a negative count means now).
    static func deadline(afterMilliseconds milliseconds: Int) -> ContinuousClock.Instant {
        .now + .milliseconds(max(0, milliseconds))
    }

    /// `poll(2)` on one descriptor for `events` until `deadline`: the returned events (POLLIN,
    /// POLLOUT, POLLHUP, POLLERR...), or 0 when the deadline passed first. After EINTR it polls
    /// again for the time that is left.
    static func poll(_ fd: Int32, _ events: Int32, until deadline: ContinuousClock.Instant) throws(SystemError) -> Int32 {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            let (seconds, attoseconds) = left.components
            let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            let milliseconds = Int32(clamping: max(0, total))
            var p = pollfd(fd: fd, events: Int16(events), revents: 0)
            let r = Glibc.poll(&p, 1, milliseconds)
            if r > 0 { return Int32(p.revents) }
            if r == 0 {
                if milliseconds == 0 { return 0 }
                continue
            }
            if errno != EINTR { throw SystemError(errno: errno) }
        }
    }

    /// Waits `milliseconds` with no descriptor (`poll` of none): the pause between two tries
    /// of a `connect` that found the server's queue full (EAGAIN).
    static func pause(milliseconds: Int32) { _ = Glibc.poll(nil, 0, milliseconds) }
}
