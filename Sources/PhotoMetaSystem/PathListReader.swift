import Foundation
import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a list of paths (`--files-from`), one per line or NUL-separated, from a file or from
/// standard input, a chunk at a time: a list of any length costs one chunk and one path of
/// memory. Names are bytes (`PathBytes`); nothing is trimmed but the separator (a name may end
/// in a space or a carriage return).
package final class PathListReader: @unchecked Sendable {
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let separator: UInt8
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// Longer than any path the kernel takes (PATH_MAX is 4096): such an entry is handed on cut
    /// to this length (its inspection then fails with "file name too long") and the rest of it
    /// is skipped, so a list without separators cannot grow memory.
    static let longestPath = 4097
    private var discarding = false
    /// The read error that ended the list early, if any.
    package private(set) var failure: SystemError?

    /// The list in the file at `path` ("-" for standard input); `nul`: NUL-separated (`-0`).
    package init(path: String, nul: Bool) throws(SystemError) {
        separator = nul ? 0 : 0x0A
        let fd: Int32
        let owned = path != "-"
        if owned {
            fd = PathBytes.withCPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
            guard fd >= 0 else { throw SystemError(errno: errno) }
        } else {
            fd = 0
        }
        // A list that cannot be read at all is said at once: a folder (its read would fail
        // with EISDIR), or a closed standard input (`<&-`).
        var st = stat()
        let problem: Int32? = fstat(fd, &st) != 0 ? errno : st.st_mode & S_IFMT == S_IFDIR ? EISDIR : nil
        if let problem {
            if owned { close(fd) }
            throw SystemError(errno: problem)
        }
        self.fd = fd
        ownsDescriptor = owned
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// True when the next path is not in memory yet: `next()` will read (and may wait for a
    /// slow writer), so what was scanned so far should be handed on first.
    package var needsRead: Bool { !atEnd && !buffer[start...].contains(separator) }

    /// The next path, or nil at the end of the list (a last line without a separator counts).
    package func next() -> String? {
        while true {
            if let end = buffer[start...].firstIndex(of: separator) {
                let path = PathBytes.decode(buffer[start..<end])
                start = end + 1
                if discarding {
                    discarding = false
                    continue
                }
                return path
            }
            if buffer.count - start > PathListReader.longestPath {
                if discarding {
                    start = buffer.count
                } else {
                    let path = PathBytes.decode(buffer[start..<start + PathListReader.longestPath])
                    start = buffer.count
                    discarding = true
                    return path
                }
            }
            if atEnd {
                guard start < buffer.count, !discarding else { return nil }
                let path = PathBytes.decode(buffer[start...])
                start = buffer.count
                return path
            }
            // Keep the unfinished path, read the next chunk after it.
            buffer.removeFirst(start)
            start = 0
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = SystemError(errno: errno)
                atEnd = true
            } else if n == 0 {
                atEnd = true
            } else {
                buffer.append(contentsOf: chunk[0..<n])
            }
        }
    }
}
