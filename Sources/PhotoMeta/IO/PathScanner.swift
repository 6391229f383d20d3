import Foundation

/// Expands command-line paths into the files to inspect: files as given, directories walked
/// (recursively when asked). Hidden entries are skipped, symbolic links to directories are not
/// followed (no loops, no escaping the tree), and FIFOs, sockets and devices are skipped without
/// being opened.
public struct PathScanner {
    public struct Item: Sendable, Equatable {
        public var path: String
        /// Named on the command line: always gets an entry, even when it is not media.
        public var explicit: Bool
    }

    public struct Result: Sendable {
        public var items: [Item] = []
        /// Paths that could not be listed or used, with the reason.
        public var errors: [(path: String, reason: String)] = []
        /// Entries in directories that are not regular files (FIFOs, sockets, devices, links to
        /// directories) and were skipped.
        public var skippedSpecial = 0
    }

    public var recursive: Bool

    public init(recursive: Bool) { self.recursive = recursive }

    public func scan(_ paths: [String]) -> Result {
        var result = Result()
        var seen = Set<String>()
        for path in paths {
            let facts: FileFacts
            do throws(SystemError) {
                facts = try FileFacts.of(path)
            } catch {
                // Give it an entry anyway: the error is reported per file.
                result.items.append(Item(path: path, explicit: true))
                continue
            }
            if facts.type == .directory {
                guard recursive else {
                    result.errors.append((path, "is a directory (use -r to inspect its contents)"))
                    continue
                }
                var visited = Set<DirectoryID>()
                walk(directory: path, facts: facts, into: &result, visited: &visited, seen: &seen)
            } else if seen.insert(path).inserted {
                result.items.append(Item(path: path, explicit: true))
            }
        }
        // Stable output: sorted by path (explicit files keep their place among them).
        result.items.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        return result
    }

    /// A directory's identity whatever path reached it.
    struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private func walk(directory: String, facts: FileFacts, into result: inout Result, visited: inout Set<DirectoryID>,
                      seen: inout Set<String>) {
        guard visited.insert(DirectoryID(device: facts.device, inode: facts.inode)).inserted else { return }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            let reason = (error as NSError).code == NSFileReadNoPermissionError ? "permission denied" : "cannot be read"
            result.errors.append((directory, reason))
            return
        }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = prefix + name
            guard let f = try? FileFacts.of(path, followLinks: false) else {
                result.errors.append((path, "cannot be read"))
                continue
            }
            switch f.type {
            case .regular:
                if seen.insert(path).inserted { result.items.append(Item(path: path, explicit: false)) }
            case .directory:
                walk(directory: path, facts: f, into: &result, visited: &visited, seen: &seen)
            case .symlink:
                // A link to a file is inspected; a link to a directory is not followed.
                if let target = try? FileFacts.of(path), target.type == .regular {
                    if seen.insert(path).inserted { result.items.append(Item(path: path, explicit: false)) }
                } else {
                    result.skippedSpecial += 1
                }
            case .other:
                result.skippedSpecial += 1
            }
        }
    }
}
