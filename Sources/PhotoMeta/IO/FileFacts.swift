import CStatx

/// What the file system says about a file: type, size, identity and times (statx, so the birth
/// time is there when the file system records it).
public struct FileFacts: Sendable, Equatable {
    public enum FileType: Sendable, Equatable { case regular, directory, symlink, other(String) }

    public var type: FileType
    public var size: Int64
    public var inode: UInt64
    public var device: UInt64
    public var modification: (seconds: Int64, nanoseconds: Int32)
    public var change: (seconds: Int64, nanoseconds: Int32)
    public var birth: (seconds: Int64, nanoseconds: Int32)?

    public static func == (a: FileFacts, b: FileFacts) -> Bool {
        a.type == b.type && a.size == b.size && a.inode == b.inode && a.device == b.device
            && a.modification == b.modification && a.change == b.change
            && a.birth?.seconds == b.birth?.seconds && a.birth?.nanoseconds == b.birth?.nanoseconds
    }

    /// `statx` on `path`; `followLinks: false` describes a symbolic link itself.
    public static func of(_ path: String, followLinks: Bool = true) throws(SystemError) -> FileFacts {
        var st = pm_file_stat()
        let rc = pm_statx(path, followLinks ? 0 : 1, &st)
        guard rc == 0 else { throw SystemError(errno: rc) }
        return FileFacts(st)
    }

    /// `statx` on `name` inside the open directory `directory` (a file descriptor).
    public static func of(_ name: String, in directory: Int32, followLinks: Bool) throws(SystemError) -> FileFacts {
        var st = pm_file_stat()
        let rc = pm_statx_at(directory, name, followLinks ? 0 : 1, &st)
        guard rc == 0 else { throw SystemError(errno: rc) }
        return FileFacts(st)
    }

    /// `statx` on an open file descriptor.
    public static func of(descriptor fd: Int32) throws(SystemError) -> FileFacts {
        var st = pm_file_stat()
        let rc = pm_statx_fd(fd, &st)
        guard rc == 0 else { throw SystemError(errno: rc) }
        return FileFacts(st)
    }

    public init(type: FileType, size: Int64, inode: UInt64, device: UInt64, modification: (seconds: Int64, nanoseconds: Int32),
                change: (seconds: Int64, nanoseconds: Int32), birth: (seconds: Int64, nanoseconds: Int32)?) {
        self.type = type; self.size = size; self.inode = inode; self.device = device
        self.modification = modification; self.change = change; self.birth = birth
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
        self.init(type: type, size: st.size, inode: st.inode, device: st.device,
                  modification: (st.mtime_sec, st.mtime_nsec), change: (st.ctime_sec, st.ctime_nsec),
                  birth: st.has_btime != 0 ? (st.btime_sec, st.btime_nsec) : nil)
    }

    /// The times as the date stage wants them.
    public var fileTimes: FileTimes? {
        guard let m = LocalDateTime(secondsAsIfUTC: modification.seconds, nanosecond: Int(modification.nanoseconds),
                                    fractionDigits: modification.nanoseconds == 0 ? nil : 3) else { return nil }
        let b = birth.flatMap {
            LocalDateTime(secondsAsIfUTC: $0.seconds, nanosecond: Int($0.nanoseconds), fractionDigits: $0.nanoseconds == 0 ? nil : 3)
        }
        return FileTimes(birth: b, modification: m)
    }
}
