import PhotoMetaSystem

/// Where inotify said to look since the watcher's last look: folders to list again whole (an
/// event on the folder itself, or more names than `nameLimit`), and in the others only the
/// entries it named. A burst's folder filling with 50,000 files is then looked at a few names
/// at a time, not listed whole after every debounce.
struct ChangedPlaces {
    /// Past this many names a folder is listed whole (one listing costs less than as many
    /// `statx` calls and holds less than the names).
    static let nameLimit = 4_096

    private var whole: Set<String> = []
    private var names: [String: Set<String>] = [:]

    var isEmpty: Bool { whole.isEmpty && names.isEmpty }

    /// An event in `folder` (relative to the root) on the entry `name` ("" for the folder itself).
    mutating func note(_ folder: String, name: String) {
        guard !whole.contains(folder) else { return }
        if name.isEmpty || names[folder, default: []].count >= ChangedPlaces.nameLimit {
            whole.insert(folder)
            names.removeValue(forKey: folder)
        } else {
            names[folder, default: []].insert(name)
        }
    }

    /// Looks again where the events said (`FolderSnapshot.relist`); returns the paths whose
    /// entries may have changed.
    func look(_ snapshot: inout FolderSnapshot, root: String, walker: TreeWalker) -> Set<String> {
        var touched: Set<String> = []
        for f in whole.sorted() { touched.formUnion(snapshot.relist(f, root: root, walker: walker)) }
        for (f, named) in names.sorted(by: { $0.key < $1.key }) {
            touched.formUnion(snapshot.relist(f, names: named, root: root, walker: walker))
        }
        return touched
    }
}
