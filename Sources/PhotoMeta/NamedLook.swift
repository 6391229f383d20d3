import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

/// A look at the entries of a held folder that inotify named, instead of listing the folder
/// again (the live library's `refresh`): a new photo in a phone's `DCIM/Camera` of 20,000 costs
/// its own `statx`, its index row or its parse, not the folder's listing, `statx` of every file
/// and rows. What it finds is what a listing would have found under those names; it gives up
/// (nil: the folder is listed whole) where the names touch what only the whole folder says: a
/// possible Live Photo half, a sidecar, a link, a sub-folder, a name that is not UTF-8, an
/// unreadable folder, more names than `limit(forFolderOf:)`.
struct NamedLook {
    /// Past this many names, or a quarter of the folder's files if more, a folder is listed
    /// whole (a listing then costs about as much).
    static let nameLimit = 1_024

    /// How many names a folder of `files` files is looked at by.
    static func limit(forFolderOf files: Int) -> Int { max(nameLimit, files / 4) }

    /// The entries under the names now: candidates (canonical paths, in the listing's order),
    /// and the entries skipped (temporary names, special files).
    struct Found {
        var candidates: [SuggestionCandidate] = []
        var skipped: [Suggester.SkippedEntry] = []
    }

    let folder: String
    let relative: String
    let root: String
    /// The names (the entries' names in `folder`).
    let names: Set<PathKey>

    /// Looks at the names; `held` is the folder's candidates as the library holds them (names
    /// only). Parsed files are queued for the index and the rows of names that hold no
    /// candidate now are removed; nothing is written when it gives up.
    func look(held: [SuggestionCandidate], scan: FolderScan, index: inout ScanIndex?, notes: inout [String]) -> Found? {
        guard names.count <= NamedLook.limit(forFolderOf: held.count),
            !names.contains(where: {
                SidecarNames.isSidecar($0.path) || LivePhotoPairing.isMovieName($0.path) || !NamedLook.isPlain($0.path)
            })
        else { return nil }
        // What was there: a half of a pair is paired again only by a listing.
        for c in held where c.livePhotoPair != nil && names.contains(PathKey(c.path)) { return nil }
        // The two halves of a RAW+JPEG shot (`RawDevelopedPair`) are told apart by a listing.
        guard !touchesRawPair(held: held) else { return nil }
        guard let (files, skipped) = list(scan.exclude, held: held) else { return nil }
        let partial = TreeWalker.Folder(path: folder, relative: relative, files: files)
        let keys = SidecarKeys(partial)
        var found = Found(skipped: skipped)
        var toParse: [Int] = []
        var rows: [Int: SuggestionCandidate] = [:]
        for (k, f) in files.enumerated() where names.contains(PathKey(NamedLook.name(f.path))) {
            if TemporaryNames.isTemporary(NamedLook.name(f.path)) {
                found.skipped.append(
                    Suggester.SkippedEntry(path: NamedLook.join(root, f.relative), reason: FolderScan.temporaryReason))
            } else if let row = index?.row(of: f.path, in: folder, notes: &notes), row.key == keys.key(of: f) {
                var c = row.candidate
                c.path = f.path
                rows[k] = c
            } else {
                toParse.append(k)
            }
        }
        let parsed = toParse.isEmpty ? [] : ParseJob(partial, toParse[...]).wait()
        for (j, k) in toParse.enumerated() where j < parsed.count { rows[k] = parsed[j] }
        found.candidates = rows.keys.sorted().compactMap { rows[$0] }
        // Written before any giving up: a listing then finds these rows and parses nothing again.
        for (j, k) in toParse.enumerated() where j < parsed.count {
            index?.queue((files[k].path, folder, keys.key(of: files[k]), parsed[j]))
        }
        guard !mayPair(found.candidates, held: held) else {
            index?.flush()
            return nil
        }
        let kept = Set(found.candidates.map { PathKey(NamedLook.name($0.path)) })
        index?.queueGone(folder, names.subtracting(kept).map { NamedLook.join(folder, $0.path) })
        index?.flush()
        return found
    }

