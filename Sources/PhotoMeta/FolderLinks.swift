import PhotoMetaCore

/// The symbolic links the live library followed, per folder (canonical link path → its target's
/// canonical path). The library walks its roots, whose walk follows a link to any file inside
/// the root; a walk of one sub-folder follows only links that stay inside that sub-folder, so an
/// answer for a sub-folder leaves the others out, as that walk would (docs/service.md).
struct FolderLinks {
    private var byFolder: [PathKey: [String: String]] = [:]

    /// Adds links found by a walk (their folder is the link path's parent).
    mutating func add(_ found: some Sequence<(path: String, target: String)>) {
        for l in found { byFolder[PathKey(PathKey.parent(l.path)), default: [:]][l.path] = l.target }
    }

    /// Forgets the links of `folder` (listed again, or gone).
    mutating func drop(_ folder: PathKey) { byFolder.removeValue(forKey: folder) }

    mutating func removeAll() { byFolder = [:] }

    /// True when a link was followed in `folder`.
    func holds(in folder: PathKey) -> Bool { byFolder[folder]?.isEmpty == false }

    /// The links of `folder` whose targets lie outside `asked` (canonical).
    func leaving(_ asked: String, in folder: PathKey) -> [String: String] {
        guard let here = byFolder[folder] else { return [:] }
        return here.filter { !PathKey($0.value).isWithin(asked) }
    }
}
