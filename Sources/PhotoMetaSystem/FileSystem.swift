internal import CSpawn
import Foundation
import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// Path-level system calls: `realpath`, a folder check, whether a path names a regular file.
package enum FileSystem {
    /// `realpath(3)`: the absolute path with every link, `.` and `..` resolved.
    package static func canonicalPath(_ path: String) throws(SystemError) -> String {
        guard let resolved = PathBytes.withCPath(path, { realpath($0, nil) }) else {
            let e = errno
            guard e == ENAMETOOLONG else { throw SystemError(errno: e) }
            return try longCanonicalPath(path)
        }
        defer { free(resolved) }
        return PathBytes.decode(UnsafeBufferPointer(start: resolved, count: strlen(resolved)).map { UInt8(bitPattern: $0) })
    }

    /// A path too long for `realpath(3)` (more than `PATH_MAX`: a photo 30 folders deep): its
    /// folder made canonical the same way, then its own name: `.` is the folder, `..` the
    /// folder's parent (of the folder links lead to, as the kernel's lookup goes), and a link is
    /// refused (where it leads is left to `realpath`).
    private static func longCanonicalPath(_ path: String) throws(SystemError) -> String {
        var bytes = PathBytes.encode(path)
        while bytes.count > 1, bytes.last == 0x2F { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: 0x2F), slash > 0 else { throw SystemError(errno: ENAMETOOLONG) }
        let name = Array(bytes[(slash + 1)...])
        let folder = try canonicalPath(PathBytes.decode(bytes[..<slash]))
        if name.isEmpty || name == [0x2E] { return folder }
        if name == [0x2E, 0x2E] {
            guard let up = folder.lastIndex(of: "/"), up != folder.startIndex else { return "/" }
            return String(folder[..<up])
        }
        let joined = (folder == "/" ? "" : folder) + "/" + PathBytes.decode(name)
        guard try FileFacts.of(joined, followLinks: false).type != .symlink else { throw SystemError(errno: ENAMETOOLONG) }
        return joined
    }

    /// A folder that can be listed, by its canonical path; the error says why not (ENOTDIR when
    /// it is not a folder).
    package static func canonicalFolder(_ path: String) throws(SystemError) -> String {
        let root = try canonicalPath(path)
        // Opening it proves it is a folder that may be listed.
        _ = try DirectoryHandle(path: root)
        return root
    }

    /// The names in `folder` (not "." or ".."), in byte order, leaving out names that are not
    /// UTF-8; nil when it cannot be listed.
    package static func entryNames(_ folder: String) -> [String]? {
        guard let handle = try? DirectoryHandle(path: folder), let listing = try? handle.entries() else { return nil }
        return listing.entries.filter(listing.isUTF8).map(listing.name)
    }

    /// True when `path` names a regular file (links followed).
    package static func isRegularFile(_ path: String) -> Bool {
        (try? FileFacts.of(path))?.type == .regular
    }

    /// True when `path` names something (links followed: a dangling link names nothing).
    package static func exists(_ path: String) -> Bool {
        (try? FileFacts.of(path)) != nil
    }

    /// `unlink(2)`: removes the file (not a folder) at `path`; the error when it could not.
    @discardableResult
    package static func remove(_ path: String) -> SystemError? {
        PathBytes.withCPath(path, { unlink($0) }) == 0 ? nil : SystemError(errno: errno)
    }

    /// `rename(2)`: moves `from` to `to` on the same file system, replacing what `to` named.
    @discardableResult
    package static func rename(_ from: String, to: String) -> SystemError? {
        let rc = PathBytes.withCPath(from) { f in PathBytes.withCPath(to) { Glibc.rename(f, $0) } }
        return rc == 0 ? nil : SystemError(errno: errno)
    }

    /// True when `path` is a regular file this process may execute (`access(X_OK)`).
    package static func isExecutableFile(_ path: String) -> Bool {
        isRegularFile(path) && PathBytes.withCPath(path, { access($0, X_OK) }) == 0
    }

    /// Why this process may not write into `folder` (`access(W_OK)`: no permission, a
    /// read-only file system), or nil when it may.
    package static func writeRefusal(_ folder: String) -> SystemError? {
        PathBytes.withCPath(folder, { access($0, W_OK) }) == 0 ? nil : SystemError(errno: errno)
    }

    /// The process's working folder (`getcwd`); nil when it was removed.
    package static func currentFolder() -> String? {
        guard let p = getcwd(nil, 0) else { return nil }
        defer { free(p) }
        return PathBytes.decode(UnsafeBufferPointer(start: p, count: strlen(p)).map { UInt8(bitPattern: $0) })
    }

    /// This executable's path (`/proc/self/exe`), nil when the link cannot be read.
    package static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return PathBytes.decode(buffer[..<n].map { UInt8(bitPattern: $0) })
    }

    /// The first `limit` bytes at most of the regular file at `path`; nil when it cannot be read
    /// (small text files of the user's configuration, such as `user-dirs.dirs`).
    package static func contents(_ path: String, limit: Int) -> [UInt8]? {
        guard let source = try? FileByteSource(path: path) else { return nil }
        return try? source.read(at: 0, count: Int(min(Int64(limit), source.size)))
    }

    /// The process's arguments after the program name, as their exact bytes (a path that is not
    /// valid UTF-8 still names its file; `CommandLine.arguments` would replace such bytes with
    /// U+FFFD).
    package static func arguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { i -> String in
            guard let p = CommandLine.unsafeArgv[i] else { return "" }
            return PathBytes.decode(UnsafeBufferPointer(start: p, count: strlen(p)).map { UInt8(bitPattern: $0) })
        }
    }
}