    /// The named entries and the sidecars that speak for them (for their keys and dates), as
    /// the walker lists them; nil where a listing must decide (a sub-folder, a link, an
    /// unreadable folder). A sidecar not named is as the library holds it (every file of a
    /// folder is held): only those held are looked at, not every name a sidecar may have.
    private func list(_ exclude: [PathGlob], held: [SuggestionCandidate]) -> ([TreeWalker.File], [Suggester.SkippedEntry])? {
        // By their bytes: two names equal only under Unicode normalization are two entries.
        var lookNames = names
        for n in names {
            for s in SidecarNames.candidates(for: n.path) where LibraryFolders.holds(s.name, in: held) {
                lookNames.insert(PathKey(s.name))
            }
        }
        var files: [TreeWalker.File] = []
        var skipped: [Suggester.SkippedEntry] = []
        var whole = false
        TreeWalker(policy: .library, exclude: exclude).lookAt(lookNames.map(\.path), in: folder, relative: relative, root: root) {
            event in
            switch event {
            case .files(_, let run): files += run
            case .subfolder, .skipped(_, _, .unreadableFolder): whole = true
            case .skipped(_, let rel, let reason):
                if names.contains(PathKey(NamedLook.name(rel))) {
                    skipped.append(Suggester.SkippedEntry(path: NamedLook.join(root, rel), reason: reason.description))
                }
            case .folderDone: break
            }
        }
        guard !whole, !files.contains(where: { $0.linkTarget != nil }) else { return nil }
        return (files, skipped)
    }

    /// True when a candidate found may be half of a Live Photo with a file of the folder: a
    /// movie, or a still sharing a base name or an identifier with a movie held.
    private func mayPair(_ found: [SuggestionCandidate], held: [SuggestionCandidate]) -> Bool {
        let pairable = found.filter(\.canPair)
        guard !pairable.isEmpty else { return false }
        if pairable.contains(where: { $0.kind == .video || LivePhotoPairing.isMovieName($0.path) }) { return true }
        var stems = Set<UInt64>()
        var identifiers = Set<String>()
        for c in held where c.kind == .video && c.canPair {
            stems.insert(LivePhotoPairing.stemHash(c.path))
            if let id = c.contentIdentifier { identifiers.insert(id) }
        }
        return pairable.contains { c in
            stems.contains(LivePhotoPairing.stemHash(NamedLook.name(c.path)))
                || c.contentIdentifier.map(identifiers.contains) == true
        }
    }

    /// True when a name touches both halves of one RAW+JPEG shot: a raw's name whose picture
    /// is held or named, or a picture's name whose raw is. A raw alone, or a picture in a folder
    /// without its raw (a phone's `DCIM/Camera`), is looked at by name.
    private func touchesRawPair(held: [SuggestionCandidate]) -> Bool {
        let namedRaws = names.compactMap { RawDevelopedPair.rawKey($0.path) }
        let namedPictures = names.compactMap { RawDevelopedPair.developedKey($0.path) }
        guard !namedRaws.isEmpty || !namedPictures.isEmpty else { return false }
        if !namedPictures.isEmpty {
            var raws = Set(namedRaws)
            for c in held where RawDevelopedPair.isRawName(c.path) {
                if let k = RawDevelopedPair.rawKey(c.path) { raws.insert(k) }
            }
            if namedPictures.contains(where: raws.contains) { return true }
        }
        guard !namedRaws.isEmpty else { return false }
        var pictures = Set(namedPictures)
        for c in held { if let k = RawDevelopedPair.developedKey(c.path) { pictures.insert(k) } }
        return namedRaws.contains(where: pictures.contains)
    }

    /// `name` below `folder` ("/" joins without a second slash).
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// What follows the last `/` of a path.
    static func name(_ path: String) -> String { FolderSnapshot.lastComponent(path) }

    /// A name of UTF-8 bytes only: its `String` orders as its bytes do (a stand-in for a byte
    /// that is not UTF-8 takes four).
    static func isPlain(_ name: String) -> Bool { PathBytes.encode(name).count == name.utf8.count }
}
