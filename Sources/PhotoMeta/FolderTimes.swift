import PhotoMetaCore
import PhotoMetaSystem

/// What a rescan that looks at folders first keeps between looks (`RescanSchedule.Look`): each
/// folder's own times as the last look saw them, and the folders whose files changed when the
/// last look listed them. Adding, removing or renaming a file changes its folder's times
/// (`SharedFileSystem.foldersFollowChanges`); a write into a file does not, so a folder whose
/// files changed is listed again at the next look too (a file still being written changed its
/// folder's times only when it came), and every file is looked at on the schedule's whole looks.
struct FolderTimes {
    private var keys: [String: FileKey] = [:]
    /// The folders the last look listed again, and their digests before: kept from the look
    /// until its listing is done (`listed`), nil between looks.
    private var lookedAt: [String: Int?]?
    private var hot: Set<String> = []

    /// The folders `look` lists again, of `folders` (`path` makes one's path, `digest` says
    /// what one holds, nil when nothing is known): at a look at folders, those whose times,
    /// inode or size differ from the last look's, that were not known then or cannot be
    /// examined now (gone: their listing says so), and those whose files changed when the last
    /// look listed them; at a look at every file none (the caller looks at everything), the
    /// times are remembered, and every folder's files are compared after. Each folder is
    /// examined before it is listed again, so a change made while it is listed shows at the
    /// next look.
    mutating func toList(
        _ look: RescanSchedule.Look, _ folders: some Sequence<String>, path: (String) -> String,
        digest: (String) -> Int?
    ) -> Set<String> {
        var seen: [String: FileKey] = [:]
        var stale: Set<String> = []
        for f in folders {
            guard let facts = try? FileFacts.of(path(f), followLinks: false) else {
                stale.insert(f)
                continue
            }
            let key = FileKey(facts)
            seen[f] = key
            if keys[f] != key { stale.insert(f) }
        }
        keys = seen
        let marked = look == .everyFile ? [] : stale.union(hot)
        let compared = look == .everyFile ? Set(seen.keys) : marked
        hot = []
        lookedAt = Dictionary(uniqueKeysWithValues: compared.map { ($0, digest($0)) })
        return marked
    }

    /// After a look's listing: the folders it compared whose digest changed (and that are still
    /// there) are listed again at the next look. A listing for anything else (inotify's events,
    /// an answer's check) changes nothing here.
    mutating func listed(digest: (String) -> Int?) {
        guard let lookedAt else { return }
        hot = Set(lookedAt.filter { f, before in digest(f).map { $0 != before } ?? false }.keys)
        self.lookedAt = nil
    }
}

extension FolderTimes {
    /// `toList` for a watcher's snapshot of the tree at `root` (folders relative, "" the root).
    mutating func toList(_ look: RescanSchedule.Look, in snapshot: FolderSnapshot, root: String) -> Set<String> {
        toList(look, snapshot.folders.union([""]), path: { $0.isEmpty ? root : root + "/" + $0 }, digest: snapshot.digest)
    }
}
