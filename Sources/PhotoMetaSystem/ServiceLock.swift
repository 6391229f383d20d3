import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// Liveness that a dead process cannot fake: an exclusive `flock(2)` on a lock file in the
/// runtime folder, held for the life of this object, with the holder's pid written in the file
/// (for "another serve is running, pid N"). The kernel drops the lock when the holder's last
/// descriptor of it closes, `kill -9` included; a pid file alone would outlive its process.
///
/// Why `flock` and not `fcntl` (POSIX) locks: a POSIX lock belongs to the process and is dropped
/// when the process closes *any* descriptor of the file (SQLite, a probe in the same process,
/// a library reading it), whereas a `flock` lock belongs to the open file description, so it
/// lasts exactly as long as this object's descriptor. Two open file descriptions conflict even
/// within one process, so `probe` sees a lock held by its own process as alive.
///
/// The lock file is never removed (removing it would let a second holder lock a new file under
/// the same name while the first still holds the old one); after locking, the holder checks
/// that the name still leads to the file it locked.
package final class ServiceLock: Sendable {
    /// Why the lock was not taken.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// EWOULDBLOCK from `flock(LOCK_EX | LOCK_NB)`: a live process holds it; its pid when
        /// the file names one.
        case held(path: String, pid: Int32?)
        /// The lock file is not one photometa trusts (ELOOP from `O_NOFOLLOW`: a symbolic
        /// link; a FIFO, folder or device; another user's file).
        case untrusted(path: String, reason: Untrusted)
        /// A system call failed: `call` names it (`open`, `flock`, `pwrite`...), with its errno.
        case system(path: String, call: String, error: SystemError)

        package var description: String {
            switch self {
            case .held(_, let pid?): return "another photometa serve is running (pid \(pid))"
            case .held(let path, nil): return "another photometa serve holds \(path)"
            case .untrusted(let path, let reason): return "\(path) is not trusted: \(reason)"
            case .system(let path, let call, let error): return "\(path): \(call): \(error)"
            }
        }
    }

    /// Why a lock file is not trusted.
    package enum Untrusted: Sendable, Equatable, CustomStringConvertible {
        /// ELOOP from `open(O_NOFOLLOW)`: the name is a symbolic link.
        case symbolicLink
        /// Not a regular file: `what` says what it is ("a FIFO", "a socket", "a device").
        case notARegularFile(what: String)
        /// Owned by another user (uid).
        case ownedByAnotherUser(UInt32)

        package var description: String {
            switch self {
            case .symbolicLink: return "it is a symbolic link"
            case .notARegularFile(let what): return "it is \(what), not a regular file"
            case .ownedByAnotherUser(let uid): return "it belongs to another user (uid \(uid))"
            }
        }
    }

    /// What `probe` found.
    package enum Probe: Sendable, Equatable, CustomStringConvertible {
        /// EWOULDBLOCK from `flock(LOCK_SH | LOCK_NB)`: a live process holds the lock; its pid
        /// when the file names one (nil while a new holder is writing it).
        case alive(pid: Int32?)
        /// No live holder, and why.
        case notAlive(NotAlive)

        package var description: String {
            switch self {
            case .alive(let pid?): return "held by pid \(pid)"
            case .alive(nil): return "held"
            case .notAlive(let why): return "not held: \(why)"
            }
        }
    }

    /// Why `probe` found no live holder.
    package enum NotAlive: Sendable, Equatable, CustomStringConvertible {
        /// ENOENT: there is no lock file (no service has run).
        case missing
        /// The shared lock was granted: the last holder is gone (exited or killed).
        case released
        /// The file is not trusted (a link, a FIFO, another user's), whoever holds it.
        case untrusted(Untrusted)
        /// It could not be opened or locked: the errno of `call`.
        case failed(call: String, error: SystemError)

        package var description: String {
            switch self {
            case .missing: return "no lock file"
            case .released: return "no process holds the lock"
            case .untrusted(let reason): return "the lock file is not trusted (\(reason))"
            case .failed(let call, let error): return "\(call): \(error)"
            }
        }
    }

    /// The lock file's path.
    package let path: String
    private let descriptor: Int32

    /// Takes the lock at `path` (in a checked runtime folder): opens or creates the file
    /// (`O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC`, mode 0600), refuses it unless it is a
    /// regular file of this user's, locks it (`LOCK_EX | LOCK_NB`, never waiting) and writes
    /// this process's pid in it. Throws `.held` with the holder's pid when a live process has it.
    package init(path: String) throws(Failure) {
        self.path = path
        descriptor = try ServiceLock.lockExclusively(path)
        do throws(SystemError) {
            try SystemCalls.replaceContents(descriptor, Array("\(SystemCalls.processID)\n".utf8))
        } catch {
            SystemCalls.close(descriptor)
            throw .system(path: path, call: "pwrite", error: error)
        }
    }

    /// Closing the descriptor releases the lock (the file stays, see the type's comment).
    deinit { SystemCalls.close(descriptor) }

    /// The locked descriptor, after checking that `path` still names the file it locked (a
    /// file removed and created again by name between the open and the lock is locked anew).
    private static func lockExclusively(_ path: String) throws(Failure) -> Int32 {
        for _ in 0..<8 {
            let fd = try openTrusted(path, flags: O_RDWR | O_CREAT, create: true)
            do throws(SystemError) {
                try lockSoon(fd)
            } catch {
                let pid = error.errno == EWOULDBLOCK ? (try? readPid(fd)) ?? nil : nil
                SystemCalls.close(fd)
                throw error.errno == EWOULDBLOCK ? .held(path: path, pid: pid) : .system(path: path, call: "flock", error: error)
            }
            let opened = try? FileFacts.of(descriptor: fd)
            let named = try? FileFacts.of(path, followLinks: false)
            if let opened, let named, opened.device == named.device, opened.inode == named.inode { return fd }
            SystemCalls.close(fd)
        }
        throw .system(path: path, call: "flock", error: SystemError(errno: EAGAIN))
    }

    /// `flock(LOCK_EX | LOCK_NB)`, tried again for up to about 100 ms while it meets
    /// EWOULDBLOCK: a `probe` holds its shared lock for an instant, and a service starting just
    /// then must not take it for a live holder. A live holder still refuses after that.
    private static func lockSoon(_ fd: Int32) throws(SystemError) {
        var tries = 0
        while true {
            do throws(SystemError) {
                return try SystemCalls.lock(fd, LOCK_EX | LOCK_NB)
            } catch {
                tries += 1
                guard error.errno == EWOULDBLOCK, tries < 25 else { throw error }
                SystemCalls.pause(milliseconds: 4)
            }
        }
    }

    /// Opens `path` without following a link and without blocking on a FIFO, and keeps the
    /// descriptor only when it is a regular file of this user's (made 0600 when others could
    /// read it).
    private static func openTrusted(_ path: String, flags: Int32, create: Bool) throws(Failure) -> Int32 {
        let fd: Int32
        do throws(SystemError) {
            fd = try SystemCalls.open(path, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode: create ? 0o600 : 0)
        } catch {
            if error.errno == ELOOP { throw .untrusted(path: path, reason: .symbolicLink) }
            throw .system(path: path, call: "open", error: error)
        }
        let facts: FileFacts
        do throws(SystemError) {
            facts = try FileFacts.of(descriptor: fd)
        } catch {
            SystemCalls.close(fd)
            throw .system(path: path, call: "fstat", error: error)
        }
        var reason: Untrusted?
        switch facts.type {
        case .regular: break
        case .directory: reason = .notARegularFile(what: "a folder")
        case .symlink: reason = .symbolicLink
        case .other(let what): reason = .notARegularFile(what: what)
        }
        if reason == nil, facts.owner != SystemCalls.userID { reason = .ownedByAnotherUser(facts.owner) }
        if let reason {
            SystemCalls.close(fd)
            throw .untrusted(path: path, reason: reason)
        }
        if create, facts.permissions & 0o077 != 0 { try? SystemCalls.changeMode(descriptor: fd, 0o600) }
        return fd
    }

    /// The pid written in the lock file: decimal digits before the first newline, positive.
    private static func readPid(_ fd: Int32) throws(SystemError) -> Int32? {
        let bytes = try SystemCalls.readStart(fd, limit: 32)
        let digits = bytes.prefix { $0 != UInt8(ascii: "\n") }
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        guard let pid = Int32(String(decoding: digits, as: UTF8.self)), pid > 0 else { return nil }
        return pid
    }

    /// Whether a live process holds the lock at `path`, for another process (or this one): a
    /// shared lock (`LOCK_SH | LOCK_NB`) that is granted means no live holder, and is released
    /// at once; EWOULDBLOCK means one is alive, and its pid is read from the file. Nothing is
    /// created. A link, a FIFO or another user's file is never trusted: `.notAlive`, with why.
    package static func probe(_ path: String) -> Probe {
        let fd: Int32
        do throws(Failure) {
            fd = try openTrusted(path, flags: O_RDONLY, create: false)
        } catch {
            switch error {
            case .untrusted(_, let reason): return .notAlive(.untrusted(reason))
            case .system(_, _, let e) where e.errno == ENOENT: return .notAlive(.missing)
            case .system(_, let call, let e): return .notAlive(.failed(call: call, error: e))
            case .held: return .notAlive(.failed(call: "open", error: SystemError(errno: EINVAL)))
            }
        }
        defer { SystemCalls.close(fd) }
        do throws(SystemError) {
            try SystemCalls.lock(fd, LOCK_SH | LOCK_NB)
            return .notAlive(.released)  // closing the descriptor (defer) drops the shared lock
        } catch {
            guard error.errno == EWOULDBLOCK else { return .notAlive(.failed(call: "flock", error: error)) }
            return .alive(pid: (try? readPid(fd)) ?? nil)
        }
    }
}
