import Foundation
import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

/// The service's library: every served folder's candidates (paired, canonical paths), kept
/// exact as files change. Built by one `FolderScan`, then kept current folder by folder: the
/// entries inotify names are looked at alone (`NamedLook`), or their folder listed again where
/// they need it (`FolderScan.relist`: unchanged files from the index, changed ones parsed and
/// written); a new sub-folder scanned whole, a vanished one dropped.
/// Nothing here reads the clock or decides (`decide` folds into a scan's engine).
package final class LiveLibrary {
    /// The served folders (canonical).
    package let roots: [String]
    /// Which folders the roots' walks enter, and so which the library answers for.
    let served: ServedRoots
    private let scan: FolderScan
    private var index: ScanIndex?
    /// The folders and their candidates.
    var held: LibraryFolders
    /// Canonical folder path → the entries skipped in it (canonical paths).
    var skipped: [PathKey: [Suggester.SkippedEntry]] = [:]
    /// The symbolic links followed, for answers about a sub-folder.
    var links = FolderLinks()
    /// Folders to list again, and whether every folder must be; what rescans keep between looks.
    private var dirty: Set<PathKey> = []
    /// Folders of which inotify named a few entries: those are looked at alone (`NamedLook`).
    private var named: [PathKey: Set<PathKey>] = [:]
    /// Looks at named entries that did not need the folder's listing (for tests).
    private(set) var looksByName = 0
    private var everything = false
    private var folderTimes = FolderTimes()
    /// Names under which a folder came, went or was replaced: whatever was known there is
    /// dropped, and the folder now there (if any) scanned whole.
    private var replaced: Set<PathKey> = []
    /// Told each folder dropped from the library (the service releases its watch).
    package var dropped: ((String) -> Void)?
    /// Notes for people (the index could not be used...).
    package private(set) var notes: [String] = []

    /// Told each folder a scan enters, before it is listed (the service watches it).
    package typealias Entering = @Sendable (_ path: String, _ relative: String) -> Void

    package init(roots: [String], exclude: [String], indexPath: String?) {
        self.roots = roots
        held = LibraryFolders(roots: roots)
        scan = FolderScan(exclude: exclude, indexPath: indexPath)
        served = ServedRoots(roots: roots, exclude: scan.exclude)
    }

    deinit { if let index { _ = index.finish() } }

    /// How many candidates the library holds.
    package var fileCount: Int { held.fileCount }

    /// The folder (canonical) is in the library.
    package func holds(_ folder: String) -> Bool { held.contains(folder) }

    /// How many files the library holds in `folders` (canonical, below a root): what a
    /// `suggest` of them considers (a folder given twice or inside another counts once).
    package func fileCount(in folders: [String]) -> Int {
        PathKey.outermost(folders).reduce(0) { $0 + held.count(within: $1) }
    }

    /// The first scan; `entering` is told each folder before it is listed (to be watched).
    package func populate(entering: Entering?) {
        var summary = FolderScan.Summary()
        index = ScanIndex.open(scan.indexPath, notes: &summary.notes)
        held.removeAll()
        let all = roots.map { FolderScan.Root(path: $0, display: $0) }
        scan.run(all, index: &index, summary: &summary, entering: entering) { folder, list in held.store(folder, list) }
        skipped = Dictionary(grouping: summary.skipped) { PathKey(PathKey.parent($0.path)) }
        links.removeAll()
        links.add(summary.links)
        notes += summary.notes
        index?.flush()
        (dirty, named) = ([], [:])
        everything = false
    }

    /// A change inside `folder` (canonical) was seen: list it again before the next answer.
    package func changed(_ folder: String) { dirty.insert(PathKey(folder)) }

    /// A change to the entry `name` of `folder` (canonical; "" for the folder itself) was seen:
    /// looked at before the next answer, alone while few names of the folder changed.
    package func changed(_ folder: String, name: String) {
        let key = PathKey(folder)
        guard !name.isEmpty, !dirty.contains(key),
            named[key, default: []].count < NamedLook.limit(forFolderOf: held.count(in: key))
        else {
            changed(folder)
            return
        }
        named[key, default: []].insert(PathKey(name))
    }

    /// A folder came, went or was replaced at `path` (canonical): removed and made again,
    /// renamed away or onto the name, swapped. Whatever was there is dropped, and the folder
    /// there now scanned whole; its parent's files are not touched (a name taken by a file is
    /// a change of the parent's, reported as such).
    package func folderNameChanged(_ path: String) {
        replaced.insert(PathKey(path))
    }

    /// A look besides inotify's events (`RescanSchedule`; `.everyFile` too when events were
    /// lost): every folder listed again, or those `FolderTimes` names.
    package func rescan(_ look: RescanSchedule.Look) {
        everything = everything || look == .everyFile
        for f in folderTimes.toList(look, held.keys.map(\.path), path: { $0 }, digest: held.digest) { dirty.insert(PathKey(f)) }
    }

    /// True when a change has not been looked at yet.
    package var hasChanges: Bool { everything || !dirty.isEmpty || !named.isEmpty || !replaced.isEmpty }

    /// Looks again at what changed, so the library reflects the folders. `entering` as for
    /// `populate` (new sub-folders are watched before they are listed).
    package func refresh(entering: Entering?) {
        if everything {
            // Events were lost: everything is scanned again (the index makes it a stat walk),
            // in one pass rather than folder by folder.
            for f in held.keys where !roots.contains(where: { PathKey($0) == f }) { dropped?(f.path) }
            populate(entering: entering)
            folderTimes.listed(digest: held.digest)
            return
        }
        var summary = FolderScan.Summary()
        // Names whose folder changed: dropped first (their watches released), then the folder
        // now there, if any, scanned whole (and watched as it is entered).
        let names = replaced.map(\.path).sorted { $0.utf8.count < $1.utf8.count }
        replaced = []
        for path in names { dropTree(path) }
        for path in names
        where served.root(of: path) != nil && held.contains(PathKey.parent(path)) && !held.contains(path) {
            scanSubtree(path, summary: &summary, entering: entering)
        }
        // Parents before children: a folder dropped with its parent is not listed again.
        for folder in dirty.union(named.keys).map(\.path).sorted(by: { $0.utf8.count < $1.utf8.count })
        where served.root(of: folder) != nil && held.contains(folder) {
            if let names = named[PathKey(folder)], !dirty.contains(PathKey(folder)), look(at: names, in: folder, &summary) {
                continue
            }
            relist(folder, summary: &summary, entering: entering)
        }
        (dirty, named) = ([], [:])
        folderTimes.listed(digest: held.digest)
        notes += summary.notes
    }

    /// Scans the folder at `path` and everything below it (a folder new to the library), with
    /// links judged against its served root; watched as entered. Nothing when it is not a
    /// folder (any more), or lies deeper than the walker goes.
    private func scanSubtree(_ path: String, summary: inout FolderScan.Summary, entering: Entering?) {
        guard let root = served.enteredRoot(of: path) else { return }
        guard let facts = try? FileFacts.of(path, followLinks: false), facts.type == .directory else { return }
        let depth = path.utf8.dropFirst(root.utf8.count + 1).split(separator: UInt8(ascii: "/")).count
        guard depth <= TreeWalker.depthLimit else { return }
        var visitedSummary = FolderScan.Summary()
        let subtree = FolderScan.Root(path: path, display: root, subtreeOf: root)
        scan.run([subtree], index: &index, summary: &visitedSummary, entering: entering) { p, list in held.store(p, list) }
        for (parent, entries) in Dictionary(grouping: visitedSummary.skipped, by: { PathKey(PathKey.parent($0.path)) }) {
            skipped[parent, default: []] += entries
        }
        links.add(visitedSummary.links)
        summary.notes += visitedSummary.notes
    }

    private func relist(_ folder: String, summary: inout FolderScan.Summary, entering: Entering?) {
        guard let root = served.root(of: folder) else { return }
        let relative = folder == root ? "" : String(folder.dropFirst(root.count + 1))
        let before = summary.skipped.count
        let linksBefore = summary.links.count
        // Made again from the listing and the index: a large folder is not held twice meanwhile.
        held.drop(PathKey(folder))
        let listed = scan.relist(
            folder, relative: relative, root: FolderScan.Root(path: root, display: root), index: &index, summary: &summary)
        guard var listed else {
            dropTree(folder)
            return
        }
        var candidates: [SuggestionCandidate] = []
        swap(&candidates, &listed.candidates)  // held once, not copied (`LibraryFolders.store`)
        held.store(folder, consume candidates)
        skipped[PathKey(folder)] = Array(summary.skipped[before...])
        links.drop(PathKey(folder))
        links.add(summary.links[linksBefore...])
        let present = Set(listed.subfolders)
        for known in children(of: folder) where !present.contains(known) { dropTree(known) }
        for sub in listed.subfolders where !held.contains(sub) {
            // New here (created, or moved in with what it holds): scanned whole.
            scanSubtree(sub, summary: &summary, entering: entering)
        }
    }

    /// Looks at the entries `names` of the held `folder` alone (`NamedLook`); false when the
    /// folder must be listed whole (a name of a sub-folder, a link followed here, or what the
    /// look gives up on).
    private func look(at names: Set<PathKey>, in folder: String, _ summary: inout FolderScan.Summary) -> Bool {
        guard let root = served.root(of: folder), !links.holds(in: PathKey(folder)),
            !names.contains(where: { held.contains(NamedLook.join(folder, $0.path)) })
        else { return false }
        let relative = folder == root ? "" : String(folder.dropFirst(root.count + 1))
        let look = NamedLook(folder: folder, relative: relative, root: root, names: names)
        // The held list is read, then let go, before it is changed in place.
        let found = held.list(in: PathKey(folder)).flatMap {
            look.look(held: $0, scan: scan, index: &index, notes: &summary.notes)
        }
        guard let found else { return false }
        held.replace(in: folder, names: names, with: found.candidates)
        looksByName += 1
        let paths = Set(names.map { PathKey(NamedLook.join(folder, $0.path)) })
        // In a listing's order: what the walker skips by the names' bytes, then the temporary
        // names (`FolderScan.prepare`) by theirs.
        let kept = (skipped[PathKey(folder)] ?? []).filter { !paths.contains(PathKey($0.path)) }
        skipped[PathKey(folder)] = (kept + found.skipped).sorted { a, b in
            let (x, y) = (a.reason == FolderScan.temporaryReason, b.reason == FolderScan.temporaryReason)
            return x != y ? y : LibraryFolders.bytesPrecede(a.path, b.path)
        }
        return true
    }

    /// Told each folder as it is entered by a scan of the library (the service watches it).
    package var watchEntering: Entering?

    /// The known folders directly below `folder`.
    private func children(of folder: String) -> [String] {
        let me = PathKey(folder)
        return held.keys.filter { PathKey(PathKey.parent($0.path)) == me && $0 != me }.map(\.path)
    }

    /// Drops `folder` and everything below it.
    private func dropTree(_ folder: String) {
        for f in Array(held.keys) where f.isWithin(folder) {
            held.drop(f)
            skipped.removeValue(forKey: f)
            links.drop(f)
            dropped?(f.path)
        }
    }
}
