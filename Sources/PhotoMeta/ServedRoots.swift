import PhotoMetaCore

/// The live library's served folders, and which folders below them a walk of each enters: the
/// one home for "does the library hold this folder" (by the path's bytes: `café` in one code
/// point and in two are two folders), for what it takes in and what it answers for.
struct ServedRoots {
    /// The served folders (canonical).
    let roots: [String]
    /// `--exclude`, relative to each root.
    let exclude: [PathGlob]

    /// The served root `folder` lies in.
    func root(of folder: String) -> String? {
        roots.first { PathKey(folder).isWithin($0) }
    }

    /// The root `path` lies strictly below, when a walk of that root enters it.
    func enteredRoot(of path: String) -> String? {
        guard let root = root(of: path), PathKey(path) != PathKey(root), !isLeftOut(path, below: root) else { return nil }
        return root
    }

    /// `folder` is one of the roots.
    func isRoot(_ folder: String) -> Bool { roots.contains { PathKey($0) == PathKey(folder) } }

    /// A walk of `root` never enters `path`: a name on the way is hidden (`.name`) or left out
    /// by `--exclude`. A folder made or renamed so (a file manager's `.trash`) is not taken in.
    func isLeftOut(_ path: String, below root: String) -> Bool {
        let relative = String(decoding: path.utf8.dropFirst(root == "/" ? 1 : root.utf8.count + 1), as: UTF8.self)
        return relative.utf8.split(separator: UInt8(ascii: "/")).contains { $0.first == UInt8(ascii: ".") }
            || PathGlob.excludes(relative, exclude)
    }

    /// The request's folders are served: each a root, or, when neither the service nor the
    /// request excludes anything (patterns are relative to the folder asked), a folder below one
    /// that a walk of its root enters (not a hidden one, which a walk of itself would list).
    func serves(_ request: ServiceRequest, exclude patterns: [String]) -> Bool {
        request.exclude == patterns
            && request.folders.allSatisfy { f in
                isRoot(f.path) || (patterns.isEmpty && root(of: f.path).map { !isLeftOut(f.path, below: $0) } == true)
            }
    }
}
