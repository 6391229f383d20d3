import PhotoMetaCore
import PhotoMetaSystem

/// A picture's key in the index with its sidecars folded in (`SidecarNames`): writing,
/// changing or removing a picture's XMP sidecar or Takeout JSON changes the key, so the picture
/// is read again, in `suggest`'s index and in the live library that lists the folder again when
/// inotify names it. The sidecars' times and identities are mixed into the stored change time,
/// which nothing else reads; a folder without sidecars keeps the files' own keys.
struct SidecarKeys {
    let byName: [String: FileKey]

    init(_ folder: TreeWalker.Folder) {
        var keys: [String: FileKey] = [:]
        if !folder.sidecarNames.isEmpty {
            for f in folder.files {
                let name = FolderSnapshot.lastComponent(f.path)
                if folder.sidecarNames.contains(name) { keys[name] = f.key }
            }
        }
        byName = keys
    }

    func key(of file: TreeWalker.File) -> FileKey {
        var key = file.key
        guard !byName.isEmpty else { return key }
        for candidate in SidecarNames.candidates(for: FolderSnapshot.lastComponent(file.path)) {
            guard let s = byName[candidate.name] else { continue }
            // Wrapping arithmetic: a mix, not a time (hostile times must not trap).
            key.ctimeNanoseconds =
                key.ctimeNanoseconds &* 1_000_003 &+ s.ctimeNanoseconds &+ s.mtimeNanoseconds &* 31
                &+ s.size &* 7 &+ s.inode
        }
        return key
    }
}
