import PhotoMetaCore
import PhotoMetaSystem

/// One settled batch of changes in a watched folder.
public struct ChangeSet: Sendable {
    /// A file that settled, with its inspection.
    public struct File: Sendable {
        /// The path as reported (the folder as the caller wrote it, joined with the path below it).
        public var path: String
        /// The file inspected after it settled.
        public var asset: MediaAsset
    }

    /// Files that appeared (created, copied or moved in) and are complete.
    public var inserted: [File] = []
    /// Paths of files that went away (deleted or moved out).
    public var removed: [String] = []
    /// Files whose content changed (size, times, inode).
    public var changed: [File] = []
    /// Files renamed or moved within the folder: the same file (device, inode, size and
    /// modification time) went from one path and came to another in one batch.
    public var moved: [Move] = []

    /// A rename within the folder.
    public struct Move: Sendable {
        /// The path it had, as reported.
        public var from: String
        /// The file at its new path, inspected there.
        public var to: File
    }

    /// True when nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && removed.isEmpty && changed.isEmpty && moved.isEmpty }
}

/// What a `DirectoryWatcher` reports.
public enum WatchEvent: Sendable {
    /// The initial snapshot is taken and the folder is watched: every change from now on is
    /// reported. Comes once, before any other event but notes.
    case ready
    case changes(ChangeSet)
    /// A newly inserted or changed asset qualifies under the rules and memory of `suggest`
    /// (and has been recorded as offered).
    case suggestion(SuggestionCandidate, ageSeconds: Double)
    /// The offer that stood when the watch started (made by an earlier watch or `suggest`, not
    /// withdrawn since): reported once, after `ready`, so a restarted client shows it again.
    case standing(SuggestionCandidate, ageSeconds: Double)
    /// The standing offer stopped standing: deleted, dismissed, expired, superseded, or moved
    /// (then it stands at the new path).
    case withdrawn(OfferWithdrawal)
    /// Something a person should know (fallback to polling, an unreadable entry...).
    case note(String)
    /// The watched folder disappeared; watching ends.
    case folderGone
    /// Something failed that a caller must know about, without stopping the watch: the
    /// memory could not be read or written (the suggestion is then not made), for example.
    case error(String)
}
