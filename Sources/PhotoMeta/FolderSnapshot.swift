import PhotoMetaCore
import PhotoMetaSystem

/// A folder tree's files and their identity, kept up to date folder by folder: the watcher
/// looks again only at the folders inotify names, and diffs only what those looks touched.
struct FolderSnapshot: Sendable, Equatable {
    /// Relative path → what identifies its content.
    var files: [String: FileKey] = [:]
    /// Folder ("" for the root) → the relative paths of the files directly in it.
    var byFolder: [String: Set<String>] = [:]
    /// Every sub-folder (relative), the root excluded.
    var folders: Set<String> = []

    /// A digest of the files directly in `folder`, their names and keys (for this process
    /// only); nil when the folder is not known.
    func digest(_ folder: String) -> Int? {
        guard let names = byFolder[folder] else { return nil }
        var sum = 0
        for rel in names {
            var h = Hasher()
            h.combine(rel)
            h.combine(files[rel])
            sum &+= h.finalize()
        }
        return sum
    }

    mutating func add(_ rel: String, _ key: FileKey) {
        files[rel] = key
        byFolder[FolderSnapshot.parent(of: rel), default: []].insert(rel)
    }

    /// Replaces the files directly in `folder`; returns every path whose entry may differ.
    mutating func replaceFiles(in folder: String, with new: [String: FileKey]) -> Set<String> {
        let old = byFolder[folder] ?? []
        for rel in old where new[rel] == nil { files.removeValue(forKey: rel) }
        for (rel, key) in new { files[rel] = key }
        byFolder[folder] = Set(new.keys)
        return old.union(new.keys)
    }

    /// Drops `folder` and everything under it; returns the paths of the files dropped.
    mutating func removeTree(_ folder: String) -> Set<String> {
        var touched: Set<String> = []
        let prefix = folder + "/"
        for f in folders where f == folder || f.hasPrefix(prefix) {
            folders.remove(f)
            for rel in byFolder.removeValue(forKey: f) ?? [] {
                files.removeValue(forKey: rel)
                touched.insert(rel)
            }
        }
        return touched
    }

    /// The pictures that `reported` says were reported and that the sidecars among `touched`
    /// (XMP, Takeout JSON: `SidecarNames`) speak for, by their candidate sidecar names; each
    /// folder with touched sidecars is looked at once.
    func pictures(spokenForBy touched: Set<String>, reported: (String) -> Bool) -> [String] {
        let sidecars = touched.filter { SidecarNames.isSidecar(FolderSnapshot.lastComponent($0)) }
        var found: [String] = []
        for (folder, touchedHere) in Dictionary(grouping: sidecars, by: FolderSnapshot.parent(of:)) {
            var speaksFor: [String: [String]] = [:]
            for picture in byFolder[folder] ?? [] where reported(picture) {
                for c in SidecarNames.candidates(for: FolderSnapshot.lastComponent(picture)) {
                    speaksFor[c.name, default: []].append(picture)
                }
            }
            for sidecar in touchedHere.sorted() { found += speaksFor[FolderSnapshot.lastComponent(sidecar)] ?? [] }
        }
        return found
    }

    /// The reported files that may be the Live Photo partners of `arrivedOrGone` (files
    /// inserted, removed or renamed): the same folder and base name, a pairable extension
    /// (`LivePhotoPairing.extensionSpellings`). A movie that lands after its still (a sync
    /// copies one file at a time) makes the still a Live Photo, and one that goes makes it a
    /// photo again: the partner's report changed though its file did not. Looked up by name,
    /// so a burst into a large folder costs a few lookups a file, not a listing.
    func partners(of arrivedOrGone: [String], reported: (String) -> Bool) -> [String] {
        var found: [String] = []
        for rel in arrivedOrGone {
            guard let stem = LivePhotoPairing.stem(of: rel) else { continue }
            for ext in LivePhotoPairing.extensionSpellings {
                let other = stem + "." + ext
                if other != rel, files[other] != nil, reported(other) { found.append(other) }
            }
        }
        return found
    }

    /// The name at the end of a path, cut at its last `/` byte: a name may begin with a
    /// combining mark, which a `Character` joins to the slash before it (`split` on "/" then
    /// saw one component, and the temporary-name and sidecar checks the whole path).
    static func lastComponent(_ rel: String) -> String {
        guard let slash = rel.utf8.lastIndex(of: UInt8(ascii: "/")) else { return rel }
        return String(decoding: rel.utf8[rel.utf8.index(after: slash)...], as: UTF8.self)
    }

