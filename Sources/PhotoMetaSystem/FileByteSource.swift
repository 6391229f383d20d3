internal import CStatx
import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// A `ByteSource` over an open file, read with `pread` through one 16 KiB window, so that
/// walking segment headers costs a few system calls, never a read of the whole file.
///
/// Opening uses O_NONBLOCK so that a FIFO never blocks, and refuses anything that is not a
/// regular file before reading.
package final class FileByteSource: ByteSource {
    package let size: Int64
    /// What `statx` of the open descriptor said: the file read, whatever its path leads to now.
    package let facts: FileFacts
    private let fd: Int32
    private var windowStart: Int64 = -1
    private var window: [UInt8] = []
    /// The file's last bytes, when `prefetch` found them in the page cache.
    private var tailStart: Int64 = -1
    private var tail: [UInt8] = []
    /// Most files' metadata ends within the first few KiB; a larger APP1 or box costs one more
    /// `pread` of exactly its size.
    static let windowSize = 16 << 10
    /// What one read at the end of a file fetches: enough for a Samsung trailer's footer and a
    /// JPEG's end of image with its padding (`JPEGReader.checkEnd`). Not a page: a warm read
    /// costs its copy (4 KiB was 2 % of a warm `inspect -r`), and a cold one reads the page
    /// whatever the count; what lies further back is read when asked for.
    static let tailWindowSize = 512

    /// Opens `path` for reading; a path that is not a regular file is refused before any read.
    /// A path longer than `PATH_MAX` is opened relative to its folder's descriptor (`LongPath`).
    /// With `followLinks` false (sidecars), a symbolic link is refused (`O_NOFOLLOW`: ELOOP).
    package init(path: String, followLinks: Bool = true) throws(FileReadError) {
        let opened: (fd: Int32, errno: Int32)
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW)
        do throws(SystemError) {
            opened = try LongPath.at(path) { dir, name in
                let fd = PathBytes.withCPath(name) { openat(dir, $0, flags) }
                return (fd, errno)
            }
        } catch {
            throw .system(error)
        }
        let fd = opened.fd
        guard fd >= 0 else { throw .system(SystemError(errno: opened.errno)) }
        let facts: FileFacts
        do throws(SystemError) {
            facts = try FileFacts.of(descriptor: fd)
        } catch {
            close(fd)
            throw .system(error)
        }
        switch facts.type {
        case .regular: break
        case .directory:
            close(fd)
            throw .isDirectory
        case .symlink:
            close(fd)
            throw .notRegularFile(what: "a symbolic link")
        case .other(let what):
            close(fd)
            throw .notRegularFile(what: what)
        }
        self.fd = fd
        self.facts = facts
        self.size = facts.size
    }

    /// Only the ranges asked for are read from the disk, not the kernel's readahead around
    /// them (32 KiB and more): a metadata walk jumps, and a cold disk pays for every byte.
    /// Given before the first read that may reach the disk (`prefetch` says when), never for a
    /// file whose head the page cache held (a warm library): there it would be a system call per
    /// file for nothing.
    /// Advice only: a failure changes nothing.
    private var advisedRandom = false
    private func adviseRandom() {
        guard !advisedRandom else { return }
        advisedRandom = true
        if !headWasCached { _ = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM) }
    }

    deinit { close(fd) }

    /// Asks the kernel to start reading, without waiting, the ranges a metadata walk reads
    /// first: the window at the start and the page at the end (`POSIX_FADV_WILLNEED`). A
    /// worker that opens several files and asks for all of them before parsing the first
    /// keeps many reads in flight on a cold disk, which answers them together faster than one
    /// after the other; on a warm page cache it costs a lookup. Advice only: a failure changes
    /// nothing.
    ///
    /// A range the page cache already holds (a warm library) is read at once instead
    /// (`RWF_NOWAIT`, which never waits for the disk) and kept, with no advice: the two reads
    /// a walk starts with are done. Each range is asked about on its own: a file whose head
    /// another program read has its end still on the disk.
    ///
    /// A no-wait read of a range the cache does not hold still starts the kernel's readahead
    /// (as much as 128 KiB), unless the file was advised random first: so the advice comes
    /// first, but for a file expected warm (`expectWarm`: the file opened before it was), where
    /// it would be a system call for nothing.
    package func prefetch(expectWarm: Bool = false) {
        let head = min(size, Int64(FileByteSource.windowSize))
        guard head > 0 else { return }
        if !expectWarm { adviseRandom() }
        if windowStart < 0, let cached = readCached(at: 0, count: Int(head)) {
            window = cached
            windowStart = 0
            headWasCached = true
        } else {
            adviseRandom()
            _ = posix_fadvise(fd, 0, off_t(head), POSIX_FADV_WILLNEED)
        }
        let start = max(head, size - Int64(FileByteSource.tailWindowSize))
        guard start < size else { return }
        if headWasCached, let cached = readCached(at: start, count: Int(size - start)) {
            tail = cached
            tailStart = start
            endWasCached = true
        } else {
            adviseRandom()
            _ = posix_fadvise(fd, off_t(start), off_t(size - start), POSIX_FADV_WILLNEED)
        }
    }

    /// The files at `paths` opened, with the reads their parsing starts with asked for at once
    /// (`prefetch`): the caller waits for the disk once for them all, not twice per file. nil
    /// where the path is nil (not known to be a regular file) or does not open: the caller then
    /// opens it itself and reports what it finds.
    package static func openedAhead(_ paths: [String?]) -> [FileByteSource?] {
        let sources = paths.map { path -> FileByteSource? in path.flatMap { try? FileByteSource(path: $0) } }
        // Files of one run sit side by side: one found in the page cache says the next likely is.
        var warm = false
        for source in sources {
            guard let source else { continue }
            source.prefetch(expectWarm: warm)
            warm = source.headWasCached
        }
        return sources
    }

    /// `prefetch` found the first window in the page cache and read it at once.
    package private(set) var headWasCached = false
    /// `prefetch` found the last bytes (beyond the first window) in the page cache too.
    package private(set) var endWasCached = false

    /// `count` bytes at `offset` if the page cache holds all of them, else nil: also where the
    /// file system cannot tell (EOPNOTSUPP: tmpfs before Linux 6.x), which is a property of
    /// the file's file system, not of the process, so every file is asked.
    private func readCached(at offset: Int64, count: Int) -> [UInt8]? {
        let fd = self.fd
        var result = 0
        let buffer = [UInt8](unsafeUninitializedCapacity: count) { raw, initialized in
            result = pm_pread_cached(fd, raw.baseAddress, UInt(count), offset)
            initialized = max(0, min(result, count))
        }
        return result == count ? buffer : nil
    }

    package func read(at offset: Int64, count: Int) throws -> [UInt8] {
        guard offset >= 0, count > 0, offset < size else { return [] }
        let n = Int(min(Int64(count), size - offset))
        // Served from the window, or the end `prefetch` kept, when it holds the whole range.
        if windowStart >= 0, offset >= windowStart, offset + Int64(n) <= windowStart + Int64(window.count) {
            let s = Int(offset - windowStart)
            return Array(window[s..<s + n])
        }
        if tailStart >= 0, offset >= tailStart, offset + Int64(n) <= tailStart + Int64(tail.count) {
            let s = Int(offset - tailStart)
            return Array(tail[s..<s + n])
        }
        if n <= FileByteSource.windowSize / 2 {
            // Near the end, the window is the file's last bytes: the checks made there (a
            // trailer's 8-byte footer, then the end of image) cost one read, at one place.
            let tailStart = max(0, size - Int64(FileByteSource.tailWindowSize))
            let start = offset >= tailStart ? tailStart : offset
            try fill(at: start)
            let s = Int(offset - start)
            guard s <= window.count else { return [] }  // the file shrank while being read
            let available = max(0, min(n, window.count - s))
            return Array(window[s..<s + available])
        }
        return try preadFully(at: offset, count: n)
    }

    /// The two bytes at `offset` from the window or the kept end, as `read` would find them.
    package func readPair(at offset: Int64) throws -> (UInt8, UInt8)? {
        if windowStart >= 0, offset >= windowStart, offset + 2 <= windowStart + Int64(window.count) {
            let s = Int(offset - windowStart)
            return (window[s], window[s + 1])
        }
        if tailStart >= 0, offset >= tailStart, offset + 2 <= tailStart + Int64(tail.count) {
            let s = Int(offset - tailStart)
            return (tail[s], tail[s + 1])
        }
        let b = try read(at: offset, count: 2)
        return b.count == 2 ? (b[0], b[1]) : nil
    }

    private func fill(at offset: Int64) throws {
        window = try preadFully(at: offset, count: Int(min(Int64(FileByteSource.windowSize), size - offset)))
        windowStart = offset
    }

    /// Reads into an uninitialised buffer (no zero fill); fewer bytes when the file shrank
    /// while being read.
    private func preadFully(at offset: Int64, count: Int) throws -> [UInt8] {
        adviseRandom()
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
