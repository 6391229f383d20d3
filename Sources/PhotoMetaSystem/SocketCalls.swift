import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// The socket calls of `UnixSocket` and `UnixSocketListener`, each wrapped once: Unix-domain
/// stream sockets, always close-on-exec and nonblocking (every wait is a `poll` with a deadline,
/// so no call can hang past its timeout), EINTR retried, errors as `SystemError`.
enum SocketCalls {
    /// The size of `sockaddr_un.sun_path` (108 bytes on Linux), the terminating NUL included: a
    /// path of up to 107 bytes fits.
    static let pathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// The kernel's `struct ucred` (`<sys/socket.h>` defines it only under `_GNU_SOURCE`, which
    /// Swift's Glibc module does not set): pid, uid and gid, three 32-bit fields on every Linux.
    struct Credentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// `socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)`.
    static func streamSocket() throws(SystemError) -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else { throw SystemError(errno: errno) }
        return fd
    }

    /// Calls `body` with the `sockaddr_un` of `path`, or returns nil when the path does not fit
    /// in `sun_path` with its NUL.
    private static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R? {
        let bytes = PathBytes.encode(path)
        guard bytes.count < pathCapacity, !bytes.contains(0) else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// `bind(2)` at `path`; ENAMETOOLONG when the path does not fit in `sun_path`.
    static func bind(_ fd: Int32, _ path: String) throws(SystemError) {
        guard let rc = withAddress(path, { Glibc.bind(fd, $0, $1) }) else { throw SystemError(errno: ENAMETOOLONG) }
        if rc != 0 { throw SystemError(errno: errno) }
    }

    /// `listen(2)` with the kernel's largest queue (`SOMAXCONN`).
    static func listen(_ fd: Int32) throws(SystemError) {
        if Glibc.listen(fd, SOMAXCONN) != 0 { throw SystemError(errno: errno) }
    }

    /// `accept(2)` on a nonblocking listener: the new connection (made close-on-exec and
    /// nonblocking with `fcntl`), or nil when none is waiting (EAGAIN, or ECONNABORTED: the
    /// client gave up). `accept4` is not exported by Swift's Glibc module; the moment between
    /// `accept` and `FD_CLOEXEC` is harmless here because every program photometa starts is
    /// spawned with `closefrom(3)` (`ChildProcess`, `Hook`).
    static func accept(_ fd: Int32) throws(SystemError) -> Int32? {
        while true {
            let connection = Glibc.accept(fd, nil, nil)
            if connection >= 0 {
                let flags = fcntl(connection, F_GETFL)
                guard fcntl(connection, F_SETFD, FD_CLOEXEC) == 0, flags >= 0,
                    fcntl(connection, F_SETFL, flags | O_NONBLOCK) == 0
                else {
                    let e = SystemError(errno: errno)
                    SystemCalls.close(connection)
                    throw e
                }
                return connection
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK, ECONNABORTED: return nil
            default: throw SystemError(errno: errno)
            }
        }
    }

    /// `connect(2)` to `path`. EAGAIN (the server's queue is full: a nonblocking Unix socket
    /// does not queue the attempt) and ECONNREFUSED (no one listens) are thrown for the caller
    /// to decide; EINTR is retried (EISCONN then means the first try got through).
    static func connect(_ fd: Int32, _ path: String) throws(SystemError) {
        while true {
            guard let rc = withAddress(path, { Glibc.connect(fd, $0, $1) }) else { throw SystemError(errno: ENAMETOOLONG) }
            if rc == 0 { return }
            switch errno {
            case EINTR: continue
            case EISCONN: return
            default: throw SystemError(errno: errno)
            }
        }
    }

    /// `getsockopt(SOL_SOCKET, SO_PEERCRED)`: the process at the other end of a connected Unix
    /// socket, as the kernel recorded it at `connect` / `listen` (it cannot be forged).
    static func peerCredentials(_ fd: Int32) throws(SystemError) -> Credentials {
        var credentials = Credentials()
        var length = socklen_t(MemoryLayout<Credentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { throw SystemError(errno: errno) }
        guard length == socklen_t(MemoryLayout<Credentials>.size) else { throw SystemError(errno: EINVAL) }
        return credentials
    }

    /// `send(2)` with `MSG_NOSIGNAL` (a peer that is gone is EPIPE, not SIGPIPE): the count
    /// sent, 0 when the socket's buffer is full (EAGAIN), retried after EINTR.
    static func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) throws(SystemError) -> Int {
        while true {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return 0
            default: throw SystemError(errno: errno)
            }
        }
    }

    /// `recv(2)` of up to `limit` bytes: the bytes (empty at the end of the stream), or nil when
    /// none are waiting (EAGAIN); retried after EINTR.
    static func receive(_ fd: Int32, limit: Int) throws(SystemError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n >= 0 { return Array(buffer[..<n]) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw SystemError(errno: errno)
            }
        }
    }

    /// The `poll(2)` event bits the socket code asks for and reads back.
    static let readable = Int32(POLLIN)
    static let writable = Int32(POLLOUT)
    static let hangUp = Int32(POLLHUP) | Int32(POLLERR)
}
