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
                    "\(p) does not exist, and photometa does not create folders at the top of the file system"
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

    /// A private file as checked: its identity (device and inode), so that a program that opens
    /// it by name afterwards (SQLite) can be held to the file that was checked.
    ///
    /// No descriptor is kept open for it, on purpose: closing *any* descriptor of a file drops
    /// every POSIX lock this process holds on it, SQLite's included (SQLite's "How To Corrupt"
    /// 2.2). A descriptor held across SQLite's open and closed afterwards lost updates under
    /// racing writers (SuggestCommandTests.testRacingProcessesNeverLoseAnUpdateNorFailLocked,
    /// about one run in eight), and would break the locks of another connection the process
    /// has to the same file (one `watch` of several folders has one per folder).
    package struct CheckedFile: Sendable, Equatable {
        package let device: UInt64
        package let inode: UInt64

        /// True when `path` still names the checked file (a regular file, not a link): the
        /// file SQLite opened by name after the check is the one checked.
        package func isStill(at path: String) -> Bool {
            guard let f = try? FileFacts.of(path, followLinks: false) else { return false }
            return f.type == .regular && f.device == device && f.inode == inode
        }
    }

    /// Checks the file at `path` (in a checked folder, which only this user can change): a
    /// regular file, not a link, of this user's, made 0600 when it is readable by others. When
    /// it is missing, creates it 0600 (`O_CREAT | O_EXCL | O_NOFOLLOW`) if `create` is set, else
    /// returns nil. The caller opens it by name and then asks `isStill(at:)`, so a file swapped
    /// in between is refused.
    package static func check(_ path: String, create: Bool) throws(Problem) -> CheckedFile? {
        let f: FileFacts
        do throws(SystemError) {
            f = try FileFacts.of(path, followLinks: false)
        } catch {
            guard error.errno == ENOENT else { throw .system(path: path, error: error) }
            return create ? try createPrivate(path) : nil
        }
        switch f.type {
        case .symlink: throw .symbolicLink(path: path)
        case .regular: break
        default: throw .notARegularFile(path: path)
        }
        guard f.owner == geteuid() else { throw .ownedByAnotherUser(path: path, owner: f.owner) }
        // What a user dismissed is theirs alone: tighten a file made by an older photometa. By
        // name, with no descriptor opened (see `CheckedFile`); the folder is this user's alone.
        if f.permissions & 0o077 != 0 { _ = PathBytes.withCPath(path) { chmod($0, 0o600) } }
        return CheckedFile(device: f.device, inode: f.inode)
    }

    /// Creates the file empty with mode 0600, never through a link. The descriptor is closed at
    /// once: the file is new, so no connection of this process can hold a lock on it yet.
    private static func createPrivate(_ path: String) throws(Problem) -> CheckedFile? {
        let fd = PathBytes.withCPath(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard fd >= 0 else {
            switch errno {
            // Another process created it meanwhile: check that one instead.
            case EEXIST: return try check(path, create: false)
            case ELOOP: throw .symbolicLink(path: path)
            default: throw .system(path: path, error: SystemError(errno: errno))
            }
        }
        defer { close(fd) }
        do throws(SystemError) {
            let f = try FileFacts.of(descriptor: fd)
            return CheckedFile(device: f.device, inode: f.inode)
        } catch {
            throw .system(path: path, error: error)
        }
    }

    /// Writes `bytes` to `path` (in a checked folder) so that no reader ever sees half of it: a
    /// new temporary file beside it (0600, `O_EXCL | O_NOFOLLOW`), then `rename` over the name.
    package static func replaceAtomically(_ path: String, with bytes: [UInt8]) throws(Problem) {
        let folder = parentPath(path)
        let name = path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...]
        let temporary = folder + "/." + name + ".photometa-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = PathBytes.withCPath(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        // Errors name the file asked for (its folder is what a user can fix), never the
        // hidden temporary name.
        guard fd >= 0 else { throw .system(path: path, error: SystemError(errno: errno)) }
        let failure = FileDescriptorOutput.writeAll(fd, bytes)
        close(fd)
        if let failure {
            _ = PathBytes.withCPath(temporary) { unlink($0) }
            throw .system(path: path, error: failure)
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
