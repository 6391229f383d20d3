internal import CStatx
import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// The only file that talks to inotify(7): one instance per watched tree, a watch per folder,
/// events decoded into values. Linux-only by nature; `DirectoryWatcher` falls back to polling
/// when this cannot be created or runs out of watches.
package final class InotifySource {
    package struct Event: Sendable {
        /// The folder (relative to the root, "" for the root) the event happened in; nil when
        /// the descriptor is not (or no longer) one of ours, or for a queue overflow: the
        /// caller then does not know where, and looks everywhere.
        package var folder: String?
        /// The entry's name inside that folder ("" for events on the folder itself).
        package var name: String
        package var mask: UInt32

        package var isDirectory: Bool { mask & UInt32(IN_ISDIR) != 0 }
        package var closedAfterWriting: Bool { mask & UInt32(IN_CLOSE_WRITE) != 0 }
        package var movedIn: Bool { mask & UInt32(IN_MOVED_TO) != 0 }
        package var modified: Bool { mask & UInt32(IN_MODIFY) != 0 }
        package var created: Bool { mask & UInt32(IN_CREATE) != 0 }
        /// The watched root itself was deleted or moved away, or the file system holding it was
        /// unmounted (IN_UNMOUNT, which inotify reports whatever the mask): its path then leads
        /// to another folder, the one the mount covered, and answering from the old one's files
        /// would be a stale answer.
        package var rootGone: Bool {
            isRoot && name.isEmpty && mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) != 0
        }
        /// The file system holding the watched folder was unmounted.
        package var unmounted: Bool { mask & UInt32(IN_UNMOUNT) != 0 }
        /// The event came on the root's own watch (its descriptor, remembered when it was added:
        /// a descriptor the kernel reuses for a renamed sub-folder is never taken for the root).
        package var isRoot = false
        /// A sub-folder was created in, or moved into, `folder` (it may hold files already).
        package var folderArrived: Bool { isDirectory && (created || movedIn) }
        /// A sub-folder named `name` came, went, or was replaced in `folder`: whatever was
        /// known under that name is not that folder any more.
        package var folderNameChanged: Bool {
            isDirectory && !name.isEmpty && mask & UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO) != 0
        }
        /// The kernel queue overflowed: events were lost, a full rescan is needed.
        package var overflowed: Bool { mask & UInt32(IN_Q_OVERFLOW) != 0 }
    }

    package enum Failure: Error, CustomStringConvertible {
        case unavailable(String)
        /// ENOSPC: the per-user watch limit (fs.inotify.max_user_watches) is reached.
        case watchLimit
        case watchFailed(String, String)

        package var description: String {
            switch self {
            case .unavailable(let m): return "inotify is unavailable (\(m))"
            case .watchLimit: return "the inotify watch limit is reached (fs.inotify.max_user_watches)"
            case .watchFailed(let p, let m): return "cannot watch \(p): \(m)"
            }
        }
    }

    package let fd: Int32
    /// The root's watch descriptor, remembered when it was added.
    private var rootDescriptor: Int32 = -1
    private let root: String
    private var folders: [Int32: String] = [:]
    /// Keyed by the name's bytes: two folders whose names differ only in Unicode
    /// normalization are two folders (`PathKey`).
    private var watched: [PathKey: Int32] = [:]

    static let mask =
        UInt32(
            IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY
                | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW) | UInt32(IN_EXCL_UNLINK)

    /// Watches beyond this count fail as if the kernel's limit were reached (nil: only the
    /// kernel's `fs.inotify.max_user_watches` applies).
    private let maximumWatches: Int?

    package init(root: String, maximumWatches: Int? = nil) throws(Failure) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw .unavailable(SystemError(errno: errno).description) }
        self.fd = fd
        self.root = root
        self.maximumWatches = maximumWatches
    }

    deinit { close(fd) }

    /// Watches `relative` (a folder under the root; "" for the root). With `again`, a name
    /// already watched is watched anew: the folder now under it may be another one (removed and
    /// made again, swapped in by a rename), and the kernel gives its inode a descriptor of its
    /// own; the descriptor of the folder that had the name is released.
    package func watch(_ relative: String, again: Bool = false) throws(Failure) {
        let key = PathKey(relative)
        guard again || watched[key] == nil else { return }
        if let maximumWatches, watched[key] == nil, watched.count >= maximumWatches { throw .watchLimit }
        let path = relative.isEmpty ? root : root + "/" + relative
        let (wd, error, throughProc) = addWatch(path)
        if wd < 0 {
            if error == ENOSPC { throw .watchLimit }
            // The folder vanished between the listing and the watch: the next scan notices. Not
            // so for a deep folder opened but not watched through `/proc` (none mounted): it is
            // there, unwatched, and saying nothing would let a service answer from it.
            if !throughProc, error == ENOENT || error == ENOTDIR { return }
            throw .watchFailed(path, SystemError(errno: error).description)
        }
        if let old = watched[key], old != wd, folders[old].map(PathKey.init) == key {
            folders.removeValue(forKey: old)
            inotify_rm_watch(fd, old)
        }
        if let other = folders[wd], PathKey(other) != key { watched.removeValue(forKey: PathKey(other)) }
        folders[wd] = relative
        if relative.isEmpty { rootDescriptor = wd }
        watched[key] = wd
    }

    /// `inotify_add_watch` of the folder at `path`: its descriptor, or -1 and the errno, and
    /// whether the call was made through `/proc`. A path longer than the call takes
    /// (`PATH_MAX`: a tree 20 folders of 200 bytes deep, which the walk reaches folder by
    /// folder) is watched through a descriptor of the folder: opened as `LongPath` reaches it
    /// (`O_PATH`, `O_NOFOLLOW`: the name itself is not followed, as `IN_DONT_FOLLOW` asks), then
    /// named by its `/proc/self/fd` link, which the kernel resolves to the folder whatever its
    /// path [inotify(7), proc_pid_fd(5)].
    private func addWatch(_ path: String) -> (wd: Int32, errno: Int32, throughProc: Bool) {
        guard PathBytes.encode(path).count > LongPath.directLimit else {
            let wd = PathBytes.withCPath(path) { inotify_add_watch(fd, $0, InotifySource.mask) }
            return (wd, wd < 0 ? errno : 0, false)
        }
        let folder: Int32
        do throws(SystemError) {
            folder = try LongPath.at(path) { dir, name in PathBytes.withCPath(name) { pm_open_folder_path_nofollow(dir, $0) } }
        } catch {
            return (-1, error.errno, false)
        }
        // A link where the folder was (ELOOP, or ENOTDIR with O_DIRECTORY) is not followed, as
        // IN_DONT_FOLLOW would not follow it: both read as "not a folder".
        guard folder >= 0 else { return (-1, -folder == ELOOP ? ENOTDIR : -folder, false) }
        defer { close(folder) }
        // The `/proc` link must be followed (it is the folder): not IN_DONT_FOLLOW here.
        let wd = inotify_add_watch(fd, "/proc/self/fd/\(folder)", InotifySource.mask & ~UInt32(IN_DONT_FOLLOW))
        return (wd, wd < 0 ? errno : 0, true)
    }

    /// Forgets folders that no longer exist (their watches are gone with them).
    ///
    /// A renamed folder keeps its watch (the kernel follows the inode), and watching it under
    /// its new name returns the same descriptor: the descriptor's name is dropped only when it
    /// is still this one. With `release`, that descriptor's kernel watch is removed too (a
    /// folder moved out of the tree would otherwise keep its watch, and wake the reader).
    package func forget(_ relative: String, release: Bool = false) {
        guard let wd = watched.removeValue(forKey: PathKey(relative)), folders[wd].map(PathKey.init) == PathKey(relative)
        else { return }
        folders.removeValue(forKey: wd)
        if release { inotify_rm_watch(fd, wd) }
    }

    package var watchedFolders: Set<String> { Set(watched.keys.map(\.path)) }

    /// Waits up to `timeoutMilliseconds` for events and returns them (empty on timeout).
    package func wait(timeoutMilliseconds: Int32) -> [Event] {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let r = poll(&p, 1, timeoutMilliseconds)
        guard r > 0 else { return [] }
        return drain()
    }

    /// Reads every queued event [inotify(7): struct inotify_event, name padded with NULs].
    private func drain() -> [Event] {
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= n {
                let (wd, mask, len) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let e = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (e.wd, e.mask, Int(e.len))
                }
                let nameStart = offset + headerSize
                let nameEnd = min(n, nameStart + len)
                let name = PathBytes.decode(buffer[nameStart..<nameEnd].prefix(while: { $0 != 0 }))
                offset = nameEnd
                if mask & UInt32(IN_IGNORED) != 0 {
                    if let folder = folders.removeValue(forKey: wd), watched[PathKey(folder)] == wd {
                        watched.removeValue(forKey: PathKey(folder))
                    }
                    continue
                }
                var event = Event(folder: wd == -1 ? nil : folders[wd], name: name, mask: mask)
                event.isRoot = wd == rootDescriptor && wd >= 0
                events.append(event)
            }
        }
        return events
    }
}
