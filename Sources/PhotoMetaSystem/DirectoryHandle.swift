import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// An open directory: its entries with their `d_type`, and `statx` relative to it, so a scan
/// resolves one path component per file instead of the whole path, and skips the `stat` of
/// entries whose type the directory already tells.
final class DirectoryHandle {
    enum EntryType: UInt8 {
        case regular, directory, symlink, fifo, socket, device, unknown

        /// What a FIFO, socket or device is called in a skip reason ("a FIFO"); nil otherwise.
        var special: String? {
            switch self {
            case .fifo: return "a FIFO"
            case .socket: return "a socket"
            case .device: return "a device"
            case .regular, .directory, .symlink, .unknown: return nil
            }
        }
    }

    /// A folder's entries in byte order of their paths: every name's bytes in one buffer, and
    /// per entry where its name lies and what `d_type` said. A folder of 50,000 files is then
    /// two allocations (2.4 MB), not 100,000 (a string and a sort key each, 8.7 MB);
    /// names are made into strings one at a time, as the walk comes to them.
    struct Listing {
        struct Entry {
            /// The name's bytes: `bytes[start..<start + count]`.
            var start: Int
            var count: Int
            var type: EntryType
        }

        /// Every name's bytes, one after another.
        private(set) var bytes: [UInt8] = []
        private(set) var entries: [Entry] = []

        /// The entry's name (a name that is not UTF-8 carries its bytes, `PathBytes`).
        func name(_ e: Entry) -> String { PathBytes.decode(bytes[e.start..<e.start + e.count]) }

        /// Hidden: the name starts with ".".
        func isHidden(_ e: Entry) -> Bool { e.count > 0 && bytes[e.start] == UInt8(ascii: ".") }

        /// False when the name's bytes are not UTF-8.
        func isUTF8(_ e: Entry) -> Bool { String(validating: bytes[e.start..<e.start + e.count], as: UTF8.self) != nil }

        mutating func append(_ name: UnsafeBufferPointer<UInt8>, type: EntryType) {
            entries.append(Entry(start: bytes.count, count: name.count, type: type))
            bytes.append(contentsOf: name)
        }

        /// A name given, not listed (what inotify named): its type is found by `statx`.
        mutating func append(name: String) {
            PathBytes.encode(name).withUnsafeBufferPointer { append($0, type: .unknown) }
        }

        /// Sorts the entries by their bytes, a folder's name as if followed by "/", so that
        /// sorting folder by folder gives the byte order of whole paths.
        mutating func sort() {
            bytes.withUnsafeBufferPointer { b in
                guard let base = b.baseAddress else { return }
                entries.sort { x, y in
                    let n = min(x.count, y.count)
                    let c = n == 0 ? 0 : memcmp(base + x.start, base + y.start, n)
                    if c != 0 { return c < 0 }
                    // One name is a prefix of the other: the next byte decides, "/" after a
                    // folder's name, nothing (before any byte) after a file's.
                    let xNext = x.count > n ? Int(base[x.start + n]) : (x.type == .directory ? 0x2F : -1)
                    let yNext = y.count > n ? Int(base[y.start + n]) : (y.type == .directory ? 0x2F : -1)
                    return xNext < yNext
                }
            }
        }
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

    /// Every entry except "." and "..", sorted (`Listing.sort`).
    func entries() throws(SystemError) -> Listing {
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
        var listing = Listing()
        while let entry = readdir(dir) {
            let type: EntryType
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): type = .regular
            case Int32(DT_DIR): type = .directory
            case Int32(DT_LNK): type = .symlink
            case Int32(DT_FIFO): type = .fifo
            case Int32(DT_SOCK): type = .socket
            case Int32(DT_CHR), Int32(DT_BLK): type = .device
            default: type = .unknown
            }
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                let name = UnsafeBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)])
                if name.count == 1, name[0] == 0x2E { return }
                if name.count == 2, name[0] == 0x2E, name[1] == 0x2E { return }
                listing.append(name, type: type)
            }
        }
        listing.sort()
        return listing
    }

    func facts(_ name: String, followLinks: Bool) throws(SystemError) -> FileFacts {
        try FileFacts.of(name, in: fd, followLinks: followLinks)
    }
}
