import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

/// The folder scan every library question starts from (`suggest`, `recent`, the live library):
/// walk the folders, match each folder's files with their index rows, parse what is new or
/// changed on all cores in runs (`Piece`), write the index in batches, pair Live Photos, and
/// hand each folder's candidates on as soon as they are ready: with `handsOnInParts` run by
/// run, so what a cold scan holds is a few runs, the largest folder's listing and its Live
/// Photo halves, not the library nor the largest folder's candidates. A folder inside another
/// given one is walked once.
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
    /// Hand a large folder on in runs of `pieceLength` files, `visit`ing it more than once (the
    /// last time with the rest): what the scan holds follows the run, not the folder (a phone's
    /// `DCIM/Camera`); only possible Live Photo halves wait for its end (`FolderPairing`). Off,
    /// each folder is visited once, whole (the live library keeps folders whole).
    package var handsOnInParts = false

    package init(exclude: [String], indexPath: String?) {
        self.exclude = exclude.compactMap(PathGlob.init)
        self.indexPath = indexPath
    }

    /// Scans `roots` in order; `visit` gets each folder's canonical path and candidates (paired,
    /// paths as the caller wrote the folder), on the calling thread: once a folder, or with
    /// `handsOnInParts` in parts, the folders one after the other.
    ///
    /// With `passOver`, a folder whose files are all as the index summarised them, and whose
    /// captures' span `passOver` is told and accepts, is handed to `counted` as the number of
    /// its candidates instead: no row is read, nothing paired (`suggest`, when recency
    /// certainly turns the whole folder down).
    package func run(
        _ roots: [Root], passOver: ((ClosedRange<Double>?) -> Bool)? = nil,
        counted: (_ folder: String, _ candidates: Int) -> Void = { _, _ in },
        visit: (_ folder: String, _ candidates: consuming [SuggestionCandidate]) -> Void
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
        visit: (_ folder: String, _ candidates: consuming [SuggestionCandidate]) -> Void
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
            // The pieces (folders, or runs of a large folder's files) whose new files are being
            // parsed while the walk lists the next ones, in the walk's order: on a warm library
            // the listing and the parsing each keep a core busy, so neither waits for the other
            // (docs/performance.md, "cold suggest and inspect"); with a few pieces in flight,
            // the end of one piece's parse (its last runs on one core) overlaps the next ones'.
            var pending: [Piece] = []
            var pairing = FolderPairing(movieNames: [], holdsAll: true)
            func drain(all: Bool) {
                while !pending.isEmpty {
                    // Parses start for the pieces in the window only: a folder of 20,000 new
                    // files is parsed run by run as it is handed on, not all at once.
                    for i in 0..<min(FolderScan.piecesInFlight, pending.count) where pending[i].job == nil {
                        pending[i].job = pending[i].startParse()
                    }
                    // Pieces are handed on in the walk's order: those at the front whose parse
                    // is over (or that had none), and the oldest while too many are waiting.
                    guard all || pending.count > FolderScan.piecesInFlight || pending[0].job?.isDone ?? true else { break }
                    let front = pending.removeFirst()
                    handOn(
                        front, parsed: front.job?.wait() ?? [], pairing: &pairing, prefix: prefix, index: &index,
                        summary: &summary, counted: counted, visit: visit)
                }
            }
            let handle: (TreeWalker.Event) -> Void = { event in
                switch event {
                case .files, .subfolder: break
                case .folderDone(let folder):
                    walked.append(folder.path)
                    let prepared = prepare(folder, prefix: prefix, index: &index, summary: &summary, passOver: passOver)
                    pending += Piece.pieces(of: prepared)
                    drain(all: false)
                case .skipped(_, let relative, let reason):
                    summary.skipped.append(Suggester.SkippedEntry(path: prefix + relative, reason: reason.description))
                }
            }
            if let top = root.subtreeOf, root.path.hasPrefix(top + "/") {
                walker.walkSubtree(root.path, relative: String(root.path.dropFirst(top.count + 1)), root: top, visit: handle)
            } else {
                walker.walk(root.path, visited: &visited, visit: handle)
            }
            drain(all: true)
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
                var pairing = FolderPairing(movieNames: [], holdsAll: true)
                var list: [SuggestionCandidate] = []
                for var piece in Piece.pieces(of: prepared) {
                    piece.job = piece.startParse()
                    handOn(
                        piece, parsed: piece.job?.wait() ?? [], pairing: &pairing, prefix: prefix, index: &index,
                        summary: &summary, parts: false, visit: { _, part in list = list.isEmpty ? part : list + part })
                }
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

    /// Pieces whose parse may run while the walk goes on: each holds its candidates until it
    /// is handed on, so a few, not all.
    static let piecesInFlight = 3

    /// The most new files one piece parses: a folder with more is parsed in runs of this many.
    static let pieceLength = 256

    /// The folder's files matched with its index rows (the rows of files that are gone are
    /// noted, to be removed), or the folder passed over when its
    /// digest matches its summary and `passOver` accepts the summary's span. Temporary names
    /// are skipped here, in the walk's order.
    func prepare(
        _ folder: TreeWalker.Folder, prefix: String, index: inout ScanIndex?, summary: inout Summary,
        passOver: ((ClosedRange<Double>?) -> Bool)? = nil
    ) -> Prepared {
        let files = folder.files
        let keys = SidecarKeys(folder)
        var digest = FolderDigest()
        var considered: [Int] = []
        var movieNames: [Int] = []
        considered.reserveCapacity(files.count)
        for (k, entry) in files.enumerated() {
            // The name: what follows the last `/` (an ASCII byte, so a character boundary).
            let path = entry.path
            let name = path[(path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path.utf8.index(after: $0) } ?? path.startIndex)...]
            if TemporaryNames.isTemporary(name) {
                summary.skipped.append(
                    Suggester.SkippedEntry(path: prefix + entry.relative, reason: FolderScan.temporaryReason))
                continue
            }
            digest.add(name: name.utf8, key: keys.key(of: entry))
            considered.append(k)
            if LivePhotoPairing.isMovieName(path) { movieNames.append(k) }
        }
        let stored = index?.summary(of: folder.path)
        let prepared = Prepared(folder: folder, keys: keys, digest: digest, stored: stored)
        (prepared.considered, prepared.movieNames) = (considered, movieNames)
        if let stored, stored.digest == digest.stored, let passOver, passOver(stored.span) {
            prepared.passedOver = stored.files
            return prepared
        }
        let fresh = matchRows(prepared, index: &index, notes: &summary.notes)
        var others: [Int] = []
        for (j, k) in considered.enumerated() where fresh.isEmpty || !fresh[j] {
            if LivePhotoPairing.isMovieName(files[k].path) {
                prepared.toParse.append(k)
            } else {
                others.append(k)
            }
        }
        prepared.moviesToParse = prepared.toParse.count
        prepared.toParse += others
        return prepared
    }

    /// Takes into `prepared.found` the index rows that still describe their files (those of the
    /// files considered whose key is the row's), and into `gone` the rows of files no longer
    /// listed. Returns, for each file considered, whether it was found (empty: none was).
    /// The rows are matched as SQLite steps through them, not read whole first: what is kept is
    /// the rows that are used (a folder of 50,000 files is 14 MB of rows). The listing's places
    /// are keyed by the path's bytes: two names that differ only in Unicode normalization are
    /// two files on Linux (Swift's `String` equates them).
    private func matchRows(_ prepared: Prepared, index: inout ScanIndex?, notes: inout [String]) -> [Bool] {
        let (files, considered, keys) = (prepared.folder.files, prepared.considered, prepared.keys)
        var place: [PathKey: Int] = [:]  // listed path -> its place in `considered`
        var fresh: [Bool] = []
        var started = false
        let read =
            index?.forEachRow(of: prepared.folder.path, notes: &notes) { row in
                if !started {
                    // Room for the whole folder: a folder held whole takes its new files into
                    // the same array (`FolderPairing`), never grown by doubling.
                    started = true
                    place.reserveCapacity(considered.count)
                    for (j, k) in considered.enumerated() { place[PathKey(files[k].path)] = j }
                    fresh = [Bool](repeating: false, count: considered.count)
                    prepared.found.reserveCapacity(considered.count)
                    prepared.foundPositions.reserveCapacity(considered.count)
                }
                guard let j = place[PathKey(row.path)] else {
                    prepared.gone.append(row.path)
                    return
                }
                guard row.key == keys.key(of: files[considered[j]]), !fresh[j] else { return }
                fresh[j] = true
                // The listing's path, shared, not the row's copy of it (`handOn` keeps it when
                // the folder is reported as it is named).
                var candidate = row.candidate
                candidate.path = files[considered[j]].path
                prepared.found.append(candidate)
                prepared.foundPositions.append(considered[j])
            } ?? true
        guard read else {
            // The index failed part-way: every file is parsed, as without one.
            (prepared.found, prepared.foundPositions, prepared.gone) = ([], [], [])
            return []
        }
        // In the listing's order, as the walk lists them (SQLite's order is its own).
        FolderPairing.reorder(&prepared.found, by: prepared.foundPositions)
        prepared.foundPositions.sort()
        return fresh
    }

    /// Hands one piece on: a folder passed over to `counted`; else its candidates (the index's
    /// on the first piece, the parsed ones queued for the index) through the folder's
    /// `pairing`, to `visit` when they are ready (with `parts`) and with the rest of the folder
    /// on the last piece, which also queues the removal of the rows of files that are gone and
    /// the folder's summary when it changed.
    func handOn(
        _ piece: Piece, parsed: [SuggestionCandidate], pairing: inout FolderPairing, prefix: String,
        index: inout ScanIndex?, summary: inout Summary, parts: Bool? = nil,
        counted: (_ folder: String, _ candidates: Int) -> Void = { _, _ in },
        visit: (_ folder: String, _ candidates: consuming [SuggestionCandidate]) -> Void
    ) {
        let p = piece.prepared
        let files = p.folder.files
        if let n = p.passedOver {
            for k in p.considered { if let t = files[k].linkTarget { summary.links.append((prefix + files[k].relative, t)) } }
            summary.considered += n
            counted(p.folder.path, n)
            return
        }
        var part: [SuggestionCandidate] = []
        var partPositions: [Int] = []
        if piece.number == 0 {
            pairing = FolderPairing(
                movieNames: p.movieNames.map { prefix + files[$0].relative }, holdsAll: !(parts ?? handsOnInParts),
                expected: p.considered.count, developedShots: p.developedShots)
            index?.queueGone(p.folder.path, p.gone)
            swap(&part, &p.found)  // the rows are handed on, not copied
            swap(&partPositions, &p.foundPositions)
        }
        let positions = p.toParse[piece.range]
        for (j, k) in positions.enumerated() where j < parsed.count {
            index?.queue((files[k].path, p.folder.path, p.keys.key(of: files[k]), parsed[j]))
            part.append(parsed[j])
            partPositions.append(k)
        }
        summary.parsed += positions.count
        // Paths as the caller wrote the root; the listing's own (shared, not made again) when
        // that is the canonical path, as for the live library.
        let asListed = files.first.map { PathKey($0.path) == PathKey(prefix + $0.relative) } ?? false
        for (i, k) in partPositions.enumerated() {
            part[i].path = asListed ? files[k].path : prefix + files[k].relative
            if let target = files[k].linkTarget { summary.links.append((part[i].path, target)) }
        }
        let moviesParsed = piece.range.upperBound >= p.moviesToParse
        let ready = pairing.take(consume part, positions: partPositions, lastMovies: moviesParsed)
        if !ready.isEmpty {
            summary.considered += ready.count
            visit(p.folder.path, ready)
        }
        guard piece.isLast else { return }
        let rest = pairing.finish()
        summary.considered += rest.count
        visit(p.folder.path, consume rest)  // moved: a folder held whole is never copied
        let now = AssetIndex.FolderSummary(digest: p.digest.stored, files: pairing.count, span: pairing.span)
        if now != p.stored { index?.queueSummary(p.folder.path, now) }
    }
}
