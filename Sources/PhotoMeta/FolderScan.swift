import Dispatch
import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem
import Synchronization

/// The folder scan every library question starts from (`suggest` today; the live library
/// next): walk the folders, match each folder's files with their index rows, parse what is new
/// or changed on all cores, write the index in batches, pair Live Photos, and hand each folder's
/// candidates on as soon as it is done. Memory is bounded by the largest folder, not the
/// library. A folder inside another given one is walked once.
package struct FolderScan {
    /// What the scan met besides the candidates.
    package struct Summary: Sendable {
        /// Entries not considered at all (hidden files are not listed), with the reason.
        package var skipped: [Suggester.SkippedEntry] = []
        /// Files parsed (the rest came from the index).
        package var parsed = 0
        /// Files handed on.
        package var considered = 0
        /// Warnings for people (the index could not be used...).
        package var notes: [String] = []
        /// The symbolic links followed (as reported, joined under the root's display) and their
        /// targets' canonical paths: what the live library needs to answer for one sub-folder
        /// exactly as a walk of it would (which follows no link out of it).
        package var links: [(path: String, target: String)] = []
    }

    /// A folder to scan: its canonical path, and the folder as the caller wrote it (reported
    /// paths start with it).
    package struct Root: Sendable {
        package var path: String
        package var display: String
        /// Set for a folder walked as a part of the tree of the root `subtreeOf` (canonical):
        /// links are judged against that root, and reported paths start with `display` (the
        /// root's), so the answer is the one a walk of the whole root gives.
        package var subtreeOf: String?
        package init(path: String, display: String, subtreeOf: String? = nil) {
            self.path = path
            self.display = display
            self.subtreeOf = subtreeOf
        }
    }

    /// Paths below each folder to leave out.
    package var exclude: [PathGlob]
    /// Where the index lives; nil: every file is parsed.
    package var indexPath: String?
    /// Enter sub-folders last name first (`TreeWalker.lastNamesFirst`): `recent` meets the
    /// newest folders first, so its cutoff lets it pass over the older ones. Each folder's
    /// files, and so its digest, are as any other scan's.
    package var lastNamesFirst = false

    package init(exclude: [String], indexPath: String?) {
        self.exclude = exclude.compactMap(PathGlob.init)
        self.indexPath = indexPath
    }

    /// Scans `roots` in order; `visit` gets each folder's canonical path and candidates (paired,
    /// paths as the caller wrote the folder), on the calling thread.
    ///
    /// With `passOver`, a folder whose files are all as the index summarised them, and whose
    /// captures' span `passOver` is told and accepts, is handed to `counted` as the number of
    /// its candidates instead: no row is read, nothing paired (`suggest`, when recency
    /// certainly turns the whole folder down).
    package func run(
        _ roots: [Root], passOver: ((ClosedRange<Double>?) -> Bool)? = nil,
        counted: (_ folder: String, _ candidates: Int) -> Void = { _, _ in },
        visit: (_ folder: String, _ candidates: [SuggestionCandidate]) -> Void
    ) -> Summary {
        var summary = Summary()
        var index = ScanIndex.open(indexPath, notes: &summary.notes)
        run(roots, index: &index, summary: &summary, passOver: passOver, counted: counted, visit: visit)
        if let index { summary.notes += index.finish() }
        return summary
    }

    /// `run` with an index the caller keeps open across scans (the service), and `entering`
    /// told each folder just before it is listed.
    package func run(
        _ roots: [Root], index: inout ScanIndex?, summary: inout Summary,
        entering: (@Sendable (_ path: String, _ relative: String) -> Void)? = nil,
        passOver: ((ClosedRange<Double>?) -> Bool)? = nil,
        counted: (_ folder: String, _ candidates: Int) -> Void = { _, _ in },
        visit: (_ folder: String, _ candidates: [SuggestionCandidate]) -> Void
    ) {
        // One visited set for every folder: a folder given twice, or inside another given one,
        // is walked once (its files are not candidates twice).
        var visited = Set<TreeWalker.FolderID>()
        var walker = TreeWalker(policy: .library, exclude: exclude)
        walker.entering = entering
        walker.parallelStat = true
        walker.lastNamesFirst = lastNamesFirst
        for root in roots {
            let prefix = root.display.hasSuffix("/") ? root.display : root.display + "/"
            var walked: [String] = []
            // The folders whose new files are being parsed while the walk lists the next ones,
            // in the walk's order: on a warm library the listing and the parsing each keep a
            // core busy, so neither waits for the other (docs/performance.md, "cold suggest and
            // inspect"); with a few folders in flight, the end of one folder's parse (its last
            // runs on one core) overlaps the next ones'.
            var pending: [(Prepared, ParseJob?)] = []
            func hand(_ prepared: Prepared, _ parsed: [SuggestionCandidate]) {
                switch finish(prepared, parsed: parsed, prefix: prefix, index: &index, summary: &summary) {
                case .passedOver(let n):
                    summary.considered += n
                    counted(prepared.folder.path, n)
                case .listed(let list):
                    summary.considered += list.count
                    visit(prepared.folder.path, list)
                }
            }
            let handle: (TreeWalker.Event) -> Void = { event in
                switch event {
                case .files, .subfolder: break
                case .folderDone(let folder):
                    walked.append(folder.path)
                    let prepared = prepare(folder, prefix: prefix, index: &index, summary: &summary, passOver: passOver)
                    let job = prepared.toParse.isEmpty ? nil : ParseJob(prepared)
                    pending.append((prepared, job))
                    // Folders are handed on in the walk's order: those at the front whose parse
                    // is over (or that had none), and the oldest while too many are in flight.
                    while let (front, frontJob) = pending.first,
                        pending.count > FolderScan.foldersInFlight || frontJob?.isDone ?? true
                    {
                        pending.removeFirst()
                        hand(front, frontJob?.wait() ?? [])
                    }
                case .skipped(_, let relative, let reason):
                    summary.skipped.append(Suggester.SkippedEntry(path: prefix + relative, reason: reason.description))
                }
            }
            if let top = root.subtreeOf, root.path.hasPrefix(top + "/") {
                walker.walkSubtree(root.path, relative: String(root.path.dropFirst(top.count + 1)), root: top, visit: handle)
            } else {
                walker.walk(root.path, visited: &visited, visit: handle)
            }
            for (last, job) in pending { hand(last, job?.wait() ?? []) }
            index?.finishRoot(root.path, walked: walked)
        }
    }

    /// One folder listed again, not its sub-folders (the service, when inotify names it): its
    /// candidates (paired; paths below `root` as `root.display` writes it), its sub-folders'
    /// paths, and the entries skipped in it. Nil when the folder cannot be listed any more.
    package func relist(
        _ dir: String, relative: String, root: Root, index: inout ScanIndex?, summary: inout Summary
    ) -> (candidates: [SuggestionCandidate], subfolders: [String])? {
        let prefix = root.display.hasSuffix("/") ? root.display : root.display + "/"
        var result: (candidates: [SuggestionCandidate], subfolders: [String])? = ([], [])
        TreeWalker(policy: .library, exclude: exclude).listOne(dir, relative: relative, root: root.path) { event in
            switch event {
            case .files: break
            case .subfolder(let path, let rel):
                // As the walker does: a folder below the depth limit is reported, not walked.
                if rel.split(separator: "/").count > TreeWalker.depthLimit {
                    summary.skipped.append(
                        Suggester.SkippedEntry(path: prefix + rel, reason: TreeWalker.SkipReason.tooDeep.description))
                } else {
                    result?.subfolders.append(path)
                }
            case .folderDone(let folder):
                let prepared = prepare(folder, prefix: prefix, index: &index, summary: &summary)
                let parsed = prepared.toParse.isEmpty ? [] : ParseJob(prepared).wait()
                guard case .listed(let list) = finish(prepared, parsed: parsed, prefix: prefix, index: &index, summary: &summary)
                else { break }
                summary.considered += list.count
                result?.candidates = list
            case .skipped(_, let rel, .unreadableFolder) where rel == relative || rel == dir: result = nil
            case .skipped(_, let rel, let reason):
                summary.skipped.append(Suggester.SkippedEntry(path: prefix + rel, reason: reason.description))
            }
        }
        index?.flush()
        return result
    }

    /// Why a file with a temporary name is not considered.
    static let temporaryReason = "a file in progress (temporary name: a download or an editor's)"

    /// Folders whose parse may run while the walk goes on: each holds its listing and its
    /// candidates until it is handed on, so a few, not all.
    static let foldersInFlight = 3

    /// What a folder yields: its candidates (paired), or only their count.
    private enum Yield {
        case listed([SuggestionCandidate])
        case passedOver(Int)
    }

    /// A folder matched with its index rows, before its new files are parsed.
    fileprivate struct Prepared: Sendable {
        let folder: TreeWalker.Folder
        let keys: SidecarKeys
        let digest: FolderDigest
        let stored: AssetIndex.FolderSummary?
        /// The positions in `folder.files` of the files considered (temporary names left out).
        var considered: [Int] = []
        /// Set when the folder is passed over (see `run`): its number of candidates.
        var passedOver: Int?
        /// Candidates from the index, by position; nil where a file is parsed or not considered.
        var found: [SuggestionCandidate?] = []
        /// Positions of the files to parse (new or changed).
        var toParse: [Int] = []
        /// Paths of index rows whose files are gone.
        var gone: [String] = []
    }

    /// The folder's files matched with its index rows (taken out of the index as they are
    /// used: what remains are rows of files that are gone), or the folder passed over when its
    /// digest matches its summary and `passOver` accepts the summary's span. Temporary names
    /// are skipped here, in the walk's order.
    private func prepare(
        _ folder: TreeWalker.Folder, prefix: String, index: inout ScanIndex?, summary: inout Summary,
        passOver: ((ClosedRange<Double>?) -> Bool)? = nil
    ) -> Prepared {
        let files = folder.files
        let keys = SidecarKeys(folder)
        var digest = FolderDigest()
        var considered: [Int] = []
        var fileKeys: [FileKey] = []
        considered.reserveCapacity(files.count)
        fileKeys.reserveCapacity(files.count)
        for (k, entry) in files.enumerated() {
            // The name: what follows the last `/` (an ASCII byte, so a character boundary).
            let rel = entry.relative
            let name = rel[(rel.utf8.lastIndex(of: UInt8(ascii: "/")).map { rel.utf8.index(after: $0) } ?? rel.startIndex)...]
            if TemporaryNames.isTemporary(name) {
                summary.skipped.append(
                    Suggester.SkippedEntry(path: prefix + entry.relative, reason: FolderScan.temporaryReason))
                continue
            }
            let key = keys.key(of: entry)
            digest.add(name: name.utf8, key: key)
            considered.append(k)
            fileKeys.append(key)
        }
        let stored = index?.summary(of: folder.path)
        var prepared = Prepared(folder: folder, keys: keys, digest: digest, stored: stored, considered: considered)
        if let stored, stored.digest == digest.stored, let passOver, passOver(stored.span) {
            prepared.passedOver = stored.files
            return prepared
        }
        var cached = index?.rows(of: folder.path, notes: &summary.notes) ?? [:]
        prepared.found = [SuggestionCandidate?](repeating: nil, count: files.count)
        for (k, key) in zip(considered, fileKeys) {
            if let (known, c) = cached.removeValue(forKey: files[k].path), known == key {
                prepared.found[k] = c
            } else {
                prepared.toParse.append(k)
            }
        }
        prepared.gone = Array(cached.keys)
        return prepared
    }

    /// The folder's candidates, paired: the parsed ones queued for the index, rows of files
    /// that are gone queued for removal, and the folder's summary when it changed.
    private func finish(
        _ p: Prepared, parsed: [SuggestionCandidate], prefix: String, index: inout ScanIndex?, summary: inout Summary
    ) -> Yield {
        let files = p.folder.files
        if let n = p.passedOver {
            for k in p.considered { if let t = files[k].linkTarget { summary.links.append((prefix + files[k].relative, t)) } }
            return .passedOver(n)
        }
        var found = p.found
        for (j, k) in p.toParse.enumerated() where j < parsed.count {
            found[k] = parsed[j]
            index?.queue((files[k].path, p.folder.path, p.keys.key(of: files[k]), parsed[j]))
        }
        summary.parsed += p.toParse.count
        index?.queueGone(p.folder.path, p.gone)
        var list: [SuggestionCandidate] = []
        list.reserveCapacity(found.count)
        for (k, c) in found.enumerated() {
            guard var c else { continue }
            c.path = prefix + files[k].relative
            if let target = files[k].linkTarget { summary.links.append((c.path, target)) }
            list.append(c)
        }
        LivePhotoPairing.apply(&list)
        let now = AssetIndex.FolderSummary(digest: p.digest.stored, files: list.count, span: RecencyRule.span(of: list))
        if now != p.stored { index?.queueSummary(p.folder.path, now) }
        return .listed(list)
    }
}

