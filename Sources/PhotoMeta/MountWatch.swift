import PhotoMetaCore
import PhotoMetaSystem

/// The mount points in, at or above the served folders, and which came or went since the last
/// look (`MountTable`). A file system mounted over a served sub-folder changes what its name
/// leads to with no inotify event (the folder's watch stays on the covered folder); one
/// mounted over a served folder, or over a folder above it, leaves the service answering for
/// files it no longer follows.
final class MountWatch {
    private let table: MountTable
    private let roots: [String]
    private var known: Set<MountTable.Mount>

    /// Nil when the mount table cannot be read (no `/proc`): only inotify's events are seen.
    init?(roots: [String]) {
        guard let table = MountTable(), let all = table.mounts() else { return nil }
        self.table = table
        self.roots = roots
        known = []
        known = relevant(all)
    }

    /// Wakes `poll(2)` with `POLLPRI` when a file system is mounted or unmounted anywhere.
    var descriptor: Int32 { table.descriptorForPolling }

    /// The relevant mount points where a mount came or went since the last call (one mounted
    /// over another at the same point too: it has its own ID), shortest first.
    func changed() -> [String] {
        guard let all = table.mounts() else { return [] }
        let now = relevant(all)
        defer { known = now }
        return Set(now.symmetricDifference(known).map(\.point)).sorted { $0.utf8.count < $1.utf8.count }
    }

    /// The served folder that `mountPoint` covers (it is the folder or lies above it); nil for
    /// a mount point below every served folder.
    func coveredRoot(_ mountPoint: String) -> String? {
        roots.first { PathKey($0).isWithin(mountPoint) }
    }

    private func relevant(_ all: Set<MountTable.Mount>) -> Set<MountTable.Mount> {
        all.filter { m in roots.contains { PathKey(m.point).isWithin($0) || PathKey($0).isWithin(m.point) } }
    }
}
