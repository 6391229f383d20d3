#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Lists the files of a folder for `suggest` and `watch`: recursive; hidden files and folders
/// skipped; symbolic links followed only to regular files inside the folder (never out of it,
/// never to directories, so never in a loop); FIFOs, sockets and devices skipped without being
/// opened. Each file comes with its `statx` facts, the index key.
public struct FolderScanner {
    public struct Entry: Sendable {
        /// Canonical absolute path.
        public var path: String
        /// Path relative to the folder.
        public var relative: String
        public var facts: FileFacts
    }

    public struct Listing: Sendable {
        /// The folder's canonical path.
        public var folder: String
        public var files: [Entry] = []
        /// Entries that were not considered, with the reason.
        public var skipped: [(path: String, reason: String)] = []
        /// Sub-folders walked, relative to the folder.
        public var folders: [String] = []
    }

    /// The folder itself cannot be listed (missing, not a folder, no permission).
    public struct Unreadable: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var reason: String
        public var description: String { "cannot read \(path): \(reason)" }
    }

    public init() {}

    /// The whole listing, files sorted by relative path.
    public func scan(_ folder: String) throws(Unreadable) -> Listing {
        var files: [Entry] = []
        var listing = try scan(folder) { _, batch in files += batch }
        files.sort { $0.relative.utf8.lexicographicallyPrecedes($1.relative.utf8) }
        listing.files = files
        return listing
    }

    /// Streams the files folder by folder: `visit(directory, files)` is called once per folder
    /// walked (canonical path, its regular files), so a caller can work in memory bounded by the
    /// largest folder. The returned listing holds the skipped entries and the folders, not the
    /// files.
    public func scan(_ folder: String, visit: (_ directory: String, _ files: [Entry]) -> Void) throws(Unreadable) -> Listing {
        guard let resolved = realpath(folder, nil) else {
            throw Unreadable(path: folder, reason: SystemError.message(errno))
        }
        let root = String(cString: resolved)
        free(resolved)
        guard let dir = opendir(root) else { throw Unreadable(path: folder, reason: SystemError.message(errno)) }
        closedir(dir)
        var listing = Listing(folder: root)
        walk(root, relative: "", root: root, into: &listing, depth: 0, visit: visit)
        return listing
    }

    private func walk(_ dir: String, relative: String, root: String, into listing: inout Listing, depth: Int,
                      visit: (String, [Entry]) -> Void) {
        guard depth < 64 else {
            listing.skipped.append((relative, "folder nesting deeper than 64"))
            return
        }
        let handle: DirectoryHandle
        let entries: [DirectoryHandle.Entry]
        do throws(SystemError) {
            handle = try DirectoryHandle(path: dir)
            entries = try handle.entries()
        } catch {
            listing.skipped.append((relative.isEmpty ? dir : relative, "folder cannot be read: \(error)"))
            return
        }
        var files: [Entry] = []
        defer { visit(dir, files) }
        for entry in entries where !entry.name.hasPrefix(".") {
            let name = entry.name
            let path = dir + "/" + name
            let rel = relative.isEmpty ? name : relative + "/" + name
            var type = entry.type
            var facts: FileFacts?
            var needsStat = false
            switch type {
            case .regular, .unknown: needsStat = true
            default: break
            }
            if needsStat {
                guard let f = try? handle.facts(name, followLinks: false) else {
                    listing.skipped.append((rel, entry.nameIsUTF8 ? "cannot be examined" : "file name is not valid UTF-8; not considered"))
                    continue
                }
                facts = f
                switch f.type {
                case .regular: type = .regular
                case .directory: type = .directory
                case .symlink: type = .symlink
                case .other(let w): type = .other(w)
                }
            }
            switch type {
            case .regular:
                if let facts { files.append(Entry(path: path, relative: rel, facts: facts)) }
            case .directory:
                listing.folders.append(rel)
                walk(path, relative: rel, root: root, into: &listing, depth: depth + 1, visit: visit)
            case .symlink:
                guard let r = realpath(path, nil) else {
                    listing.skipped.append((rel, "dangling symbolic link"))
                    continue
                }
                let target = String(cString: r)
                free(r)
                let tf = try? FileFacts.of(target)
                if tf?.type == .directory {
                    listing.skipped.append((rel, "symbolic link to a folder (not followed)"))
                    continue
                }
                guard target.hasPrefix(root + "/") else {
                    listing.skipped.append((rel, "symbolic link out of the folder"))
                    continue
                }
                guard let tf, tf.type == .regular else {
                    listing.skipped.append((rel, "symbolic link to a special file (not followed)"))
                    continue
                }
                files.append(Entry(path: path, relative: rel, facts: tf))
            case .other(let what):
                listing.skipped.append((rel, "not a regular file (\(what))"))
            case .unknown:
                listing.skipped.append((rel, "cannot be examined"))
            }
        }
    }
}
