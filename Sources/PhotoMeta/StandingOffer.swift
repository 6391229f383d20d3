import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

/// What is on offer now: the memory's standing offer, checked against the folders and the clock.
enum StandingOffer {
    /// The memory's standing offer (`offer`: its file's canonical path and capture instant) if
    /// it still stands at `now`: captured within the window, its file a regular file inside one
    /// of `roots` that reads as media, captured at the offered instant or the offered file itself
    /// (its identity, size and modification time). The candidate's path is shown under its root's display
    /// name; `file` is where it is now (renamed: found by its identity). A file at a path that
    /// `exclude` leaves out (`--exclude`) does not stand: no walk of the folders would see it.
    /// One home for `suggest --standing` and the standing offer a watch reports at start.
    static func find(
        _ offer: SuggestionMemory.StandingRecord, roots: [FolderScan.Root], exclude: [PathGlob] = [],
        settings: SuggestionSettings, now: Double
    ) -> (candidate: SuggestionCandidate, root: FolderScan.Root, file: String)? {
        guard now - offer.instant <= settings.within.seconds, offer.instant - now <= settings.futureTolerance.seconds
        else { return nil }
        var file = offer.file
        var facts = try? FileFacts.of(file)
        if facts?.type != .regular, let identity = offer.identity,
            let moved = renamed(identity, in: roots, exclude: exclude)
        {
            (file, facts) = (moved.path, moved.facts)
        }
        guard let facts, facts.type == .regular, let root = roots.first(where: { PathKey(file).isWithin($0.path) }),
            file != root.path, !PathGlob.excludes(String(file.dropFirst(root.path == "/" ? 1 : root.path.count + 1)), exclude)
        else { return nil }
        let prefix = root.display.hasSuffix("/") ? String(root.display.dropLast()) : root.display
        let shown = prefix + file.dropFirst(root.path == "/" ? 0 : root.path.count)
        let asset = FileInspector.inspect(path: shown)
        guard asset.error == nil, !asset.isNotMedia else { return nil }
        let candidate = SuggestionCandidate(asset, modified: facts.key.modifiedSeconds)
        // The file there is the one offered if it was captured when the offered one was, or is
        // that file by its identity and content key (renamed, a name's date lost with its
        // name). Not a file written again under the name (a tool's fixed name), nor a new file
        // given the deleted one's inode number, which its identity alone would find.
        let instant = candidate.captured?.epochSeconds(assuming: settings.zone)
        let key = facts.key
        let sameFile =
            offer.identity.map {
                $0.device == key.device && $0.inode == key.inode && $0.size == key.size
                    && $0.mtimeNanoseconds == key.mtimeNanoseconds
            } ?? false
        guard sameFile || instant.map({ abs($0 - offer.instant) < 0.001 }) == true else { return nil }
        return (candidate, root, file)
    }

    /// The file with `identity` (device and inode) in the folders, found by walking them (stat
    /// only, no file read): the offered file renamed inside the folders when no watch saw it. The
    /// walk happens only when the recorded path no longer holds a regular file. A name in
    /// progress (`photo.jpg.part`, `photo.jpg~`: `TemporaryNames`) is never on offer, as no
    /// command offers or lists one: the offer renamed to one no longer stands.
    private static func renamed(_ identity: SuggestionMemory.FileIdentity, in roots: [FolderScan.Root], exclude: [PathGlob])
        -> (path: String, facts: FileFacts)?
    {
        var found: (path: String, facts: FileFacts)?
        for root in roots where found == nil {
            TreeWalker(policy: .library, exclude: exclude).walk(root.path) { event in
                guard found == nil, case .files(_, let files) = event else { return }
                if let f = files.first(where: { $0.key.device == identity.device && $0.key.inode == identity.inode }),
                    let facts = f.facts,
                    !TemporaryNames.isTemporary(
                        f.path[(f.path.lastIndex(of: "/").map { f.path.index(after: $0) } ?? f.path.startIndex)...])
                {
                    found = (f.path, facts)
                }
            }
        }
        return found
    }
}
