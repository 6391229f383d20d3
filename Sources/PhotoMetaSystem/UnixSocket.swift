import PhotoMetaCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One end of a connected Unix-domain stream socket carrying newline-delimited text: what a
/// client gets from `connect(path:timeoutMilliseconds:)` and a server from
/// `UnixSocketListener.accept`. Every wait is a `poll` with a deadline on a nonblocking socket,
/// so no call hangs past its timeout; a peer that is gone is an error, never SIGPIPE
/// (`MSG_NOSIGNAL`). Closed when the object goes.
///
/// A client trusts only a socket file that is this user's (checked with `lstat` before
/// connecting: a planted file, link or another user's socket is refused) and a server whose
/// credentials (`SO_PEERCRED`, recorded by the kernel) are this user's.
package final class UnixSocket: Sendable {
    /// Why a socket call failed. Shared with `UnixSocketListener`.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The path does not fit in `sockaddr_un.sun_path` (108 bytes with its NUL; ENAMETOOLONG).
        case pathTooLong(path: String, bytes: Int)
        /// ENOENT: nothing at the path (no service).
        case missing(path: String)
        /// What is at the path is not a socket to trust (a regular file, a link, a folder, or
        /// another user's socket); `what` says which. A listener never removes it.
        case untrusted(path: String, what: String)
        /// ECONNREFUSED: a socket file no process listens on (left by a killed service).
        case refused(path: String)
        /// `SO_PEERCRED`: the process at the other end runs as another user (uid).
        case peerIsAnotherUser(uid: UInt32)
        /// The deadline passed (ETIMEDOUT): the peer was silent, or its queue stayed full.
        case timedOut(milliseconds: Int)
        /// A line longer than the `maxBytes` the receiver allows (without its newline).
        case lineTooLong(maxBytes: Int)
        /// A line received that is not UTF-8, or a line to send that contains a newline.
        case notALine
        /// The peer closed the connection in the middle of a line, or is gone (EPIPE,
        /// ECONNRESET).
        case closed
        /// A system call failed: `call` names it (`socket`, `bind`, `poll`...), with its errno.
        case system(call: String, error: SystemError)

        package var description: String {
            switch self {
            case .pathTooLong(let path, let bytes):
                return
                    "\(path) is \(bytes) bytes, too long for a Unix socket (sun_path holds \(SocketCalls.pathCapacity - 1) bytes and a NUL)"
            case .missing(let path): return "\(path) does not exist"
            case .untrusted(let path, let what): return "\(path) is not trusted: it is \(what)"
            case .refused(let path): return "\(path): no process listens on it (connection refused)"
            case .peerIsAnotherUser(let uid): return "the process at the other end runs as another user (uid \(uid))"
            case .timedOut(let ms): return "no answer within \(ms) ms"
            case .lineTooLong(let max): return "a line longer than \(max) bytes"
            case .notALine: return "not a line of UTF-8 text"
            case .closed: return "the connection was closed"
            case .system(let call, let error): return "\(call): \(error)"
            }
        }
    }

    /// The peer's credentials, as the kernel recorded them (`SO_PEERCRED`).
    package struct Peer: Sendable, Equatable {
        package let pid: Int32
        package let uid: UInt32
        package let gid: UInt32
    }

    /// The connected descriptor (nonblocking, close-on-exec).
    private let descriptor: Int32
    /// Bytes received after the last line returned.
    private let pending = Mutex<[UInt8]>([])

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// The descriptor, for `Readiness.wait` only (it stays this socket's).
    package var descriptorForPolling: Int32 { descriptor }

    deinit { SystemCalls.close(descriptor) }

    /// Ends the connection both ways without closing the descriptor (`shutdown(2)`): the peer
    /// reads the end, and every thread that polls `descriptorForPolling` finds it readable.
    package func shutDown() { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Connects to the server at `path` within `timeoutMilliseconds`. Refuses a path that is
    /// not a socket of this user's (`lstat`, no link followed), and a server whose credentials
    /// are not this user's (`SO_PEERCRED` uid != `geteuid()`).
    package static func connect(path: String, timeoutMilliseconds: Int) throws(Failure) -> UnixSocket {
        let deadline = SystemCalls.deadline(afterMilliseconds: timeoutMilliseconds)
        try checkLength(path)
        try checkIsOwnSocket(path)
        let fd: Int32
        do throws(SystemError) { fd = try SocketCalls.streamSocket() } catch { throw .system(call: "socket", error: error) }
        let socket = UnixSocket(descriptor: fd)
        while true {
            do throws(SystemError) {
                try SocketCalls.connect(fd, path)
                break
            } catch {
                switch error.errno {
                case EAGAIN where ContinuousClock.now < deadline: SystemCalls.pause(milliseconds: 2)
                case EAGAIN: throw .timedOut(milliseconds: timeoutMilliseconds)
                case ECONNREFUSED: throw .refused(path: path)
                case ENOENT: throw .missing(path: path)
                default: throw .system(call: "connect", error: error)
                }
            }
        }
        let peer = try socket.peer()
        guard peer.uid == SystemCalls.userID else { throw .peerIsAnotherUser(uid: peer.uid) }
        return socket
    }

    /// `.pathTooLong` unless `path` fits in `sun_path` with its NUL.
    static func checkLength(_ path: String) throws(Failure) {
        let bytes = PathBytes.encode(path).count
        if bytes >= SocketCalls.pathCapacity { throw .pathTooLong(path: path, bytes: bytes) }
    }

    /// The file at `path` (not followed) is a socket owned by this user, or the `Failure` that
    /// says what it is.
    static func checkIsOwnSocket(_ path: String) throws(Failure) {
        let facts: FileFacts
        do throws(SystemError) {
            facts = try FileFacts.of(path, followLinks: false)
        } catch {
            throw error.errno == ENOENT ? .missing(path: path) : .system(call: "lstat", error: error)
        }
        switch facts.type {
        case .other("a socket"): break
        case .regular: throw .untrusted(path: path, what: "a regular file")
        case .directory: throw .untrusted(path: path, what: "a folder")
        case .symlink: throw .untrusted(path: path, what: "a symbolic link")
        case .other(let what): throw .untrusted(path: path, what: what)
        }
        if facts.owner != SystemCalls.userID {
            throw .untrusted(path: path, what: "a socket of another user (uid \(facts.owner))")
        }
    }

    /// The process at the other end (`SO_PEERCRED`): for a client, the server as it was when
    /// it called `listen`; for a server, the client as it was when it called `connect`.
    package func peer() throws(Failure) -> Peer {
        do throws(SystemError) {
            let c = try SocketCalls.peerCredentials(descriptor)
            return Peer(pid: c.pid, uid: c.uid, gid: c.gid)
        } catch {
            throw .system(call: "getsockopt(SO_PEERCRED)", error: error)
        }
    }

    /// Sends `line` and a newline, waiting at most `timeoutMilliseconds` for room in the
    /// socket's buffer. A line containing a newline is refused (`.notALine`); a peer that is
    /// gone is `.closed` (EPIPE, ECONNRESET).
    package func send(line: String, timeoutMilliseconds: Int = 1000) throws(Failure) {
        guard !line.utf8.contains(UInt8(ascii: "\n")) else { throw .notALine }
        let deadline = SystemCalls.deadline(afterMilliseconds: timeoutMilliseconds)
        let bytes = Array(line.utf8) + [UInt8(ascii: "\n")]
        var done = 0
        while done < bytes.count {
            do throws(SystemError) {
                let n = try SocketCalls.send(descriptor, bytes[done...])
                done += n
                if n == 0, try SystemCalls.poll(descriptor, SocketCalls.writable, until: deadline) == 0 {
                    throw SystemError(errno: ETIMEDOUT)
                }
            } catch {
                throw UnixSocket.failure(error, call: "send", timeoutMilliseconds: timeoutMilliseconds)
            }
        }
    }

    /// The next line (without its newline) received within `timeoutMilliseconds`, or nil when
    /// the peer closed the connection between lines. A line over `maxBytes` is refused as soon
    /// as that many bytes came without a newline (`.lineTooLong`); silence past the deadline is
    /// `.timedOut`; the connection closed mid-line is `.closed`.
    package func receiveLine(timeoutMilliseconds: Int, maxBytes: Int) throws(Failure) -> String? {
        let deadline = SystemCalls.deadline(afterMilliseconds: timeoutMilliseconds)
        return try pending.withLock { (pending: inout [UInt8]) throws(Failure) -> String? in
            while true {
                if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    guard newline <= maxBytes else { throw .lineTooLong(maxBytes: maxBytes) }
                    let line = Array(pending[..<newline])
                    pending.removeSubrange(...newline)
                    guard let text = String(validating: line, as: UTF8.self) else { throw .notALine }
                    return text
                }
                guard pending.count <= maxBytes else { throw .lineTooLong(maxBytes: maxBytes) }
                do throws(SystemError) {
                    guard let bytes = try SocketCalls.receive(descriptor, limit: 65_536) else {
                        if try SystemCalls.poll(descriptor, SocketCalls.readable, until: deadline) == 0 {
                            throw SystemError(errno: ETIMEDOUT)
                        }
                        continue
                    }
                    if bytes.isEmpty {
                        if pending.isEmpty { return nil }
                        throw SystemError(errno: ECONNRESET)
                    }
                    pending += bytes
                } catch {
                    throw UnixSocket.failure(error, call: "recv", timeoutMilliseconds: timeoutMilliseconds)
                }
            }
        }
    }

    /// The `Failure` of a send or receive error.
    private static func failure(_ error: SystemError, call: String, timeoutMilliseconds: Int) -> Failure {
        switch error.errno {
        case ETIMEDOUT: return .timedOut(milliseconds: timeoutMilliseconds)
        case EPIPE, ECONNRESET: return .closed
        default: return .system(call: call, error: error)
        }
    }
}
