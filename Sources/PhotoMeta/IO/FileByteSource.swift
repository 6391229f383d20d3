#if canImport(Glibc)
import Glibc
#endif

/// A `ByteSource` over an open file, read with `pread` through one 64 KiB window, so that
/// walking segment headers costs a few system calls, never a read of the whole file.
///
/// Opening uses O_NONBLOCK so that a FIFO never blocks, and refuses anything that is not a
/// regular file before reading.
public final class FileByteSource: ByteSource {
    public let size: Int64
    private let fd: Int32
    private var windowStart: Int64 = -1
    private var window: [UInt8] = []
    /// Most files' metadata ends within the first few KiB; a larger APP1 or box costs one more
    /// `pread` of exactly its size.
    static let windowSize = 16 << 10

    public enum OpenError: Error, CustomStringConvertible {
        case system(path: String, errno: Int32)
        case notRegular(path: String, what: String)

        public var description: String {
            switch self {
            case .system(_, let e): return SystemError.message(e)
            case .notRegular(_, let what): return "not a regular file (\(what))"
            }
        }
    }

    public init(path: String) throws(OpenError) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .system(path: path, errno: errno) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            close(fd)
            throw .system(path: path, errno: e)
        }
        let type = st.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(fd)
            throw .notRegular(path: path, what: FileByteSource.describe(type))
        }
        self.fd = fd
        self.size = Int64(st.st_size)
    }

    deinit { close(fd) }

    static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFLNK: return "a symbolic link"
        default: return "special file"
        }
    }

    public func read(at offset: Int64, count: Int) throws -> [UInt8] {
        guard offset >= 0, count > 0, offset < size else { return [] }
        let n = Int(min(Int64(count), size - offset))
        // Served from the window when it holds the whole range.
        if windowStart >= 0, offset >= windowStart, offset + Int64(n) <= windowStart + Int64(window.count) {
            let s = Int(offset - windowStart)
            return Array(window[s..<s + n])
        }
        if n <= FileByteSource.windowSize / 2 {
            try fill(at: offset)
            let available = min(n, window.count)
            return Array(window[0..<available])
        }
        return try preadFully(at: offset, count: n)
    }

    private func fill(at offset: Int64) throws {
        window = try preadFully(at: offset, count: Int(min(Int64(FileByteSource.windowSize), size - offset)))
        windowStart = offset
    }

    /// Reads into an uninitialised buffer (no zero fill); fewer bytes when the file shrank
    /// while being read.
    private func preadFully(at offset: Int64, count: Int) throws -> [UInt8] {
        var failure: Int32 = 0
        let fd = self.fd
        let buffer = [UInt8](unsafeUninitializedCapacity: count) { raw, initialized in
            var done = 0
            while done < count, let base = raw.baseAddress {
                let r = pread(fd, base + done, count - done, off_t(offset) + off_t(done))
                if r < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if r == 0 { break }
                done += r
            }
            initialized = done
        }
        if failure != 0 { throw SystemError(errno: failure) }
        return buffer
    }
}

/// An errno value with its message; the one place that turns C errors into text.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public let errno: Int32
    public init(errno: Int32) { self.errno = errno }
    public var description: String { SystemError.message(errno) }

    public static func message(_ e: Int32) -> String {
        switch e {
        case EACCES, EPERM: return "permission denied"
        case ENOENT: return "no such file or directory"
        case ELOOP: return "too many levels of symbolic links"
        case EISDIR: return "is a directory"
        case ENAMETOOLONG: return "file name too long"
        default:
            guard let s = strerror(e) else { return "error \(e)" }
            return String(cString: s).lowercased()
        }
    }
}
