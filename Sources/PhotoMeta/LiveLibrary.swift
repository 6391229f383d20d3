import Foundation
import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

/// The service's library: every served folder's candidates (paired, canonical paths), kept
/// exact as files change. Built by one `FolderScan`, then kept current folder by folder: a
/// folder inotify names is listed again (`FolderScan.relist`: unchanged files from memory,
/// changed ones parsed, the index written), a new sub-folder is scanned whole, a vanished one
/// dropped. Nothing here reads the clock or decides; `decide` folds the candidates into the
/// same engine a scan uses.
package final class LiveLibrary {
    /// The served folders (canonical).
    package let roots: [String]
    private let scan: FolderScan
    private var index: ScanIndex?
    /// Canonical folder path → its candidates, paired (set through `store`, which keeps `spans`).
    /// Keyed by the path's bytes (`PathKey`): two folders whose names differ only in Unicode
    /// normalization are two folders on Linux, though Swift's `String` calls them equal.
    private var folders: [PathKey: [SuggestionCandidate]] = [:]
    /// `folders`' keys in byte order, kept until the set of folders changes: an answer walks
    /// them in order without sorting a million-file library's folders again.
    private var orderedFolders: [PathKey]?
    /// Canonical folder path → the earliest and latest capture of its files, zone ignored
    /// (`CaptureDate.secondsIgnoringUnknownZone`); nil for a folder without dated files. Lets
    /// an answer pass over a folder whose every file recency certainly turns down.
    private var spans: [PathKey: ClosedRange<Double>] = [:]
    /// Canonical folder path → the entries skipped in it (canonical paths).
    private var skipped: [PathKey: [Suggester.SkippedEntry]] = [:]
    /// The symbolic links followed, for answers about a sub-folder.
    private var links = FolderLinks()
    /// Folders to list again, and whether every folder must be.
    private var dirty: Set<PathKey> = []
    private var everything = false
    /// Names under which a folder came, went or was replaced: whatever was known there is
    /// dropped, and the folder now there (if any) scanned whole.
    private var replaced: Set<PathKey> = []
    /// Told each folder dropped from the library (the service releases its watch).
    package var dropped: ((String) -> Void)?
    /// Notes for people (the index could not be used...).
    package private(set) var notes: [String] = []

    package init(roots: [String], exclude: [String], indexPath: String?) {
        self.roots = roots
        scan = FolderScan(exclude: exclude, indexPath: indexPath)
    }

    deinit { if let index { _ = index.finish() } }

    /// How many candidates the library holds.
    package var fileCount: Int { folders.values.reduce(0) { $0 + $1.count } }

    /// The first scan; `entering` is told each folder before it is listed (the service watches
    /// it there).
    package func populate(entering: (@Sendable (_ path: String, _ relative: String) -> Void)?) {
        var summary = FolderScan.Summary()
        index = ScanIndex.open(scan.indexPath, notes: &summary.notes)
        folders = [:]
        orderedFolders = nil
        scan.run(roots.map { FolderScan.Root(path: $0, display: $0) }, index: &index, summary: &summary, entering: entering) {
            folder, list in store(folder, list)
        }
        skipped = Dictionary(grouping: summary.skipped) { PathKey(LiveLibrary.parent($0.path)) }
        links.removeAll()
        links.add(summary.links)
        notes += summary.notes
        index?.flush()
        dirty = []
        everything = false
    }

    /// A change inside `folder` (canonical) was seen: list it again before the next answer.
    package func changed(_ folder: String) { dirty.insert(PathKey(folder)) }

    /// A folder came, went or was replaced at `path` (canonical): removed and made again,
    /// renamed away or onto the name, swapped. Whatever was there is dropped, and the folder
    /// there now scanned whole; its parent's files are not touched (a name taken by a file is
    /// a change of the parent's, reported as such).
    package func folderNameChanged(_ path: String) {
        replaced.insert(PathKey(path))
    }

    /// Events were lost (the kernel's queue overflowed): look at every folder again.
    package func changedEverywhere() { everything = true }

    /// True when a change has not been looked at yet.
    package var hasChanges: Bool { everything || !dirty.isEmpty || !replaced.isEmpty }

    /// Looks again at what changed, so the library reflects the folders. `entering` as for
    /// `populate` (new sub-folders are watched before they are listed).
    package func refresh(entering: (@Sendable (_ path: String, _ relative: String) -> Void)?) {
        if everything {
            // Events were lost: everything is scanned again (the index makes it a stat walk),
            // in one pass rather than folder by folder.
            for f in folders.keys where !roots.contains(where: { PathKey($0) == f }) { dropped?(f.path) }
            populate(entering: entering)
            return
        }
        var summary = FolderScan.Summary()
        // Names whose folder changed: dropped first (their watches released), then the folder
        // now there, if any, scanned whole (and watched as it is entered).
        let names = replaced.map(\.path).sorted { $0.utf8.count < $1.utf8.count }
        replaced = []
        for path in names { dropTree(path) }
        for path in names
        where isServed(path) && folders[PathKey(LiveLibrary.parent(path))] != nil && folders[PathKey(path)] == nil {
            scanSubtree(path, summary: &summary, entering: entering)
        }
        // Parents before children: a folder dropped with its parent is not listed again.
        for folder in dirty.map(\.path).sorted(by: { $0.utf8.count < $1.utf8.count })
        where isServed(folder) && folders[PathKey(folder)] != nil {
            relist(folder, summary: &summary, entering: entering)
        }
        dirty = []
        notes += summary.notes
    }

    /// Scans the folder at `path` and everything below it (a folder new to the library), with
    /// links judged against its served root; watched as entered. Nothing when it is not a
    /// folder (any more), or lies deeper than the walker goes.
    private func scanSubtree(
        _ path: String, summary: inout FolderScan.Summary, entering: (@Sendable (_ path: String, _ relative: String) -> Void)?
    ) {
        guard let root = root(of: path), path != root else { return }
        guard let facts = try? FileFacts.of(path, followLinks: false), facts.type == .directory else { return }
        let depth = path.dropFirst(root.count + 1).split(separator: "/").count
        guard depth <= TreeWalker.depthLimit else { return }
        var visitedSummary = FolderScan.Summary()
        let subtree = FolderScan.Root(path: path, display: root, subtreeOf: root)
        scan.run([subtree], index: &index, summary: &visitedSummary, entering: entering) { p, list in store(p, list) }
        for (parent, entries) in Dictionary(grouping: visitedSummary.skipped, by: { PathKey(LiveLibrary.parent($0.path)) }) {
            skipped[parent, default: []] += entries
        }
        links.add(visitedSummary.links)
        summary.notes += visitedSummary.notes
    }

    private func relist(
        _ folder: String, summary: inout FolderScan.Summary,
        entering: (@Sendable (_ path: String, _ relative: String) -> Void)?
    ) {
        guard let root = root(of: folder) else { return }
        let relative = folder == root ? "" : String(folder.dropFirst(root.count + 1))
        let before = summary.skipped.count
        let linksBefore = summary.links.count
        let listed = scan.relist(
            folder, relative: relative, root: FolderScan.Root(path: root, display: root), index: &index, summary: &summary)
        guard let listed else {
            dropTree(folder)
            return
        }
        store(folder, listed.candidates)
        skipped[PathKey(folder)] = Array(summary.skipped[before...])
        links.drop(PathKey(folder))
        links.add(summary.links[linksBefore...])
        let present = Set(listed.subfolders)
        for known in children(of: folder) where !present.contains(known) { dropTree(known) }
        for sub in listed.subfolders where folders[PathKey(sub)] == nil {
            // New here (created, or moved in with what it holds): scanned whole.
            scanSubtree(sub, summary: &summary, entering: entering)
        }
    }

    /// The decision of `suggest` over the folders of `request` (each must be a served root,
    /// with the service's own excludes), paths as the client wrote them; nil with the reason
    /// when the library cannot answer exactly.
    package func decide(_ request: ServiceRequest, exclude: [String]) -> (SuggestionDecision, [SuggestReport.Skipped])? {
        guard let context = request.context, serves(request, exclude: exclude) else { return nil }
        // A check of what it returns: the offer (and the file pending) must still be the file
        // decided on. inotify cannot see a change made through a hard link from outside the
        // tree, or to the target of a link; such a file's folder is listed again, and the
        // decision made again (a few times at most).
        var answer = decideOnce(request, context)
        for _ in 0..<3 {
            let stale = [answer.offered, answer.pending].compactMap { $0 }.filter { !isCurrent($0) }
            guard !stale.isEmpty else { break }
            for c in stale { changed(LiveLibrary.parent(c.path)) }
            refresh(entering: watchEntering)
            answer = decideOnce(request, context)
        }
        return (answer.decision, answer.skipped)
    }

    /// Told each folder as it is entered by a scan of the library (the service watches it).
    package var watchEntering: (@Sendable (_ path: String, _ relative: String) -> Void)?

    /// The file at `c.path` (canonical) is still the one `c` was read from: a regular file of
    /// its size and modification time (links followed, as the walker follows them).
    private func isCurrent(_ c: SuggestionCandidate) -> Bool {
        guard let f = try? FileFacts.of(c.path), f.type == .regular else { return false }
        return f.size == c.size && f.key.modifiedSeconds == c.modified
    }

    /// One decision over the library as it is; the offer and the pending file are also given
    /// with their canonical paths (for `isCurrent`).
    private func decideOnce(_ request: ServiceRequest, _ context: SuggestionContext) -> (
        decision: SuggestionDecision, skipped: [SuggestReport.Skipped], offered: SuggestionCandidate?,
        pending: SuggestionCandidate?
    ) {
        var canonical: [String: SuggestionCandidate] = [:]
        var builder = SuggestionEngine.DecisionBuilder(context: context, explain: request.explain)
        var skippedEntries: [SuggestReport.Skipped] = []
        // A folder is the first asked folder's that holds it, once (a scan walks it once).
        var used = Set<PathKey>()
        for f in request.folders {
            let prefix = f.display.hasSuffix("/") ? String(f.display.dropLast()) : f.display
            // The set is needed only when asked folders may overlap.
            for key in sortedFolders() where key.isWithin(f.path) && (request.folders.count == 1 || used.insert(key).inserted) {
                let out = linksOut(of: f.path, in: key)
                let list = out.isEmpty ? folders[key] ?? [] : (folders[key] ?? []).filter { out[$0.path] == nil }
                // Most of a library is far outside the window: counted, not decided.
                if !request.explain, certainlyRejected(key, context) {
                    builder.addCertainlyRejected(list.count)
                    continue
                }
                for link in request.explain ? out.keys.sorted() : [] {
                    let reason = TreeWalker.SkipReason.linkOutOfFolder.description
                    skippedEntries.append(SuggestReport.Skipped(path: prefix + link.dropFirst(f.path.count), reason: reason))
                }
                for c in list {
                    if !request.explain, RecencyRule.certainlyRejects(c, in: context) {
                        builder.addCertainlyRejected(1)
                        continue
                    }
                    var shown = c
                    if prefix != f.path {
                        shown.path = prefix + c.path.dropFirst(f.path.count)
                        shown.livePhotoPair = c.livePhotoPair.map { prefix + $0.dropFirst(f.path.count) }
                    }
                    canonical[shown.path] = c
                    builder.add(shown)
                }
                // Skipped entries are reported with explanations only.
                for s in request.explain ? skipped[key] ?? [] : [] {
                    skippedEntries.append(SuggestReport.Skipped(path: prefix + s.path.dropFirst(f.path.count), reason: s.reason))
                }
            }
        }
        let decision = builder.decision
        return (
            decision, skippedEntries, decision.suggestion.flatMap { canonical[$0.path] },
            decision.pending.flatMap { canonical[$0.path] }
        )
    }

    /// The newest `request.limit` of `request.kinds` in the request's folders (each a served
    /// root, with the service's excludes), as `recent` lists them by a scan; nil when the
    /// library cannot answer exactly. Folders are taken newest span first, and the walk stops
    /// once the rest cannot reach the listing, whatever their zone.
    package func recent(_ request: ServiceRequest, exclude: [String]) -> [SuggestionCandidate]? {
        guard let zone = TimeZone(identifier: request.zone), serves(request, exclude: exclude) else { return nil }
        let kinds = Set(request.kinds.compactMap(MediaKind.init(rawValue:)))
        var selection = RecentSelection(limit: request.limit, kinds: kinds, zone: zone)
        var used = Set<PathKey>()
        for f in request.folders {
            let prefix = f.display.hasSuffix("/") ? String(f.display.dropLast()) : f.display
            let mine = folders.keys.filter { $0.isWithin(f.path) && used.insert($0).inserted }
            // Folders without a dated file list nothing.
            let dated = mine.compactMap { folder in spans[folder].map { (folder, $0) } }
                .sorted { $0.1.upperBound > $1.1.upperBound }
            for (folder, span) in dated {
                if let cutoff = selection.cutoff, span.upperBound + CaptureDate.widestZoneOffset + 1 < cutoff { break }
                let out = linksOut(of: f.path, in: folder)
                for c in folders[folder] ?? [] where out[c.path] == nil {
                    var shown = c
                    if prefix != f.path {
                        shown.path = prefix + c.path.dropFirst(f.path.count)
                        shown.livePhotoPair = c.livePhotoPair.map { prefix + $0.dropFirst(f.path.count) }
                    }
                    selection.add(shown)
                }
            }
        }
        return selection.selected
    }

    /// The folders in byte order (cached until they change).
    private func sortedFolders() -> [PathKey] {
        if let orderedFolders { return orderedFolders }
        let sorted = folders.keys.sorted { $0.precedes($1) }
        orderedFolders = sorted
        return sorted
    }

    /// The served root `folder` lies in.
    private func root(of folder: String) -> String? {
        roots.first { PathKey(folder).isWithin($0) }
    }

    private func isServed(_ folder: String) -> Bool { root(of: folder) != nil }

    /// The known folders directly below `folder`.
    private func children(of folder: String) -> [String] {
        let me = PathKey(folder)
        return folders.keys.filter { PathKey(LiveLibrary.parent($0.path)) == me && $0 != me }.map(\.path)
    }

    /// Drops `folder` and everything below it.
    private func dropTree(_ folder: String) {
        for f in Array(folders.keys) where f.isWithin(folder) {
            orderedFolders = nil
            folders.removeValue(forKey: f)
            spans.removeValue(forKey: f)
            skipped.removeValue(forKey: f)
            links.drop(f)
            dropped?(f.path)
        }
    }

    /// For an answer about `asked` (canonical): the links of `folder` a walk of `asked` would
    /// not follow. None for a root.
    private func linksOut(of asked: String, in folder: PathKey) -> [String: String] {
        roots.contains(asked) ? [:] : links.leaving(asked, in: folder)
    }

    /// The request's folders are served: each a root, or, when neither the service nor the
    /// request excludes anything (patterns are relative to the folder asked), a folder below one.
    private func serves(_ request: ServiceRequest, exclude: [String]) -> Bool {
        request.exclude == exclude
            && request.folders.allSatisfy { roots.contains($0.path) || (exclude.isEmpty && isServed($0.path)) }
    }

    private func store(_ folder: String, _ list: [SuggestionCandidate]) {
        let key = PathKey(folder)
        if folders[key] == nil { orderedFolders = nil }
        folders[key] = list
        spans[key] = RecencyRule.span(of: list)
    }

    /// True when recency certainly turns down every file of `folder` (`RecencyRule`'s bounds,
    /// widened by the widest zone offset, on its span): no file needs a decision.
    private func certainlyRejected(_ folder: PathKey, _ context: SuggestionContext) -> Bool {
        RecencyRule.certainlyRejects(span: spans[folder], in: context)
    }

    /// The path up to its last `/`.
    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
