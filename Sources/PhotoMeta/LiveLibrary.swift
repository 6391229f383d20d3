import Foundation
import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

/// The service's library: every served folder's candidates (paired, canonical paths), kept
/// exact as files change. Built by one `FolderScan`, then kept current folder by folder: a
/// folder inotify names is listed again (`FolderScan.relist`: unchanged files from the index,
/// changed ones parsed and written), a new sub-folder scanned whole, a vanished one dropped.
/// Nothing here reads the clock or decides (`decide` folds into a scan's engine).
package final class LiveLibrary {
    /// The served folders (canonical).
    package let roots: [String]
    /// Which folders the roots' walks enter, and so which the library answers for.
    let served: ServedRoots
    private let scan: FolderScan
    private var index: ScanIndex?
    /// The folders and their candidates.
    private var held: LibraryFolders
    /// Canonical folder path → the entries skipped in it (canonical paths).
    private var skipped: [PathKey: [Suggester.SkippedEntry]] = [:]
    /// The symbolic links followed, for answers about a sub-folder.
    private var links = FolderLinks()
    /// Folders to list again, and whether every folder must be; what rescans keep between looks.
    private var dirty: Set<PathKey> = []
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

    /// A look besides inotify's events (`RescanSchedule`; `.everyFile` too when events were
    /// lost): every folder listed again, or those `FolderTimes` names.
    package func rescan(_ look: RescanSchedule.Look) {
        everything = everything || look == .everyFile
        for f in folderTimes.toList(look, held.keys.map(\.path), path: { $0 }, digest: held.digest) { dirty.insert(PathKey(f)) }
    }

    /// True when a change has not been looked at yet.
    package var hasChanges: Bool { everything || !dirty.isEmpty || !replaced.isEmpty }

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
        for folder in dirty.map(\.path).sorted(by: { $0.utf8.count < $1.utf8.count })
        where served.root(of: folder) != nil && held.contains(folder) {
            relist(folder, summary: &summary, entering: entering)
        }
        dirty = []
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

    /// The decision of `suggest` over the folders of `request` (served, with the service's own
    /// excludes), paths as the client wrote them; nil when the library cannot answer exactly.
    package func decide(_ request: ServiceRequest, exclude: [String]) -> (SuggestionDecision, [SuggestReport.Skipped])? {
        guard let context = request.context, served.serves(request, exclude: exclude) else { return nil }
        // A check of what it returns: the offer (and the file pending) must still be the file
        // decided on. inotify cannot see a change made through a hard link from outside the
        // tree, or to the target of a link; such a file's folder is listed again, and the
        // decision made again (a few times at most).
        var answer = decideOnce(request, context)
        for _ in 0..<3 {
            let stale = [answer.offered, answer.pending].compactMap { $0 }.filter { !isCurrent($0) }
            guard !stale.isEmpty else { break }
            for c in stale { changed(PathKey.parent(c.path)) }
            refresh(entering: watchEntering)
            answer = decideOnce(request, context)
        }
        return (answer.decision, answer.skipped)
    }

    /// Told each folder as it is entered by a scan of the library (the service watches it).
    package var watchEntering: Entering?

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
        // One served root, no explanations (what a chat client asks): only the folders whose
        // span may reach the window are visited, newest first; the rest are counted.
        if request.folders.count == 1, let f = request.folders.first, !request.explain, served.isRoot(f.path),
            !roots.contains(where: {
                PathKey($0) != PathKey(f.path) && (PathKey($0).isWithin(f.path) || PathKey(f.path).isWithin($0))
            })
        {
            return decideRoot(f, context)
        }
        // A folder is the first asked folder's that holds it, once (a scan walks it once).
        var used = Set<PathKey>()
        for f in request.folders {
            let prefix = f.display.hasSuffix("/") ? String(f.display.dropLast()) : f.display
            // The set is needed only when asked folders may overlap.
            for key in held.inOrder() where key.isWithin(f.path) && (request.folders.count == 1 || used.insert(key).inserted) {
                let out = linksOut(of: f.path, in: key)
                // Most of a library is far outside the window: counted, not decided.
                if !request.explain, out.isEmpty, held.certainlyRejected(key, context) {
                    builder.addCertainlyRejected(held.count(in: key))
                    continue
                }
                let list = out.isEmpty ? held.candidates(in: key) : held.candidates(in: key).filter { out[$0.path] == nil }
                if !request.explain, held.certainlyRejected(key, context) {
                    builder.addCertainlyRejected(list.count)
                    continue
                }
                for link in request.explain ? out.keys.sorted() : [] {
                    let reason = TreeWalker.SkipReason.linkOutOfFolder.description
                    skippedEntries.append(SuggestReport.Skipped(path: prefix + link.dropFirst(f.path.count), reason: reason))
                }
                fold(list, asked: f, prefix: prefix, context, explain: request.explain, into: &builder, canonical: &canonical)
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

    /// `decideOnce` for one served root (no links out of itself) without explanations: only
    /// folders recency may let through are visited, newest first; the rest are counted.
    private func decideRoot(_ f: ServiceRequest.Folder, _ context: SuggestionContext) -> (
        decision: SuggestionDecision, skipped: [SuggestReport.Skipped], offered: SuggestionCandidate?,
        pending: SuggestionCandidate?
    ) {
        let prefix = f.display.hasSuffix("/") ? String(f.display.dropLast()) : f.display
        var canonical: [String: SuggestionCandidate] = [:]
        var builder = SuggestionEngine.DecisionBuilder(context: context, explain: false)
        let oldest = context.now - context.settings.within.seconds - CaptureDate.widestZoneOffset - 1
        var visited = 0
        for (latest, key) in held.datedNewestFirst() {
            guard latest >= oldest else { break }
            guard key.isWithin(f.path), !held.certainlyRejected(key, context) else { continue }
            let list = held.candidates(in: key)
            visited += list.count
            fold(list, asked: f, prefix: prefix, context, explain: false, into: &builder, canonical: &canonical)
        }
        builder.addCertainlyRejected(held.count(inRoot: f.path) - visited)
        let decision = builder.decision
        return (
            decision, [], decision.suggestion.flatMap { canonical[$0.path] }, decision.pending.flatMap { canonical[$0.path] }
        )
    }

    /// Folds `list` (canonical paths, in the asked `f`) into `builder`, paths as `prefix` writes
    /// them; without explanations, what recency certainly turns down is only counted.
    private func fold(
        _ list: [SuggestionCandidate], asked f: ServiceRequest.Folder, prefix: String, _ context: SuggestionContext,
        explain: Bool,
        into builder: inout SuggestionEngine.DecisionBuilder, canonical: inout [String: SuggestionCandidate]
    ) {
        for c in list {
            if !explain, RecencyRule.certainlyRejects(c, in: context) {
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
    }

    /// The newest `request.limit` of `request.kinds` in the request's folders, as `recent` lists
    /// them by a scan; nil when the library cannot answer exactly. Folders are taken newest
    /// span first, until the rest cannot reach the listing, whatever their zone.
    package func recent(_ request: ServiceRequest, exclude: [String]) -> [SuggestionCandidate]? {
        guard let zone = TimeZone(identifier: request.zone), served.serves(request, exclude: exclude) else { return nil }
        let kinds = Set(request.kinds.compactMap(MediaKind.init(rawValue:)))
        var selection = RecentSelection(limit: request.limit, kinds: kinds, zone: zone)
        var used = Set<PathKey>()
        for f in request.folders {
            let prefix = f.display.hasSuffix("/") ? String(f.display.dropLast()) : f.display
            // Folders without a dated file list nothing; the others newest first.
            for (latest, folder) in held.datedNewestFirst() where folder.isWithin(f.path) && used.insert(folder).inserted {
                if let cutoff = selection.cutoff, latest + CaptureDate.widestZoneOffset + 1 < cutoff { break }
                let out = linksOut(of: f.path, in: folder)
                for c in held.candidates(in: folder) where out[c.path] == nil {
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

    /// For an answer about `asked` (canonical): the links of `folder` a walk of `asked` would
    /// not follow. None for a root.
    private func linksOut(of asked: String, in folder: PathKey) -> [String: String] {
        served.isRoot(asked) ? [:] : links.leaving(asked, in: folder)
    }
}