/// Reading a file descriptor to its end: the thumbnail helper's standard input.
package enum FileDescriptorInput {
    /// Everything that can be read from `fd` until the end (retrying after EINTR); what was read
    /// before an error.
    package static func readAll(_ fd: Int32) -> [UInt8] {
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return all }
            all += chunk[..<n]
        }
    }
}

/// Writing to a file descriptor: the CLI's stdout and stderr.
package enum FileDescriptorOutput {
    /// Writes all of `bytes` to `fd`, retrying after EINTR and short writes. Returns nil when
    /// everything was written, else the error that stopped it (EPIPE: the reader went away;
    /// ENOSPC: the disk is full...), the rest being dropped.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> SystemError? {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return write(fd, base + done, bytes.count - done)
            }
            if n == 0 { return SystemError(errno: EIO) }
            if n < 0 {
                if errno == EINTR { continue }
                return SystemError(errno: errno)
            }
            done += n
        }
        return nil
    }

    /// True for the error of a write to a pipe whose reader has gone (`photometa ... | head`).
    package static func isBrokenPipe(_ e: SystemError) -> Bool { e.errno == EPIPE }
}

/// The terminal, for the progress display (shown only to a person).
package enum Terminal {
    /// True when `fd` is a terminal (isatty).
    package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
}

/// Process-wide signal dispositions.
package enum Signals {
    /// A reader that quits early (`photometa ... | head`) must not kill the process with SIGPIPE:
    /// writes then fail with EPIPE instead, and the output is dropped.
    package static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }
}

/// Running a user's hook command (`watch --exec`).
package enum Hook {
    /// Runs `/bin/sh -c command` with `environment`, stdout and stderr on photometa's stderr,
    /// stdin empty, and no other descriptor inherited; `finished` gets its exit status (or the
    /// signal number + 128) on a background thread. Throws when it cannot start.
    package static func run(
        _ command: String, environment: [String: String], finished: @escaping @Sendable (Int32) -> Void
    ) throws(SystemError) {
        // A confined photometa asks the spawner it started before (Spawner.swift), which runs
        // the command it was given then, with this call's PHOTOMETA_* variables.
        if let statusFD = try Spawner.hook(environment) {
            Thread {
                let status = Spawner.wait(statusFD) ?? (127 << 8)
                finished(status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
            }.start()
            return
        }
        // By bytes: a path whose name is not UTF-8 reaches the hook exactly (as through the
        // spawner), not as the UTF-8 of its stand-ins.
        var cEnv: [UnsafeMutablePointer<CChar>?] = environment.map {
            PathBytes.withCPath("\($0.key)=\($0.value)") { strdup($0) }
        }
        cEnv.append(nil)
        defer { for p in cEnv { free(p) } }
        let pid = cEnv.withUnsafeBufferPointer { env in
            command.withCString { pm_spawn_shell($0, env.baseAddress) }
        }
        guard pid > 0 else { throw SystemError(errno: -pid) }
        let waiter = Thread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            let exited = status & 0x7F == 0
            finished(exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
        }
        waiter.start()
    }
}
