import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// A Unix-domain stream server socket bound at a path in the runtime folder (`RuntimeFolder`),
/// for the service: made 0600, so only this user (and root) may connect, inside a folder that
/// only this user can enter. Bind it only while holding the `ServiceLock`: a socket file found
/// at the path is then a dead service's, and is replaced — but only when it is a socket of
/// this user's; anything else there (a planted file, a link, another user's socket) is left
/// alone and refused.
///
/// When the listener goes, the descriptor is closed and the socket file removed if the path
/// still names the socket it bound. Drop the listener before the lock.
package final class UnixSocketListener: Sendable {
    /// The socket file's path.
    package let path: String
    /// The listening descriptor (nonblocking, close-on-exec).
    private let descriptor: Int32
    /// The bound socket file's identity (device, inode), so only that file is removed at the end.
    private let device: UInt64
    private let inode: UInt64

    /// Binds and listens at `path`: `socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC |
    /// SOCK_NONBLOCK)`, a stale socket of this user's removed first, `fchmod` 0600 *before*
    /// `bind` (Linux gives the bound file the socket inode's mode less the umask, so it is never
    /// more open than 0600, without touching the umask, which is the whole process's; an
    /// `fchmod` after `bind` would not reach the file), `bind`, `chmod` 0600 by path as well (for
    /// a kernel that ignores the first), `listen`.
    package init(path: String) throws(UnixSocket.Failure) {
        try UnixSocket.checkLength(path)
        do throws(UnixSocket.Failure) {
            try UnixSocket.checkIsOwnSocket(path)
            if let e = FileSystem.remove(path), e.errno != ENOENT { throw .system(call: "unlink", error: e) }
        } catch {
            guard case .missing = error else { throw error }
        }
        let fd: Int32
        do throws(SystemError) { fd = try SocketCalls.streamSocket() } catch { throw .system(call: "socket", error: error) }
        var call = "fchmod"
        do throws(SystemError) {
            try SystemCalls.changeMode(descriptor: fd, 0o600)
            call = "bind"
            try SocketCalls.bind(fd, path)
            call = "chmod"
            try SystemCalls.changeMode(path, 0o600)
            call = "lstat"
            let facts = try FileFacts.of(path, followLinks: false)
            call = "listen"
            try SocketCalls.listen(fd)
            self.path = path
            descriptor = fd
            device = facts.device
            inode = facts.inode
        } catch {
            SystemCalls.close(fd)
            if call != "bind" && call != "fchmod" { FileSystem.remove(path) }
            if error.errno == EADDRINUSE { throw .untrusted(path: path, what: "a file created meanwhile") }
            throw .system(call: call, error: error)
        }
    }

    /// The listening descriptor, for a `Readiness.wait` that also waits for other things
    /// (inotify); a client is taken with `accept`.
    package var descriptorForPolling: Int32 { descriptor }

    deinit {
        if let facts = try? FileFacts.of(path, followLinks: false), facts.device == device, facts.inode == inode {
            FileSystem.remove(path)
        }
        SystemCalls.close(descriptor)
    }

    /// The next connection, waiting at most `timeoutMilliseconds` (`poll`); nil when none came
    /// in time. The connection is nonblocking and close-on-exec; its peer's credentials are
    /// `peer()` (the socket's mode already limits it to this user and root).
    package func accept(timeoutMilliseconds: Int) throws(UnixSocket.Failure) -> UnixSocket? {
        let deadline = SystemCalls.deadline(afterMilliseconds: timeoutMilliseconds)
        while true {
            do throws(SystemError) {
                if let connection = try SocketCalls.accept(descriptor) { return UnixSocket(descriptor: connection) }
                if try SystemCalls.poll(descriptor, SocketCalls.readable, until: deadline) == 0 { return nil }
            } catch {
                throw .system(call: "accept", error: error)
            }
        }
    }
}
