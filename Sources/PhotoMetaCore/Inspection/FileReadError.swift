#if canImport(Glibc)
    import Glibc
#endif

/// An `errno` value from a system call, with its message.
///
/// The messages come from a fixed table (not `strerror`), so a report reads the same on every
/// machine; reports also carry the code (`name`, FileReadErrorCode.swift), which is what
/// readers decode. The system calls themselves
/// live in PhotoMetaSystem; this is only the value they fail with.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C `errno` value (`ENOENT`, `EACCES`, ...).
    public let errno: Int32

    /// The error of `errno`.
    public init(errno: Int32) { self.errno = errno }

    /// `ENOENT`.
    public static let noSuchFile = SystemError(errno: ENOENT)
    /// `EACCES`.
    public static let permissionDenied = SystemError(errno: EACCES)
    /// `ELOOP`: what `O_NOFOLLOW` answers for a symbolic link.
    package static let tooManyLinks = SystemError(errno: ELOOP)

    /// True for `EACCES` and `EPERM`: the user may not do this (a fix is a permission change).
    public var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }

    /// The message, from a fixed table (`error N` for codes outside it).
    public var description: String { SystemError.message(errno) }

    /// The message for `code`: a fixed text for the codes a file or folder access can meet,
    /// else `error N`.
    package static func message(_ code: Int32) -> String {
        if code == EPERM { return "permission denied" }
        return table.first { $0.0 == code }?.1 ?? "error \(code)"
    }

    private static let table: [(Int32, String)] = [
        (EACCES, "permission denied"),
        (ENOENT, "no such file or directory"),
        (ELOOP, "too many levels of symbolic links"),
        (EISDIR, "is a directory"),
        (ENOTDIR, "not a directory"),
        (ENAMETOOLONG, "file name too long"),
        (EIO, "input/output error"),
        (EMFILE, "too many open files"),
        (ENFILE, "too many open files in system"),
        (ENOMEM, "cannot allocate memory"),
        (ENOSPC, "no space left on device"),
        (EROFS, "read-only file system"),
        (EBUSY, "device or resource busy"),
        (EAGAIN, "resource temporarily unavailable"),
        (EINTR, "interrupted system call"),
        (EINVAL, "invalid argument"),
        (EBADF, "bad file descriptor"),
        (EEXIST, "file exists"),
        (ENXIO, "no such device or address"),
        (ENODEV, "no such device"),
        (EOVERFLOW, "value too large for defined data type"),
        (ESTALE, "stale file handle"),
        (ETIMEDOUT, "connection timed out"),
        (EXDEV, "invalid cross-device link"),
        (EFBIG, "file too large"),
        (ENOTEMPTY, "directory not empty"),
        (ENOSYS, "function not implemented"),
        (EOPNOTSUPP, "operation not supported"),
    ]
}

/// Why a file could not be read at all (the `error` of a `MediaAsset`). Problems *inside* a
/// file that could be read are `Diagnostic`s instead.
public enum FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A system call failed (stat, open, read), with its errno.
    case system(SystemError)
    /// The path names a folder.
    case isDirectory
    /// Not a regular file: `what` says what it is ("a FIFO", "a socket", "a device").
    case notRegularFile(what: String)
    /// The file has no bytes.
    case empty
    /// The first bytes match no format photometa reads.
    case unsupportedFormat
    /// The first bytes could not be read.
    case unreadable(ReadFailure)

    /// The message the report shows as `error`.
    public var description: String {
        switch self {
        case .system(let e): return e.description
        case .isDirectory: return "is a directory"
        case .notRegularFile(let what): return "not a regular file (\(what))"
        case .empty: return "empty file"
        case .unsupportedFormat: return "not a supported image or video format"
        case .unreadable(let f): return f.description
        }
    }
}
