import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

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
        for root in roots {
            let prefix = root.display.hasSuffix("/") ? root.display : root.display + "/"
            var walked: [String] = []
            let handle: (TreeWalker.Event) -> Void = { event in
                switch event {
                case .files, .subfolder: break
                case .folderDone(let folder):
                    walked.append(folder.path)
                    switch candidates(folder, prefix: prefix, index: &index, summary: &summary, passOver: passOver) {
                    case .passedOver(let n):
                        summary.considered += n
                        counted(folder.path, n)
                    case .listed(let list):
                        summary.considered += list.count
                        visit(folder.path, list)
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
                guard case .listed(let list) = candidates(folder, prefix: prefix, index: &index, summary: &summary) else { break }
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

    /// What a folder yields: its candidates (paired), or only their count.
    private enum Yield {
        case listed([SuggestionCandidate])
        case passedOver(Int)
    }

    /// One folder's candidates, paired: from the index when a row's key matches, else parsed
    /// (on all cores) and queued for the index; rows of files that are gone are queued for
    /// removal, and the folder's summary when it changed. Passed over (see `run`) when the
    /// folder's digest matches its summary and `passOver` accepts the summary's span.
    private func candidates(
        _ folder: TreeWalker.Folder, prefix: String, index: inout ScanIndex?, summary: inout Summary,
        passOver: ((ClosedRange<Double>?) -> Bool)? = nil
    ) -> Yield {
        let files = folder.files
        let keys = SidecarKeys(folder)
        var digest = FolderDigest()
        var considered: [(position: Int, key: FileKey)] = []
        considered.reserveCapacity(files.count)
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
            considered.append((k, key))
        }
        let stored = index?.summary(of: folder.path)
        if let stored, stored.digest == digest.stored, let passOver, passOver(stored.span) {
            for (k, _) in considered { if let t = files[k].linkTarget { summary.links.append((prefix + files[k].relative, t)) } }
            return .passedOver(stored.files)
        }
        var cached = index?.rows(of: folder.path, notes: &summary.notes) ?? [:]
        var found = [SuggestionCandidate?](repeating: nil, count: files.count)
        var toParse: [Int] = []
        for (k, key) in considered {
            // Taken out of `cached` as it is used: what remains are rows of files that are gone.
            if let (known, c) = cached.removeValue(forKey: files[k].path), known == key {
                found[k] = c
            } else {
                toParse.append(k)
            }
        }
        let parseList = toParse
        let parsed = ParallelMap.run(parseList.count) { j -> SuggestionCandidate in
            let entry = files[parseList[j]]
            // The folder's listing says which sidecars exist (no open per candidate name).
            let asset = FileInspector.inspect(path: entry.path, pairLivePhotos: false, facts: entry.facts, folder: folder)
            return SuggestionCandidate(asset, modified: entry.facts.key.modifiedSeconds)
        }
        for (j, k) in toParse.enumerated() {
            found[k] = parsed[j]
            index?.queue((files[k].path, folder.path, keys.key(of: files[k]), parsed[j]))
        }
        summary.parsed += toParse.count
        index?.queueGone(folder.path, Array(cached.keys))
        var list: [SuggestionCandidate] = []
        list.reserveCapacity(found.count)
        for (k, c) in found.enumerated() {
            guard var c else { continue }
            c.path = prefix + files[k].relative
            if let target = files[k].linkTarget { summary.links.append((c.path, target)) }
            list.append(c)
        }
        LivePhotoPairing.apply(&list)
        let now = AssetIndex.FolderSummary(digest: digest.stored, files: list.count, span: RecencyRule.span(of: list))
        if now != stored { index?.queueSummary(folder.path, now) }
        return .listed(list)
    }
}

/// The index as one scan uses it: rows read per folder, writes batched (2,000 rows) on the
/// writer's connection, rows of vanished folders cleaned once a root was walked. A failure
/// makes it a note, and the scan parses every file instead.
package struct ScanIndex {
    private var index: AssetIndex
    private let writer: IndexWriter
    private var rows: [IndexWriter.Row] = []
    private var gone: [(folder: String, path: String)] = []
    private var summaries: [(folder: String, summary: AssetIndex.FolderSummary)] = []
    /// Reading the index failed: the scan goes on without it.
    private(set) var failed = false

    /// The index at `path`, or nil (with a note) when there is none or it cannot be used.
    package static func open(_ path: String?, notes: inout [String]) -> ScanIndex? {
        guard let path else { return nil }
        do throws(StateFileError) {
            let (index, writer) = try Suggester.openIndex(path, notes: &notes)
            return ScanIndex(index: index, writer: writer)
        } catch {
            notes.append("index not used (\(error)); every file is parsed")
            return nil
        }
    }

    private init(index: AssetIndex, writer: IndexWriter) {
        self.index = index
        self.writer = writer
    }

    /// The rows of `directory`'s files; empty once the index could not be read (said once in
    /// a note; the rows parsed are still written).
    mutating func rows(of directory: String, notes: inout [String]) -> [String: (FileKey, SuggestionCandidate)] {
        guard !failed else { return [:] }
        do throws(StateFileError) {
            return try index.load(directory: directory)
        } catch {
            notes.append("index not used (\(error)); every file is parsed")
            failed = true
            return [:]
        }
    }

    mutating func queue(_ row: IndexWriter.Row) {
        rows.append(row)
        if rows.count >= 2_000 { flush() }
    }

    mutating func queueGone(_ folder: String, _ paths: [String]) {
        gone += paths.map { (folder, $0) }
    }

    /// The folder's summary, written after its rows (queued before it).
    mutating func queueSummary(_ folder: String, _ summary: AssetIndex.FolderSummary) {
        summaries.append((folder, summary))
    }

    /// The summary of `directory`, if the index has one (nil also when it cannot be read).
    func summary(of directory: String) -> AssetIndex.FolderSummary? {
        guard !failed else { return nil }
        return try? index.summary(of: directory)
    }

    /// Once a root was walked: writes what is queued, and drops rows of its vanished
    /// sub-folders (only a folder walked here may have them cleaned).
    mutating func finishRoot(_ root: String, walked: [String]) {
        flush()
        if !walked.isEmpty { writer.removeRows(under: root, outside: walked) }
    }

    /// Ends the writes; notes for people.
    package func finish() -> [String] { writer.finish() }

    /// Writes what is queued.
    mutating func flush() {
        guard !rows.isEmpty || !gone.isEmpty || !summaries.isEmpty else { return }
        writer.update(rows, removing: gone, summaries: summaries)
        rows.removeAll(keepingCapacity: true)
        gone.removeAll(keepingCapacity: true)
        summaries.removeAll(keepingCapacity: true)
    }
}

/// A picture's key in the index with its sidecars folded in (`SidecarNames`): writing,
/// changing or removing a picture's XMP sidecar or Takeout JSON changes the key, so the picture
/// is read again, in `suggest`'s index and in the live library that lists the folder again when
/// inotify names it. The sidecars' times and identities are mixed into the stored change time,
/// which nothing else reads; a folder without sidecars keeps the files' own keys.
struct SidecarKeys {
    let byName: [String: FileKey]

    init(_ folder: TreeWalker.Folder) {
        var keys: [String: FileKey] = [:]
        if !folder.sidecarNames.isEmpty {
            for f in folder.files {
                let name = FolderSnapshot.lastComponent(f.path)
                if folder.sidecarNames.contains(name) { keys[name] = f.facts.key }
            }
        }
        byName = keys
    }

    func key(of file: TreeWalker.File) -> FileKey {
        var key = file.facts.key
        guard !byName.isEmpty else { return key }
        for candidate in SidecarNames.candidates(for: FolderSnapshot.lastComponent(file.path)) {
            guard let s = byName[candidate.name] else { continue }
            // Wrapping arithmetic: a mix, not a time (hostile times must not trap).
            key.ctimeNanoseconds =
                key.ctimeNanoseconds &* 1_000_003 &+ s.ctimeNanoseconds &+ s.mtimeNanoseconds &* 31
                &+ s.size &* 7 &+ s.inode
        }
        return key
    }
}
