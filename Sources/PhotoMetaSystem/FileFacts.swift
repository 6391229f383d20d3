internal import CStatx
import PhotoMetaCore

/// What the file system says about a file: type, size, identity and times (statx, so the birth
/// time is there when the file system records it).
package struct FileFacts: Sendable, Equatable {
    package enum FileType: Sendable, Equatable {
        case regular, directory, symlink
        case other(String)
    }

    package var type: FileType
    package var size: Int64
    package var inode: UInt64
    package var device: UInt64
    package var modification: (seconds: Int64, nanoseconds: Int32)
    package var change: (seconds: Int64, nanoseconds: Int32)
    package var birth: (seconds: Int64, nanoseconds: Int32)?
    /// The owner's user id.
    package var owner: UInt32 = 0
    /// Permission bits (`st_mode & 0o7777`).
    package var permissions: UInt32 = 0

    package static func == (a: FileFacts, b: FileFacts) -> Bool {
        a.type == b.type && a.size == b.size && a.inode == b.inode && a.device == b.device
            && a.modification == b.modification && a.change == b.change
            && a.birth?.seconds == b.birth?.seconds && a.birth?.nanoseconds == b.birth?.nanoseconds
    }

    /// `statx` on `path`; `followLinks: false` describes a symbolic link itself. A path longer
    /// than `PATH_MAX` is reached through its folder's descriptor (`LongPath`).
    package static func of(_ path: String, followLinks: Bool = true) throws(SystemError) -> FileFacts {
        var st = pm_file_stat()
        let rc = try LongPath.at(path) { dir, name in
            PathBytes.withCPath(name) { pm_statx_at(dir, $0, followLinks ? 0 : 1, &st) }
        }
        guard rc == 0 else { throw SystemError(errno: rc) }
        return FileFacts(st)
    }

    /// `statx` on `name` inside the open directory `directory` (a file descriptor).
    package static func of(_ name: String, in directory: Int32, followLinks: Bool) throws(SystemError) -> FileFacts {
        var st = pm_file_stat()
        let rc = PathBytes.withCPath(name) { pm_statx_at(directory, $0, followLinks ? 0 : 1, &st) }
        guard rc == 0 else { throw SystemError(errno: rc) }
        return FileFacts(st)
    }

    /// `statx` on an open file descriptor.
    package static func of(descriptor fd: Int32) throws(SystemError) -> FileFacts {
        var st = pm_file_stat()
        let rc = pm_statx_fd(fd, &st)
        guard rc == 0 else { throw SystemError(errno: rc) }
        return FileFacts(st)
    }

    package init(
        type: FileType, size: Int64, inode: UInt64, device: UInt64, modification: (seconds: Int64, nanoseconds: Int32),
        change: (seconds: Int64, nanoseconds: Int32), birth: (seconds: Int64, nanoseconds: Int32)?
    ) {
        self.type = type
        self.size = size
        self.inode = inode
        self.device = device
        self.modification = modification
        self.change = change
        self.birth = birth
    }

    init(_ st: pm_file_stat) {
        let fmt = st.mode & 0o170000
        let type: FileType
        switch fmt {
        case 0o100000: type = .regular
        case 0o040000: type = .directory
        case 0o120000: type = .symlink
        case 0o010000: type = .other("a FIFO")
        case 0o140000: type = .other("a socket")
        default: type = .other("a device")
        }
        self.init(
            type: type, size: st.size, inode: st.inode, device: st.device,
            modification: (st.mtime_sec, st.mtime_nsec), change: (st.ctime_sec, st.ctime_nsec),
            birth: st.has_btime != 0 ? (st.btime_sec, st.btime_nsec) : nil)
        owner = st.uid
        permissions = st.mode & 0o7777
    }

    /// The key of the file's content (what the index and the watcher compare).
    package var key: FileKey { FileKey(self) }

    /// The times as the date stage wants them.
    /// Kept to the millisecond, the precision reports show, so that a date read back from a
    /// report equals the one the library computed.
    package var fileTimes: FileTimes? {
        func time(_ seconds: Int64, _ nanoseconds: Int32) -> LocalDateTime? {
            let millis = Int(nanoseconds) / 1_000_000
            return LocalDateTime(secondsAsIfUTC: seconds, nanosecond: millis * 1_000_000, fractionDigits: millis == 0 ? nil : 3)
        }
        guard let m = time(modification.seconds, modification.nanoseconds) else { return nil }
        let b = birth.flatMap { time($0.seconds, $0.nanoseconds) }
        return FileTimes(birth: b, modification: m)
    }
}

/// What identifies a file's content without reading it: size, mtime, ctime, inode and device.
/// A file whose key is unchanged is taken to be unchanged (the index and the watcher rely on it).
package struct FileKey: Sendable, Hashable {
    package var size: Int64
    package var mtimeNanoseconds: Int64
    package var ctimeNanoseconds: Int64
    package var inode: Int64
    package var device: Int64

    package init(_ f: FileFacts) {
        size = f.size
        // Wrapping arithmetic: a hostile time stamp (year 292 billion) must not trap; such a key
        // is still a key, only not a meaningful time.
        mtimeNanoseconds = f.modification.seconds &* 1_000_000_000 &+ Int64(f.modification.nanoseconds)
        ctimeNanoseconds = f.change.seconds &* 1_000_000_000 &+ Int64(f.change.nanoseconds)
        inode = Int64(bitPattern: f.inode)
        device = Int64(bitPattern: f.device)
    }

    /// The key of a file a walk did not examine (`TreeWalker.examinesListedFiles` false): a
    /// size no file has, so no index row or snapshot entry holds it.
    package static let unexamined = FileKey(size: -1, mtime: 0, ctime: 0, inode: 0, device: 0)

    package init(size: Int64, mtime: Int64, ctime: Int64, inode: Int64, device: Int64) {
        self.size = size
        mtimeNanoseconds = mtime
        ctimeNanoseconds = ctime
        self.inode = inode
        self.device = device
    }

    /// The modification time in seconds since 1970 (the arithmetic every caller shares, so warm
    /// and cold runs agree to the bit).
    package var modifiedSeconds: Double { Double(mtimeNanoseconds) / 1e9 }
}
