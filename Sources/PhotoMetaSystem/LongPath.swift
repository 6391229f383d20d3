internal import CStatx
import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// Paths longer than the kernel takes in one call (`PATH_MAX`, 4,096 bytes with its NUL): a
/// photo 60 folders deep is `ENAMETOOLONG` to `open` and `statx` by path. Such a path is reached
/// the way `TreeWalker` reaches it, one folder at a time: its folder is opened component by
/// component with `openat` (`O_PATH`, so only search permission is needed, as for the kernel's
/// own lookup; links in the folders are followed, as by a path lookup), and the call is made
/// relative to that descriptor. Two descriptors at most are open at once; shorter paths take
/// the direct call, with no extra system call.
enum LongPath {
    /// The longest path, in bytes without its NUL, that a system call takes.
    static let directLimit = Int(PATH_MAX) - 1

    /// Calls `body` with a folder descriptor and a name below it that reach `path`: `AT_FDCWD`
    /// and the path itself when it is short enough, else its folder opened component by
    /// component (closed after `body`). Throws the errno of a folder that cannot be opened.
    static func at<R>(_ path: String, _ body: (Int32, String) -> R) throws(SystemError) -> R {
        var bytes = PathBytes.encode(path)
        while bytes.count > 1, bytes.last == 0x2F { bytes.removeLast() }
        guard bytes.count > directLimit, let slash = bytes.lastIndex(of: 0x2F) else { return body(AT_FDCWD, path) }
        let folder = try openFolder(Array(bytes[..<slash]), absolute: bytes.first == 0x2F)
        defer { close(folder) }
        return body(folder, PathBytes.decode(bytes[(slash + 1)...]))
    }

    /// The folder `components` (a path's bytes) opened one component at a time.
    private static func openFolder(_ bytes: [UInt8], absolute: Bool) throws(SystemError) -> Int32 {
        var fd = pm_open_folder_path(AT_FDCWD, absolute ? "/" : ".")
        guard fd >= 0 else { throw SystemError(errno: -fd) }
        for component in bytes.split(separator: 0x2F) {
            let next = PathBytes.withCPath(PathBytes.decode(component)) { pm_open_folder_path(fd, $0) }
            close(fd)
            guard next >= 0 else { throw SystemError(errno: -next) }
            fd = next
        }
        return fd
    }
}
