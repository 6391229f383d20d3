import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// The mount points this process sees (`/proc/self/mountinfo`, [proc(5)]), and a descriptor
/// that wakes `poll(2)` when they change: the kernel marks it `POLLPRI` after each mount or
/// unmount, once per change (`mounts_poll`). inotify says nothing when a file system is
/// mounted over a watched folder: its watch stays on the covered folder, and the name leads to
/// other files that no watch follows.
package final class MountTable {
    /// Wait for `POLLPRI` on it (`Readiness.wait(priority:)`); `POLLIN` is always set.
    package let descriptorForPolling: Int32

    /// Nil when `/proc` is not mounted or cannot be read.
    package init?() {
        let fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        descriptorForPolling = fd
    }

    deinit { close(descriptorForPolling) }

    /// The largest table read (a machine with thousands of snap or container mounts has a few
    /// MiB); beyond it the table is taken as unreadable.
    static let largest = 16 << 20

    /// One mount: its ID (unique while it is mounted, so a file system mounted over another
    /// at the same point is a new one) and its mount point.
    package struct Mount: Hashable, Sendable {
        package var id: Int
        package var point: String
    }

    /// Every mount now; nil when the table cannot be read.
    package func mounts() -> Set<Mount>? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < MountTable.largest {
            let n = chunk.withUnsafeMutableBytes { pread(descriptorForPolling, $0.baseAddress, $0.count, off_t(bytes.count)) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return MountTable.mounts(in: bytes) }
            bytes += chunk[..<n]
        }
        return nil
    }

    /// [proc(5), /proc/pid/mountinfo] The first field of each line, the mount ID, and the
    /// fifth, the mount point, with space, tab, newline and backslash written as `\ooo` octal
    /// escapes.
    static func mounts(in table: [UInt8]) -> Set<Mount> {
        var mounts: Set<Mount> = []
        for line in table.split(separator: 0x0A) {
            let fields = line.split(separator: 0x20, maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5, fields[0].count <= 18, let id = Int(String(decoding: fields[0], as: UTF8.self)) else {
                continue
            }
            mounts.insert(Mount(id: id, point: PathBytes.decode(unescaped(fields[4]))))
        }
        return mounts
    }

    /// `\040` → a space, and so on: three octal digits after a backslash.
    static func unescaped(_ field: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var i = field.startIndex
        while i < field.endIndex {
            let b = field[i]
            if b == 0x5C, field.endIndex - i > 3, let v = octal(field[(i + 1)...(i + 3)]), v <= 0xFF {
                out.append(UInt8(v))
                i += 4
            } else {
                out.append(b)
                i += 1
            }
        }
        return out
    }

    private static func octal(_ digits: ArraySlice<UInt8>) -> Int? {
        var v = 0
        for d in digits {
            guard d >= 0x30, d <= 0x37 else { return nil }
            v = v * 8 + Int(d - 0x30)
        }
        return v
    }
}
