/// Expands command-line paths into the files to inspect: files as given, directories walked
/// (recursively when asked). Hidden entries are skipped, symbolic links to directories are not
/// followed (no loops, no escaping the tree), and FIFOs, sockets and devices are skipped without
/// being opened.
public struct PathScanner {
    public struct Item: Sendable {
        public var path: String
        /// Named on the command line: always gets an entry, even when it is not media.
        public var explicit: Bool
        /// What the scan learned of the file (saves a second `stat`); nil when it could not
        /// be examined (the inspection then reports why).
        public var facts: FileFacts?
    }

    public struct Result: Sendable {
        public var items: [Item] = []
        /// Paths that could not be listed or used, with the reason.
        public var errors: [(path: String, reason: String)] = []
        /// Entries in directories that are not regular files (FIFOs, sockets, devices, links to
        /// directories) and were skipped.
        public var skippedSpecial = 0
        /// Every regular file found by walking directories: a still's Live Photo partner is
        /// looked up here instead of with a `stat` per candidate name.
        public var listed: Set<String> = []
    }

    public var recursive: Bool

    public init(recursive: Bool) { self.recursive = recursive }

    public func scan(_ paths: [String]) -> Result {
        var result = Result()
        var explicitSeen = Set<String>()
        var visited = Set<DirectoryID>()
        for path in paths {
            let facts: FileFacts
            do throws(SystemError) {
                facts = try FileFacts.of(path)
            } catch {
                // Give it an entry anyway: the error is reported per file.
                if explicitSeen.insert(path).inserted { result.items.append(Item(path: path, explicit: true, facts: nil)) }
                continue
            }
            if facts.type == .directory {
                guard recursive else {
                    result.errors.append((path, "is a directory (use -r to inspect its contents)"))
                    continue
                }
                let base = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
                walk(base, facts: facts, into: &result, visited: &visited)
            } else if explicitSeen.insert(path).inserted {
                result.items.append(Item(path: path, explicit: true, facts: facts))
            }
        }
        // Stable output: sorted by path. A file named explicitly and also found in a walked
        // folder is listed once, as explicit.
        result.items.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        if paths.count > 1 {
            var seen = Set<String>()
            result.items = result.items.filter { seen.insert($0.path).inserted }
        }
        return result
    }

    /// A directory's identity whatever path reached it.
    struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private func walk(_ directory: String, facts: FileFacts, into result: inout Result, visited: inout Set<DirectoryID>) {
        guard visited.insert(DirectoryID(device: facts.device, inode: facts.inode)).inserted else { return }
        let handle: DirectoryHandle
        let entries: [DirectoryHandle.Entry]
        do throws(SystemError) {
            handle = try DirectoryHandle(path: directory)
            entries = try handle.entries()
        } catch {
            result.errors.append((directory, error.description))
            return
        }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        for entry in entries where !entry.name.hasPrefix(".") {
            let path = prefix + entry.name
            switch entry.type {
            case .directory:
                guard let f = try? handle.facts(entry.name, followLinks: false) else {
                    result.errors.append((path, "cannot be read"))
                    continue
                }
                walk(path, facts: f, into: &result, visited: &visited)
            case .other:
                result.skippedSpecial += 1
            case .regular, .symlink, .unknown:
                guard let f = try? handle.facts(entry.name, followLinks: false) else {
                    result.errors.append((path, "cannot be read"))
                    continue
                }
                switch f.type {
                case .regular:
                    result.items.append(Item(path: path, explicit: false, facts: f))
                    result.listed.insert(path)
                case .directory:
                    walk(path, facts: f, into: &result, visited: &visited)
                case .symlink:
                    // A link to a file is inspected; a link to a directory is not followed.
                    if let target = try? handle.facts(entry.name, followLinks: true), target.type == .regular {
                        result.items.append(Item(path: path, explicit: false, facts: target))
                        result.listed.insert(path)
                    } else {
                        result.skippedSpecial += 1
                    }
                case .other:
                    result.skippedSpecial += 1
                }
            }
        }
    }
}
