import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// Renaming and removing the files photometa owns (its index and state files, never a user's
/// media): `rename(2)` and `unlink(2)` on the exact bytes of the path.
package enum FileMoves {
    /// `rename(2)`: `from` replaces `to` atomically. Nil when done, else why not.
    @discardableResult
    package static func rename(_ from: String, to: String) -> SystemError? {
        let rc = PathBytes.withCPath(from) { a in PathBytes.withCPath(to) { b in Glibc.rename(a, b) } }
        return rc == 0 ? nil : SystemError(errno: errno)
    }

    /// `unlink(2)`. Nil when done (or there was nothing to remove), else why not.
    @discardableResult
    package static func remove(_ path: String) -> SystemError? {
        let rc = PathBytes.withCPath(path) { unlink($0) }
        return rc == 0 || errno == ENOENT ? nil : SystemError(errno: errno)
    }

    /// True when something (a file, a folder, a link: anything) is at `path`.
    package static func exists(_ path: String) -> Bool {
        var st = stat()
        return PathBytes.withCPath(path) { lstat($0, &st) } == 0
    }
}
