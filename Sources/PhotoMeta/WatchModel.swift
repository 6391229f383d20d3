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

    /// True when nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && removed.isEmpty && changed.isEmpty }
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
    /// Something a person should know (fallback to polling, an unreadable entry...).
    case note(String)
    /// The watched folder disappeared; watching ends.
    case folderGone
    /// Something failed that a caller must know about, without stopping the watch: the
    /// memory could not be read or written (the suggestion is then not made), for example.
    case error(String)
}

/// Names that editors and downloaders use for files in progress: never reported.
package enum TemporaryNames {
    package static func isTemporary(_ name: String) -> Bool {
        if name.hasPrefix(".") { return true }  // hidden, .#lock, .goutputstream
        if name.hasSuffix("~") { return true }  // emacs, gedit backups
        if name.hasPrefix("#"), name.hasSuffix("#") { return true }  // emacs autosave
        if name == "4913" { return true }  // vim's write test
        let lower = name.lowercased()
        for suffix in [
            ".swp", ".swo", ".swx", ".tmp", ".temp", ".part", ".partial", ".crdownload", ".download",
            ".kate-swp", ".filepart", ".!qb", ".aria2",
        ] where lower.hasSuffix(suffix) {
            return true
        }
        return false
    }
}

/// A folder tree's files and their identity, kept up to date folder by folder: the watcher
/// looks again only at the folders inotify names, and diffs only what those looks touched.
struct FolderSnapshot: Sendable, Equatable {
    /// Relative path → what identifies its content.
    var files: [String: FileKey] = [:]
    /// Folder ("" for the root) → the relative paths of the files directly in it.
    var byFolder: [String: Set<String>] = [:]
    /// Every sub-folder (relative), the root excluded.
    var folders: Set<String> = []

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

    /// The name at the end of a relative path.
    static func lastComponent(_ rel: String) -> String {
        rel.split(separator: "/").last.map(String.init) ?? rel
    }

    /// "" for a path in the root, else the path up to its last `/`.
    static func parent(of rel: String) -> String {
        guard let slash = rel.lastIndex(of: "/") else { return "" }
        return String(rel[..<slash])
    }
}

extension FileKey {
    /// The same content as far as a person can tell: size, mtime and identity. A `chmod` or a
    /// new link changes only ctime, and is not a change worth reporting.
    func sameContent(as other: FileKey) -> Bool {
        size == other.size && mtimeNanoseconds == other.mtimeNanoseconds && inode == other.inode && device == other.device
    }
}
