import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// The one folder walker of photometa, for `inspect -r` (command-line paths) and for `suggest`
/// and `watch` (a library folder). Both policies share every rule but the one about symbolic
/// links:
///
/// - hidden entries (names starting with `.`) are not listed;
/// - FIFOs, sockets and devices are skipped without being opened;
/// - a symbolic link to a folder is never followed (no loops, no escaping the tree);
/// - a folder reached twice (bind mounts) is walked once;
/// - folders nested deeper than `depthLimit` below the starting folder are not walked, and
///   each such folder is reported (`SkipReason.tooDeep`), never dropped silently;
/// - sub-folders are opened relative to their parent's descriptor (`openat`, `O_NOFOLLOW`), so
///   the walk never resolves a full path and reaches files whose paths exceed `PATH_MAX`
///   (4,096 bytes); `FileFacts.of` and `FileByteSource` reach such paths too (`LongPath`);
/// - a link to a regular file is followed: anywhere under `.commandLine` (the user named the
///   tree), only when its target is inside the folder under `.library`.
///
/// Files come out in byte order of their paths (each folder's entries sorted with sub-folders
/// as "name/"), folder by folder, so callers can stream them in memory bounded by the largest
/// folder; with `streamsFiles`, by the largest folder's names.
package struct TreeWalker: Sendable {
    package enum Policy: Sendable {
        /// Paths as the user gave them on the command line.
        case commandLine
        /// A library folder: walked from its canonical path; links only to files inside it.
        case library
    }

    /// The deepest folder walked below the starting folder (docs/robustness.md).
    package static let depthLimit = 64

    /// One regular file (or link to one) and what `statx` said about it.
    package struct File: Sendable {
        /// The folder's path joined with the name.
        package var path: String
        /// The path below the starting folder: the end of `path`, made when asked. A folder's
        /// listing holds one string a file, not two (a burst's folder of 50,000 files: 3 MB).
        package var relative: String {
            switch below {
            case .endOfPath(let count): return String(decoding: path.utf8.suffix(count), as: UTF8.self)
            case .own(let relative): return relative
            }
        }
        /// What `statx` said; nil when the walk took the listing's word that the entry is a
        /// regular file and did not ask (`examinesListedFiles` false): whoever opens it learns
        /// the rest from the descriptor.
        package var facts: FileFacts?
        /// The key of its content (`FileFacts.key`); `FileKey.unexamined` for a file the walk
        /// did not examine, which no index row holds (the library walks examine every file).
        package var key: FileKey { facts?.key ?? .unexamined }
        /// For a symbolic link followed under `.library`: its target's canonical path (a
        /// narrower walk, of one sub-folder, would not follow a link out of it).
        package var linkTarget: String?
        private let below: Below

        /// Where `relative` is: the last `count` bytes of `path` (always, as the walker joins
        /// them), or a string of its own should a caller give one that is not.
        private enum Below {
            case endOfPath(count: Int)
            case own(String)
        }

        package init(path: String, relative: String, facts: FileFacts?, linkTarget: String? = nil) {
            self.path = path
            self.facts = facts
            self.linkTarget = linkTarget
            let (p, r) = (path.utf8, relative.utf8)
            below = p.count >= r.count && p.suffix(r.count).elementsEqual(r) ? .endOfPath(count: r.count) : .own(relative)
        }
    }

    /// Why an entry was not handed on.
    package enum SkipReason: Error, Sendable, Equatable, CustomStringConvertible {
        /// A FIFO, socket or device ("a FIFO").
        case special(String)
        case linkToFolder
        case linkOutOfFolder
        case danglingLink
        /// A link that leads back to itself, or a ring of links (ELOOP).
        case linkLoop
        case linkToSpecial
        /// `statx` failed on the entry.
        case cannotExamine(SystemError)
        /// The folder could not be opened or listed.
        case unreadableFolder(SystemError)
        /// The folder lies deeper than `depthLimit`.
        case tooDeep

        /// Entries that are simply not files (counted by `inspect`), as opposed to files or
        /// folders that could not be read (errors).
        package var isNotAFile: Bool {
            switch self {
            case .special, .linkToFolder, .linkOutOfFolder, .danglingLink, .linkLoop, .linkToSpecial: return true
            case .cannotExamine, .unreadableFolder, .tooDeep: return false
            }
        }

        package var description: String {
            switch self {
            case .special(let what): return "not a regular file (\(what))"
            case .linkToFolder: return "symbolic link to a folder (not followed)"
            case .linkOutOfFolder: return "symbolic link out of the folder"
            case .danglingLink: return "dangling symbolic link"
            case .linkLoop: return "symbolic link in a loop (it leads back to itself)"
            case .linkToSpecial: return "symbolic link to a special file (not followed)"
            case .cannotExamine(let e): return "cannot be read (\(e))"
            case .unreadableFolder(let e): return "folder cannot be read: \(e)"
            case .tooDeep: return "folder nested deeper than \(TreeWalker.depthLimit) levels; not walked"
            }
        }
    }

    package enum Event {
        /// Files of `folder`, in path order; a folder's files may come in several runs, with the
        /// files of its sub-folders in between.
        case files(Folder, ArraySlice<File>)
        /// Every file of `folder` and of its sub-folders has been handed on.
        case folderDone(Folder)
        /// An entry that was not handed on.
        case skipped(path: String, relative: String, reason: SkipReason)
        /// A sub-folder not walked because the walk was asked for one level only (`listOne`).
        case subfolder(path: String, relative: String)
    }

    package var policy: Policy
    /// Entries whose path below the starting folder matches one of these are left out, folders
    /// with all they hold (`--exclude`).
    package var exclude: [PathGlob]

    /// `statx` a folder's entries on both cores (a library scan, which does little else with
    /// unchanged files; `inspect -r` keeps the second core for parsing).
    package var parallelStat = false

    /// `statx` every entry. False takes the listing's word (`d_type`) that an entry is a
    /// regular file and hands it on unexamined (`File.facts` nil): for `inspect -r`, which
    /// opens every file anyway and learns its facts from the descriptor, so a folder's files
    /// are handed on after its listing, not after a `statx` of each (a folder of 5,000
    /// files kept the workers waiting 12 ms; docs/performance.md, "The walk's statx"). Links
    /// and entries whose type the listing does not tell are examined as before.
    package var examinesListedFiles = true

    /// Hand a folder's files on in runs as they are examined, without collecting them first:
    /// `Folder.files` is then empty (and sidecars and partners unknown). For a consumer that
    /// needs no file's siblings (the watcher): a folder of 50,000 files is walked holding its
    /// names and one run, not 50,000 `File` values.
    package var streamsFiles = false
    /// Asked before each folder is listed: true ends the walk there (its reader went away).
    package var shouldStop: (@Sendable () -> Bool)?

    /// Enter each folder's sub-folders last name first, then hand on its files (still in path
    /// order). Camera and dated folders are named in the order they were made
    /// (`DCIM/100CANON`, `101CANON`; `2024/08`), so a consumer that wants the newest files
    /// (`recent`) meets them first; it must not depend on the order of folders.
    package var lastNamesFirst = false

    /// Told each folder's path and its path below the root just before the folder is listed
    /// (the service watches it there, so nothing that changes after the listing goes unseen).
    package var entering: (@Sendable (_ path: String, _ relative: String) -> Void)?

    package init(policy: Policy, exclude: [PathGlob] = []) {
        self.policy = policy
        self.exclude = exclude
    }

    /// Walks `folder`. Under `.library`, `folder` should be canonical (`FileSystem.canonicalFolder`)
    /// so that links can be checked against it.
    package func walk(_ folder: String, facts: FileFacts? = nil, visit: (Event) -> Void) {
        var visited = Set<FolderID>()
        walk(folder, facts: facts, visited: &visited, visit: visit)
    }

    /// Walks `folder`, skipping the folders in `visited` (and adding those it walks): several
    /// walks that share the set visit each folder once.
    package func walk(_ folder: String, facts: FileFacts? = nil, visited: inout Set<FolderID>, visit: (Event) -> Void) {
        let base = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        walk(base, relative: "", root: base, facts: facts, depth: 0, visited: &visited, visit: visit)
    }

    /// The sub-tree at `dir` (`relative` below `root`), for a folder that appeared while
    /// watching; its depth counts from the root. The folders above it, from the root down,
    /// count as walked: a bind mount of one of them inside the sub-tree (a loop) is passed
    /// over, as a walk of the whole root passes over it, not walked again under its new name.
    package func walkSubtree(_ dir: String, relative: String, root: String, visit: (Event) -> Void) {
        var visited = Set<FolderID>()
        var above = root
        for component in [""] + relative.split(separator: "/").dropLast().map(String.init) {
            if !component.isEmpty { above += "/" + component }
            guard let facts = try? FileFacts.of(above) else { break }
            visited.insert(FolderID(device: facts.device, inode: facts.inode))
        }
        let depth = relative.split(separator: "/").count
        walk(dir, relative: relative, root: root, facts: nil, depth: depth, visited: &visited, visit: visit)
    }

    /// A folder's identity whatever path reached it.
    package struct FolderID: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// One folder, not its sub-folders (they come as `.subfolder` events): what the watcher
    /// looks at again when inotify names a folder. `relative` is its path below `root`, the
    /// starting folder of the watch (for links under `.library`).
    package func listOne(_ dir: String, relative: String, root: String, visit: (Event) -> Void) {
        var visited = Set<FolderID>()
        walk(dir, relative: relative, root: root, facts: nil, depth: 0, descend: false, visited: &visited, visit: visit)
    }

    /// Some entries of one folder, by name, handed on as `listOne` hands them on (streamed:
    /// `Folder.files` is empty), in byte order; a name that is not there is not handed on.
    /// What the watcher looks at when inotify names a few entries of a folder that may hold
    /// 50,000 (a burst's folder as it fills), instead of listing it all again.
    package func lookAt(_ names: [String], in dir: String, relative: String, root: String, visit: (Event) -> Void) {
        guard let handle = TreeWalker.open(dir, relative: relative, visit: visit) else { return }
        var listing = DirectoryHandle.Listing()
        for name in names where !name.isEmpty && !name.contains("/") { listing.append(name: name) }
        listing.sort()
        let place = Place(dir: dir, relative: relative, root: root)
        stream(listing, in: handle, place) { event in
            if case .skipped(_, _, .cannotExamine(let e)) = event, e.errno == ENOENT { return }
            visit(event)
        } subfolder: { sub in
            visit(.subfolder(path: sub.path, relative: sub.relative))
        }
    }

    /// The folder at `dir` opened by its path, or nil when it cannot be (said as skipped).
    private static func open(_ dir: String, relative: String, visit: (Event) -> Void) -> DirectoryHandle? {
        do throws(SystemError) {
            return try DirectoryHandle(path: dir)
        } catch {
            visit(.skipped(path: dir, relative: relative.isEmpty ? dir : relative, reason: .unreadableFolder(error)))
            return nil
        }
    }

    /// Opens the folder at `dir` by its path (a starting folder), then walks it.
    private func walk(
        _ dir: String, relative: String, root: String, facts: FileFacts?, depth: Int, descend: Bool = true,
        visited: inout Set<FolderID>, visit: (Event) -> Void
    ) {
        if let facts, !visited.insert(FolderID(device: facts.device, inode: facts.inode)).inserted { return }
        guard let handle = TreeWalker.open(dir, relative: relative, visit: visit) else { return }
        if facts == nil, let own = try? FileFacts.of(descriptor: handle.fd),
            !visited.insert(FolderID(device: own.device, inode: own.inode)).inserted
        {
            return
        }
        walk(handle, dir, relative: relative, root: root, depth: depth, descend: descend, visited: &visited, visit: visit)
    }

    /// Walks the open folder `handle` (at `dir`), descending into each sub-folder by `openat`
    /// from this folder's descriptor, never by its full path: a folder deeper than `PATH_MAX`
    /// bytes of path is walked like any other. One descriptor is held per level of the current
    /// branch, so at most `depthLimit` + 1 (and one more while a folder is listed).
    private func walk(
        _ handle: DirectoryHandle, _ dir: String, relative: String, root: String, depth: Int, descend: Bool,
        visited: inout Set<FolderID>, visit: (Event) -> Void
    ) {
        if let shouldStop, shouldStop() { return }
        entering?(dir, relative)
        let place = Place(dir: dir, relative: relative, root: root)
        func subfolder(_ sub: Subfolder) {
            if !descend {
                visit(.subfolder(path: sub.path, relative: sub.relative))
            } else if depth + 1 > TreeWalker.depthLimit {
                visit(.skipped(path: sub.path, relative: sub.relative, reason: .tooDeep))
            } else {
                descendInto(sub, of: handle, root: root, depth: depth, visited: &visited, visit: visit)
            }
        }
        let files: [File]
        let subfolders: [Subfolder]
        do {
            // A folder examined whole lets its listing go here, before any file is handed on: a
            // folder of 50,000 names is 2 MB, not to be kept while its files are parsed and its
            // sub-folders walked (a streamed folder reads the listing as it hands files on).
            let listing: DirectoryHandle.Listing
            do throws(SystemError) {
                listing = try handle.entries()
            } catch {
                visit(.skipped(path: dir, relative: relative.isEmpty ? dir : relative, reason: .unreadableFolder(error)))
                return
            }
            if streamsFiles {
                stream(listing, in: handle, place, visit: visit, subfolder: subfolder)
                return
            }
            (files, subfolders) = examine(admitted(listing, place, visit: visit), in: handle, place, visit: visit)
        }
        let folder = Folder(path: dir, relative: relative, files: files)
        if lastNamesFirst {
            // The sub-folders last name first, then the folder's own files, in path order (a
            // folder's digest is made in that order, whoever walks it: `FolderDigest`).
            for sub in subfolders.reversed() { subfolder(sub) }
            if !files.isEmpty { visit(.files(folder, files[...])) }
            visit(.folderDone(folder))
            return
        }
        var start = 0
        for sub in subfolders {
            if sub.position > start { visit(.files(folder, files[start..<sub.position])) }
            start = sub.position
            subfolder(sub)
        }
        if files.count > start { visit(.files(folder, files[start...])) }
        visit(.folderDone(folder))
    }

    /// Opens a listed sub-folder from its parent's descriptor and walks it, unless it was
    /// walked already.
    private func descendInto(
        _ sub: Subfolder, of handle: DirectoryHandle, root: String, depth: Int, visited: inout Set<FolderID>,
        visit: (Event) -> Void
    ) {
        let child: DirectoryHandle
        do throws(SystemError) {
            child = try DirectoryHandle(in: handle, name: sub.name)
        } catch {
            visit(.skipped(path: sub.path, relative: sub.relative, reason: .unreadableFolder(error)))
            return
        }
        // The identity of the folder opened, not of the name listed: a folder reached twice
        // (bind mounts) is walked once.
        guard let own = try? FileFacts.of(descriptor: child.fd),
            visited.insert(FolderID(device: own.device, inode: own.inode)).inserted
        else { return }
        walk(
            child, sub.path, relative: sub.relative, root: root, depth: depth + 1, descend: true, visited: &visited, visit: visit)
    }
}
