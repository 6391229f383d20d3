import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// Files that hold what a user did (the suggestion memory) or a cache of their library (the
/// index) live in folders only that user can change. Otherwise another user could plant a
/// symbolic link where the file will be created, and photometa (run as root, say) would write
/// its database wherever the link points.
///
/// - A missing folder is created with mode 0700, never directly under `/` (a `HOME` that does
///   not exist is an error, not a folder to make).
/// - The folder must be a real folder (not a link), owned by the user running photometa, and
///   writable by no one else.
/// - The file must be a regular file (not a link) owned by that user; a new one is created
///   0600 with `O_EXCL | O_NOFOLLOW`, and an existing one readable by others is made 0600.
package enum PrivateFiles {
    /// Why a folder or file is not private enough to use.
    package enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case symbolicLink(path: String)
        case notAFolder(path: String)
        case notARegularFile(path: String)
        case ownedByAnotherUser(path: String, owner: UInt32)
        case writableByOthers(path: String, permissions: UInt32)
        case missingBase(path: String)
        case system(path: String, error: SystemError)

        package var description: String {
            switch self {
            case .symbolicLink(let p):
                return "\(p) is a symbolic link (not followed, so a planted link cannot redirect the write)"
            case .notAFolder(let p): return "\(p) is not a folder"
            case .notARegularFile(let p): return "\(p) is not a regular file"
            case .ownedByAnotherUser(let p, let uid):
                return
                    "\(p) belongs to another user (uid \(uid)); photometa keeps its files only in folders of the user running it"
            case .writableByOthers(let p, let mode):
                return
                    "\(p) can be written by other users (mode \(String(mode, radix: 8))); use a folder only you can write (chmod go-w)"
            case .missingBase(let p):
                return
                    "\(p) does not exist, and photometa does not create folders at the top of the file system (is HOME set right?)"
            case .system(let p, let e): return "\(p): \(e)"
            }
        }
    }

    /// Makes sure `folder` exists and is private, creating what is missing (mode 0700).
    package static func ensureFolder(_ folder: String) throws(Problem) {
        var missing: [String] = []
        var current = folder
        while true {
            do throws(SystemError) {
                _ = try FileFacts.of(current, followLinks: false)
                break
            } catch {
                guard error.errno == ENOENT else { throw .system(path: current, error: error) }
            }
            missing.append(current)
            let parent = parentPath(current)
            guard parent != current, parent != "/" else { throw .missingBase(path: current) }
            current = parent
        }
        for path in missing.reversed() {
            if PathBytes.withCPath(path, { mkdir($0, 0o700) }) != 0, errno != EEXIST {
                throw .system(path: path, error: SystemError(errno: errno))
            }
        }
        try checkFolder(folder)
    }

    /// The folder is a real folder of this user's that no one else can write.
    package static func checkFolder(_ folder: String) throws(Problem) {
        let f: FileFacts
        do throws(SystemError) {
            f = try FileFacts.of(folder, followLinks: false)
        } catch {
            throw .system(path: folder, error: error)
        }
        switch f.type {
        case .symlink: throw .symbolicLink(path: folder)
        case .directory: break
        default: throw .notAFolder(path: folder)
        }
        guard f.owner == geteuid() else { throw .ownedByAnotherUser(path: folder, owner: f.owner) }
        guard f.permissions & 0o022 == 0 else { throw .writableByOthers(path: folder, permissions: f.permissions) }
    }

    /// A private file held open: checked through its descriptor, so what was checked is what is
    /// held, whatever happens to the name afterwards.
    package final class HeldFile {
        let fd: Int32
        let device: UInt64
        let inode: UInt64

        init(fd: Int32, device: UInt64, inode: UInt64) {
            self.fd = fd
            self.device = device
            self.inode = inode
        }

        /// True when `path` still names the held file (a regular file, not a link): the file a
        /// program that opens by name (SQLite) opened after the check is the one checked.
        package func isStill(at path: String) -> Bool {
            guard let f = try? FileFacts.of(path, followLinks: false) else { return false }
            return f.type == .regular && f.device == device && f.inode == inode
        }

        deinit { close(fd) }
    }

    /// Opens the file at `path` (in a checked folder) with `O_NOFOLLOW` and checks it through the
    /// descriptor (`fstat`, `fchmod`): a regular file of this user's, made 0600 when it is
    /// readable by others. When it is missing, creates it 0600 (`O_EXCL | O_NOFOLLOW`) if
    /// `create` is set, else returns nil. No check-then-open race: a link or another file put
    /// in its place between the check and the open is never the one checked.
    package static func hold(_ path: String, create: Bool) throws(Problem) -> HeldFile? {
        var fd = PathBytes.withCPath(path) { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        if fd < 0, errno == ENOENT, create {
            fd = PathBytes.withCPath(path) { open($0, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
            // Another process created it meanwhile: hold that one instead.
            if fd < 0, errno == EEXIST { return try hold(path, create: false) }
        }
        guard fd >= 0 else {
            switch errno {
            case ENOENT where !create: return nil
            case ELOOP: throw .symbolicLink(path: path)
            default: throw .system(path: path, error: SystemError(errno: errno))
            }
        }
        let f: FileFacts
        do throws(SystemError) {
            f = try FileFacts.of(descriptor: fd)
        } catch {
            close(fd)
            throw .system(path: path, error: error)
        }
        guard f.type == .regular else {
            close(fd)
            throw .notARegularFile(path: path)
        }
        guard f.owner == geteuid() else {
            close(fd)
            throw .ownedByAnotherUser(path: path, owner: f.owner)
        }
        // What a user dismissed is theirs alone: tighten a file made by an older photometa.
        if f.permissions & 0o077 != 0 { fchmod(fd, 0o600) }
        return HeldFile(fd: fd, device: f.device, inode: f.inode)
    }

    /// Writes `bytes` to `path` (in a checked folder) so that no reader ever sees half of it: a
    /// new temporary file beside it (0600, `O_EXCL | O_NOFOLLOW`), then `rename` over the name.
    package static func replaceAtomically(_ path: String, with bytes: [UInt8]) throws(Problem) {
        let folder = parentPath(path)
        let name = path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...]
        let temporary = folder + "/." + name + ".photometa-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = PathBytes.withCPath(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw .system(path: temporary, error: SystemError(errno: errno)) }
        let failure = FileDescriptorOutput.writeAll(fd, bytes)
        close(fd)
        if let failure {
            _ = PathBytes.withCPath(temporary) { unlink($0) }
            throw .system(path: temporary, error: failure)
        }
        let moved = PathBytes.withCPath(temporary) { t in PathBytes.withCPath(path) { rename(t, $0) } }
        if moved != 0 {
            let e = SystemError(errno: errno)
            _ = PathBytes.withCPath(temporary) { unlink($0) }
            throw .system(path: path, error: e)
        }
    }

    static func parentPath(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
