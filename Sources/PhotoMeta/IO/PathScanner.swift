/// Expands command-line paths into the files to inspect: files as given, directories walked
/// (recursively when asked). Hidden entries are skipped, symbolic links to directories are not
/// followed (no loops, no escaping the tree), and FIFOs, sockets and devices are skipped without
/// being opened.
///
/// Files come out in byte order of their paths as they are found (arguments sorted, each folder's
/// entries sorted with sub-folders as "name/"), so a caller can stream them without collecting
/// the whole tree.
public struct PathScanner: Sendable {
    public struct Item: Sendable {
        public var path: String
        /// Named on the command line: always gets an entry, even when it is not media.
        public var explicit: Bool
        /// What the scan learned of the file (saves a second `stat`); nil when it could not
        /// be examined (the inspection then reports why).
        public var facts: FileFacts?
        /// The other files of its folder, when the folder was listed: a still's Live Photo
        /// partner is looked up here instead of with a `stat` per candidate name.
        public var siblings: SiblingNames?
    }

    /// The paths of the regular files of one listed folder.
    public final class SiblingNames: Sendable {
        public let paths: Set<String>
        init(_ paths: Set<String>) { self.paths = paths }
    }

    public enum Event: Sendable {
        case item(Item)
        /// A path that could not be listed or used, with the reason.
        case error(path: String, reason: String)
        /// An entry in a directory that is not a regular file (FIFO, socket, device, link to a
        /// directory), skipped.
        case skippedSpecial
    }

    public struct Result: Sendable {
        public var items: [Item] = []
        public var errors: [(path: String, reason: String)] = []
        public var skippedSpecial = 0
    }

    public var recursive: Bool

    public init(recursive: Bool) { self.recursive = recursive }

    /// Collects everything (for callers that want the whole list).
    public func scan(_ paths: [String]) -> Result {
        var result = Result()
        scan(paths) { event in
            switch event {
            case .item(let i): result.items.append(i)
            case .error(let p, let r): result.errors.append((p, r))
            case .skippedSpecial: result.skippedSpecial += 1
            }
        }
        return result
    }

    /// Streams the files in path order.
    public func scan(_ paths: [String], visit: (Event) -> Void) {
        // Arguments in byte order; a file also named explicitly inside a walked folder keeps its
        // explicit entry and is not listed twice.
        let sorted = Array(Set(paths)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let explicitPaths = Set(sorted)
        var visited = Set<DirectoryID>()
        // Only explicit paths can be met twice (walked folders are visited once each), so only
        // they are remembered: memory stays independent of the size of the tree.
        var emitted = Set<String>()
        for path in sorted {
            let facts: FileFacts
            do throws(SystemError) {
                facts = try FileFacts.of(path)
            } catch {
                // Give it an entry anyway: the error is reported per file.
                if emitted.insert(path).inserted { visit(.item(Item(path: path, explicit: true, facts: nil, siblings: nil))) }
                continue
            }
            if facts.type == .directory {
                guard recursive else {
                    visit(.error(path: path, reason: "is a directory (use -r to inspect its contents)"))
                    continue
                }
                let base = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
                walk(base, facts: facts, explicit: explicitPaths, emitted: &emitted, visited: &visited, visit: visit)
            } else if emitted.insert(path).inserted {
                visit(.item(Item(path: path, explicit: true, facts: facts, siblings: nil)))
            }
        }
    }

    /// A directory's identity whatever path reached it.
    struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private func walk(_ directory: String, facts: FileFacts, explicit: Set<String>, emitted: inout Set<String>,
                      visited: inout Set<DirectoryID>, visit: (Event) -> Void) {
        guard visited.insert(DirectoryID(device: facts.device, inode: facts.inode)).inserted else { return }
        let handle: DirectoryHandle
        let entries: [DirectoryHandle.Entry]
        do throws(SystemError) {
            handle = try DirectoryHandle(path: directory)
            entries = try handle.entries()
        } catch {
            visit(.error(path: directory, reason: error.description))
            return
        }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        // Files of this folder and what they are, before any is handed on, so every item can
        // carry the names of its siblings.
        var files: [(path: String, facts: FileFacts)?] = []
        var subfolders: [(index: Int, path: String, facts: FileFacts)] = []
        for entry in entries where !entry.name.hasPrefix(".") {
            let path = prefix + entry.name
            if case .other = entry.type {
                visit(.skippedSpecial)
                continue
            }
            guard let f = try? handle.facts(entry.name, followLinks: false) else {
                // A name that is not UTF-8 cannot be carried by a Swift String: say so rather
                // than blame the file.
                visit(.error(path: path, reason: entry.nameIsUTF8 ? "cannot be read"
                                                : "file name is not valid UTF-8; not inspected"))
                continue
            }
            switch f.type {
            case .regular:
                files.append((path, f))
            case .directory:
                subfolders.append((files.count, path, f))
                files.append(nil)
            case .symlink:
                // A link to a file is inspected; a link to a directory is not followed.
                if let target = try? handle.facts(entry.name, followLinks: true), target.type == .regular {
                    files.append((path, target))
                } else {
                    visit(.skippedSpecial)
                }
            case .other:
                visit(.skippedSpecial)
            }
        }
        let siblings = SiblingNames(Set(files.compactMap { $0?.path }))
        var next = 0
        for (k, file) in files.enumerated() {
            if let file {
                let isExplicit = explicit.contains(file.path)
                if !isExplicit || emitted.insert(file.path).inserted {
                    visit(.item(Item(path: file.path, explicit: isExplicit, facts: file.facts, siblings: siblings)))
                }
            } else if next < subfolders.count, subfolders[next].index == k {
                let sub = subfolders[next]
                next += 1
                walk(sub.path, facts: sub.facts, explicit: explicit, emitted: &emitted, visited: &visited, visit: visit)
            }
        }
    }
}