    /// "" for a path in the root, else the path up to its last `/`.
    static func parent(of rel: String) -> String {
        guard let slash = rel.lastIndex(ofASCII: UInt8(ascii: "/")) else { return "" }
        return String(rel[..<slash])
    }
}

extension FolderSnapshot {
    /// The tree under `root` now, without hidden or temporary files.
    static func take(_ root: String, walker: TreeWalker) -> FolderSnapshot {
        var snap = FolderSnapshot()
        walker.walk(root) { event in
            switch event {
            case .files(_, let files):
                for entry in files where !TemporaryNames.isTemporary(lastComponent(entry.relative)) {
                    snap.add(entry.relative, entry.key)
                }
            case .folderDone(let f):
                if !f.relative.isEmpty { snap.folders.insert(f.relative) }
            case .skipped, .subfolder:
                break
            }
        }
        return snap
    }

    /// Lists `folder` (relative to `root`) again: one level; a new sub-folder whole (it may
    /// have been moved in with what it holds), a vanished one dropped. Returns the paths whose
    /// entries may have changed.
    mutating func relist(_ folder: String, root: String, walker: TreeWalker) -> Set<String> {
        let dir = folder.isEmpty ? root : root + "/" + folder
        var listed: [String: FileKey] = [:]
        var subfolders: [String] = []
        var readable = true
        walker.listOne(dir, relative: folder, root: root) { event in
            switch event {
            case .files(_, let list):
                for entry in list where !TemporaryNames.isTemporary(FolderSnapshot.lastComponent(entry.relative)) {
                    listed[entry.relative] = entry.key
                }
            case .subfolder(_, let rel): subfolders.append(rel)
            case .skipped(_, _, .unreadableFolder): readable = false
            case .skipped, .folderDone: break
            }
        }
        guard readable else { return folder.isEmpty ? [] : removeTree(folder) }
        var touched = replaceFiles(in: folder, with: listed)
        let present = Set(subfolders)
        let prefix = folder.isEmpty ? "" : folder + "/"
        for f in folders where f.hasPrefix(prefix) && !f.dropFirst(prefix.count).contains("/") && !present.contains(f) {
            touched.formUnion(removeTree(f))
        }
        for f in subfolders where !folders.contains(f) {
            touched.formUnion(addTree(f, root: root, walker: walker))
        }
        return touched
    }

    /// Looks again at the entries `names` of `folder` (relative to `root`; the names inotify
    /// gave), as `relist` would find them: a file there is kept with its key, one gone dropped,
    /// a new sub-folder walked whole, one gone dropped with what it held. The rest of the folder
    /// is not listed. Returns the paths whose entries may have changed.
    mutating func relist(_ folder: String, names: Set<String>, root: String, walker: TreeWalker) -> Set<String> {
        let dir = folder.isEmpty ? root : root + "/" + folder
        var found: [String: FileKey] = [:]
        var subfolders: Set<String> = []
        var readable = true
        walker.lookAt(Array(names), in: dir, relative: folder, root: root) { event in
            switch event {
            case .files(_, let list):
                for entry in list where !TemporaryNames.isTemporary(FolderSnapshot.lastComponent(entry.relative)) {
                    found[entry.relative] = entry.key
                }
            case .subfolder(_, let rel): subfolders.insert(rel)
            case .skipped(_, _, .unreadableFolder): readable = false
            case .skipped, .folderDone: break
            }
        }
        guard readable else { return folder.isEmpty ? [] : removeTree(folder) }
        var touched: Set<String> = []
        let prefix = folder.isEmpty ? "" : folder + "/"
        for name in names {
            let rel = prefix + name
            if let key = found[rel] {
                add(rel, key)
                touched.insert(rel)
            } else if files.removeValue(forKey: rel) != nil {
                byFolder[folder]?.remove(rel)
                touched.insert(rel)
            }
            if subfolders.contains(rel) {
                if !folders.contains(rel) { touched.formUnion(addTree(rel, root: root, walker: walker)) }
            } else if folders.contains(rel) {
                touched.formUnion(removeTree(rel))
            }
        }
        return touched
    }

    /// Walks a sub-folder new to the snapshot whole; returns the paths of its files.
    private mutating func addTree(_ folder: String, root: String, walker: TreeWalker) -> Set<String> {
        var touched: Set<String> = []
        walker.walkSubtree(root + "/" + folder, relative: folder, root: root) { event in
            switch event {
            case .files(_, let list):
                for entry in list where !TemporaryNames.isTemporary(FolderSnapshot.lastComponent(entry.relative)) {
                    add(entry.relative, entry.key)
                    touched.insert(entry.relative)
                }
            case .folderDone(let done): folders.insert(done.relative)
            case .skipped, .subfolder: break
            }
        }
        return touched
    }
}
