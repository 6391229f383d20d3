import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// An open directory: its entries with their `d_type`, and `statx` relative to it, so a scan
/// resolves one path component per file instead of the whole path, and skips the `stat` of
/// entries whose type the directory already tells.
final class DirectoryHandle {
    enum EntryType {
        case regular, directory, symlink
        case other(String)
        case unknown
    }

    struct Entry {
        var name: String
        var type: EntryType
        /// The name as it sorts in a path: folders as "name/", so that sorting entries folder by
        /// folder gives the byte order of whole paths.
        var sortKey: [UInt8]
        /// False when the name's bytes are not UTF-8: `name` then holds U+FFFD where they were
        /// and no longer names the file.
        var nameIsUTF8 = true
    }

    let fd: Int32

    /// Opens the folder at `path` (links followed; a path longer than `PATH_MAX` through its
    /// parent's descriptor, `LongPath`).
    init(path: String) throws(SystemError) {
        let opened = try LongPath.at(path) { dir, name in
            let fd = PathBytes.withCPath(name) { openat(dir, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            return (fd, errno)
        }
        guard opened.0 >= 0 else { throw SystemError(errno: opened.1) }
        self.fd = opened.0
    }

    /// Opens the folder `name` inside `parent`, relative to its descriptor: one component to
    /// resolve whatever the depth, and never through a symbolic link (`O_NOFOLLOW`: a folder
    /// replaced by a link after it was listed is refused with ELOOP, not followed).
    init(in parent: DirectoryHandle, name: String) throws(SystemError) {
        let fd = PathBytes.withCPath(name) { openat(parent.fd, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { throw SystemError(errno: errno) }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Every entry except "." and "..", sorted by `sortKey` (byte order).
    func entries() throws(SystemError) -> [Entry] {
        // fdopendir takes ownership of the descriptor it is given (closedir closes it), so it
        // gets a copy; when it fails the copy is still ours and is closed here.
        let copy = dup(fd)
        guard copy >= 0 else { throw SystemError(errno: errno) }
        guard let dir = fdopendir(copy) else {
            let e = errno
            close(copy)
            throw SystemError(errno: e)
        }
        defer { closedir(dir) }
        var result: [Entry] = []
        while let entry = readdir(dir) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix(while: { $0 != 0 })) }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            let type: EntryType
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): type = .regular
            case Int32(DT_DIR): type = .directory
            case Int32(DT_LNK): type = .symlink
            case Int32(DT_FIFO): type = .other("a FIFO")
            case Int32(DT_SOCK): type = .other("a socket")
            case Int32(DT_CHR), Int32(DT_BLK): type = .other("a device")
            default: type = .unknown
            }
            result.append(
                Entry(
                    name: PathBytes.decode(bytes), type: type,
                    sortKey: { if case .directory = type { return bytes + [0x2F] } else { return bytes } }(),
                    nameIsUTF8: String(validating: bytes, as: UTF8.self) != nil))
        }
        result.sort { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
        return result
    }

    func facts(_ name: String, followLinks: Bool) throws(SystemError) -> FileFacts {
        try FileFacts.of(name, in: fd, followLinks: followLinks)
    }
}
