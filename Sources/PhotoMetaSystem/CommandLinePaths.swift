import PhotoMetaCore

/// Expands the paths of an `inspect` command line into the files to inspect: files as given,
/// folders walked by `TreeWalker(policy: .commandLine)` when recursion is asked for.
///
/// Files come out in byte order of their paths (arguments sorted, each folder in path order),
/// so a caller can stream them without collecting the tree. A file named on the command line
/// always gets an item, even when it cannot be examined: the inspection then says why.
package struct CommandLinePaths: Sendable {
    package struct Item: Sendable {
        package var path: String
        /// Named on the command line (not found in a walked folder).
        package var explicit: Bool
        /// What the scan learned of the file (saves a second `stat`); nil when it could not be
        /// examined, or when the walk did not ask (`unexamined`).
        package var facts: FileFacts?
        /// Found in a walked folder whose listing said it is a regular file, and not examined:
        /// opening it tells the rest (`TreeWalker.examinesListedFiles`).
        package var unexamined = false
        /// The folder it was found in, when walked: its Live Photo partners are looked up there.
        package var folder: TreeWalker.Folder?
    }

    package enum Event: Sendable {
        case item(Item)
        /// A path that could not be listed or used (an error), or an entry skipped because it is
        /// not a file (`notAFile`: FIFOs, sockets, devices, links that are not followed).
        case problem(path: String, reason: String, notAFile: Bool)
    }

    package var recursive: Bool
    /// Left out of walked folders (matched below each folder given).
    package var exclude: [PathGlob]
    /// Asked before each path and folder: true ends the scan (its reader went away).
    package var shouldStop: (@Sendable () -> Bool)?

    package init(recursive: Bool, exclude: [PathGlob] = [], shouldStop: (@Sendable () -> Bool)? = nil) {
        self.recursive = recursive
        self.exclude = exclude
        self.shouldStop = shouldStop
    }

    /// Streams the files in path order, then (`listed`) the paths of a file list in the order
    /// they come, each read only when the one before has been handed on: a list of any length
    /// costs the memory of one path. Listed paths are not sorted or deduplicated (a path listed
    /// twice gets two rows), but a folder is walked once whatever names it.
    package func scan(_ paths: [String], listed: (() -> String?)? = nil, visit: (Event) -> Void) {
        // Arguments in byte order; a file also named explicitly inside a walked folder keeps its
        // explicit entry and is not listed twice.
        let sorted = Array(Set(paths)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let explicitPaths = Set(sorted)
        // Only explicit paths can be met twice (walked folders are visited once each), so only
        // they are remembered: memory stays independent of the size of the tree.
        var emitted = Set<String>()
        var walker = TreeWalker(policy: .commandLine, exclude: exclude)
        walker.shouldStop = shouldStop
        // Every file is opened to be inspected, and the descriptor tells its facts: a `statx`
        // of each by the walk would be a second look, made before the folder's first file
        // can be handed on.
        walker.examinesListedFiles = false
        let stopped = { shouldStop?() == true }
        // Shared by every walk: a folder named twice (or inside another named folder) is walked
        // once.
        var visited = Set<TreeWalker.FolderID>()

        /// One path named by the user: `dedupe` for command-line arguments (sorted, distinct).
        func one(_ path: String, dedupe: Bool) {
            let facts: FileFacts
            do throws(SystemError) {
                facts = try FileFacts.of(path)
            } catch {
                // Give it an entry anyway: the inspection reports why it cannot be read.
                if !dedupe || emitted.insert(path).inserted {
                    visit(.item(Item(path: path, explicit: true, facts: nil, folder: nil)))
                }
                return
            }
            guard facts.type == .directory else {
                if !dedupe || emitted.insert(path).inserted {
                    visit(.item(Item(path: path, explicit: true, facts: facts, folder: nil)))
                }
                return
            }
            guard recursive else {
                visit(.problem(path: path, reason: "is a directory (use -r to inspect its contents)", notAFile: false))
                return
            }
            walker.walk(path, facts: facts, visited: &visited) { event in
                switch event {
                case .files(let folder, let files):
                    for f in files {
                        let isExplicit = explicitPaths.contains(f.path)
                        if !isExplicit || emitted.insert(f.path).inserted {
                            var item = Item(path: f.path, explicit: isExplicit, facts: f.facts, folder: folder)
                            item.unexamined = f.facts == nil
                            visit(.item(item))
                        }
                    }
                case .folderDone, .subfolder:
                    break
                case .skipped(let p, _, let reason):
                    let text: String
                    switch reason {
                    case .unreadableFolder(let e): text = e.description
                    default: text = reason.description
                    }
                    visit(.problem(path: p, reason: text, notAFile: reason.isNotAFile))
                }
            }
        }

        for path in sorted where !stopped() { one(path, dedupe: true) }
        if let listed {
            while !stopped(), let path = listed() {
                if !path.isEmpty { one(path, dedupe: false) }
            }
        }
    }

    /// Everything at once (tests, small callers).
    package func collect(_ paths: [String]) -> (items: [Item], errors: [(path: String, reason: String)], notFiles: Int) {
        var items: [Item] = []
        var errors: [(path: String, reason: String)] = []
        var notFiles = 0
        scan(paths) { event in
            switch event {
            case .item(let i): items.append(i)
            case .problem(let p, let r, let notAFile):
                if notAFile { notFiles += 1 } else { errors.append((p, r)) }
            }
        }
        return (items, errors, notFiles)
    }
}