/// A folder's new files parsed on all cores in the background, while the scan goes on.
private final class ParseJob: @unchecked Sendable {
    static let runLength = 8
    private let done = DispatchGroup()
    /// Set by whoever starts the parse: a pool thread, or `wait` when none has yet.
    private let taken = Mutex(false)
    private let prepared: FolderScan.Prepared
    /// Written once by the parse before `done` is left; read after `wait`.
    private var parsed: [SuggestionCandidate] = []

    init(_ p: FolderScan.Prepared) {
        prepared = p
        done.enter()
        // photometa's pool, not libdispatch's: an idle `serve` wakes no thread (WorkerPool).
        WorkerPool.shared.async { self.parseUnlessTaken() }
    }

    /// Parses, unless another thread has started to. `wait` calls it too: a waiter may wait
    /// only for work it could do itself (`WorkerPool`), and the pool's threads may all be busy
    /// (a watch's inspections, a stalled disk) when the scan needs this folder.
    private func parseUnlessTaken() {
        let first = taken.withLock { t in
            defer { t = true }
            return !t
        }
        guard first else { return }
        let p = prepared
        let files = p.folder.files
        let toParse = p.toParse
        // Runs of files opened and prefetched together, as `inspect` does: a cold disk
        // answers many reads in flight faster than one after the other.
        let runs = (toParse.count + ParseJob.runLength - 1) / ParseJob.runLength
        parsed = ParallelMap.run(runs) { r -> [SuggestionCandidate] in
            let run = toParse[(r * ParseJob.runLength)..<min(toParse.count, (r + 1) * ParseJob.runLength)]
            var opened = FileByteSource.openedAhead(run.map { files[$0].facts.type == .regular ? files[$0].path : nil })
            return run.enumerated().map { i, k in
                let entry = files[k]
                let source = opened[i]
                opened[i] = nil  // closed once read
                // The folder's listing says which sidecars exist (no open per candidate name).
                let asset = FileInspector.inspect(
                    path: entry.path, pairLivePhotos: false, facts: entry.facts, folder: p.folder, opened: source)
                return SuggestionCandidate(asset, modified: entry.facts.key.modifiedSeconds)
            }
        }.flatMap { $0 }
        done.leave()
    }

    /// Whether the parse is over (`wait` would not wait).
    var isDone: Bool { done.wait(timeout: .now()) == .success }

    /// The candidates, in the order of `toParse`, once parsed (here, when no thread has
    /// started the parse yet).
    func wait() -> [SuggestionCandidate] {
        parseUnlessTaken()
        done.wait()
        return parsed
    }
}
