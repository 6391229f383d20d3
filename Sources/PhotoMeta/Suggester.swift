import Foundation
import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

/// The suggest use case: which photo the user probably wants to send now, from one folder, with
/// the memory of what was offered or dismissed (`suggest`, `dismiss`, `forget`).
///
/// Works folder by folder: each folder's files are listed, matched with their index rows,
/// parsed when new or changed (on all cores), paired (`LivePhotoPairing`) and folded into the
/// pure `SuggestionEngine`, so memory is bounded by the largest folder (plus the explanations
/// when `explain` is set), not by the library. The offer is recorded in the memory.
public struct Suggester: Sendable {
    /// What to decide and where the state lives.
    public struct Options: Sendable {
        /// The rules' settings (recency, screenshots, videos, zone).
        public var settings: SuggestionSettings
        /// Decide as if it were this instant (`--now`); nil means the real clock. Whether a
        /// file is still being written is judged on the real clock either way.
        public var now: Date?
        /// Where the memory lives (`--state`).
        public var statePath: String
        /// Paths below each folder to leave out (`--exclude`): `*`, `?` and `**` patterns; a
        /// pattern without `/` also matches a file or folder name at any depth.
        public var exclude: [String] = []
        /// Whose memory (`--profile`): one remembered instant per profile, for all folders.
        public var profile = Suggester.defaultProfile
        /// Where the index lives; nil runs without one (every file parsed).
        public var indexPath: String?
        /// False with `--peek`: decide, but record nothing.
        public var record = true
        /// Keep every rejection for `--explain` (memory then grows with the folder).
        public var explain = true
        /// How long `run` may wait for a file that is still being written (the decision's
        /// `pending`) to settle before it decides: what a chat app asks when `+` is pressed.
        /// Zero (the default) decides at once.
        public var wait: Duration = .zero
        /// Called after each folder with the number of files looked at so far (a progress
        /// display for long cold runs), from the calling thread.
        public var progress: (@Sendable (_ considered: Int) -> Void)?

        /// The defaults: memory at `defaultStatePath`, index at `defaultIndexPath`.
        public init(settings: SuggestionSettings) {
            self.settings = settings
            statePath = Suggester.defaultStatePath()
            indexPath = Suggester.defaultIndexPath()
        }
    }

    /// An entry of the folder that was not considered, and why.
    public struct SkippedEntry: Sendable, Equatable, Codable {
        /// The folder as given joined with the path below it.
        public var path: String
        /// Why it was not considered.
        public var reason: String
    }

    /// What `run(folder:)` decided, and what it met on the way.
    public struct Outcome: Sendable {
        /// The folders' canonical paths, in the order given.
        public var folders: [String]
        /// The suggestion (if any) and, with `explain`, why every other file was turned down.
        public var decision: SuggestionDecision
        /// Age of the suggestion at `now` (negative: captured slightly in the future).
        public var age: Duration?
        /// Entries not considered at all (hidden files are not listed), with the reason.
        public var skipped: [SkippedEntry]
        /// Files parsed in this run (the rest came from the index).
        public var parsed: Int
        /// Warnings for people (e.g. the index could not be used).
        public var notes: [String]
        /// The memory was updated.
        public var recorded: Bool
    }

    /// The options every run uses.
    public var options: Options

    /// A suggester with `options`.
    public init(options: Options) { self.options = options }

    /// `$XDG_STATE_HOME/photometa/state.sqlite3`, else `~/.local/state/photometa/state.sqlite3`.
    public static func defaultStatePath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        SuggestionMemory.defaultPath(environment: environment)
    }

    /// `$XDG_CACHE_HOME/photometa/index.sqlite3`, else `~/.cache/photometa/index.sqlite3`.
    public static func defaultIndexPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        AssetIndex.defaultPath(environment: environment)
    }

    /// The profile used when none is named.
    public static let defaultProfile = SuggestionMemory.defaultProfile

    /// Decides for one folder; see `run(folders:)`.
    public func run(folder: String) throws(SuggestError) -> Outcome {
        try run(folders: [folder])
    }

    /// Decides for `folders` together: one decision, one memory (the profile's). Reported paths
    /// are each folder as written joined with the path below it. A folder inside another given
    /// one is walked once. With `wait`, a pending file is looked at again (the index makes that
    /// cheap) until it is complete or the time is up.
    public func run(folders: [String]) throws(SuggestError) -> Outcome {
        let deadline = Date().addingTimeInterval(options.wait.seconds)
        while true {
            let outcome = try decide(folders: folders)
            guard let p = outcome.decision.pending else { return outcome }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return outcome }
            Thread.sleep(forTimeInterval: min(left, Double(p.retryAfterMilliseconds) / 1000))
        }
    }

    /// One decision, at once.
    func decide(folders displayFolders: [String]) throws(SuggestError) -> Outcome {
        let realNow = Date().timeIntervalSince1970
        let now = options.now?.timeIntervalSince1970 ?? realNow
        // The folders are checked before anything is opened, so an unreadable folder writes no state.
        var roots: [String] = []
        for f in displayFolders { roots.append(try Suggester.checkedFolder(f)) }
        // The memory is opened (and checked) before any work, so a bad state file is reported
        // at once; it is written only at the end.
        let memory: SuggestionMemory
        let remembered: Double?
        // Without recording (--peek, or a caller that records once the offer is shown) the
        // memory is only read: nothing is created or written.
        do throws(StateFileError) {
            memory = try SuggestionMemory(path: options.statePath, readOnly: !options.record)
            remembered = try memory.remembered(profile: options.profile)
        } catch {
            throw .state(error)
        }
        var notes: [String] = []
        var index: AssetIndex?
        var writer: IndexWriter?
        if let indexPath = options.indexPath {
            do throws(StateFileError) {
                (index, writer) = try Suggester.openIndex(indexPath, notes: &notes)
            } catch {
                notes.append("index not used (\(error)); every file is parsed")
                index = nil
            }
        }
        let context = SuggestionContext(now: now, realNow: realNow, remembered: remembered, settings: options.settings)
        var builder = SuggestionEngine.DecisionBuilder(context: context, explain: options.explain)
        var parsedCount = 0
        var considered = 0
        var walked: [String] = []
        var skipped: [SkippedEntry] = []
        var prefix = ""
        var pendingRows: [IndexWriter.Row] = []
        var pendingGone: [(folder: String, path: String)] = []

        func flushIndex() {
            guard let writer, !pendingRows.isEmpty || !pendingGone.isEmpty else { return }
            writer.update(pendingRows, removing: pendingGone)
            pendingRows.removeAll(keepingCapacity: true)
            pendingGone.removeAll(keepingCapacity: true)
        }

        func fold(_ folder: TreeWalker.Folder) {
            let directory = folder.path
            let files = folder.files
            walked.append(directory)
            var cached: [String: (FileKey, SuggestionCandidate)] = [:]
            if let i = index {
                do throws(StateFileError) {
                    cached = try i.load(directory: directory)
                } catch {
                    notes.append("index not used (\(error)); every file is parsed")
                    index = nil
                }
            }
            var candidates = [SuggestionCandidate?](repeating: nil, count: files.count)
            var toParse: [Int] = []
            for (k, entry) in files.enumerated() {
                // Taken out of `cached` as it is used: what remains are rows of files that are gone.
                if let (key, c) = cached.removeValue(forKey: entry.path), key == entry.facts.key {
                    candidates[k] = c
                } else {
                    toParse.append(k)
                }
            }
            let parseList = toParse
            let parsed = ParallelMap.run(parseList.count) { j -> SuggestionCandidate in
                let entry = files[parseList[j]]
                let asset = FileInspector.inspect(path: entry.path, pairLivePhotos: false, facts: entry.facts)
                return SuggestionCandidate(asset, modified: entry.facts.key.modifiedSeconds)
            }
            for (j, k) in toParse.enumerated() {
                candidates[k] = parsed[j]
                if writer != nil { pendingRows.append((files[k].path, directory, files[k].facts.key, parsed[j])) }
            }
            parsedCount += toParse.count
            if writer != nil { pendingGone += cached.keys.map { (directory, $0) } }
            if pendingRows.count >= 2_000 { flushIndex() }

            var list: [SuggestionCandidate] = []
            list.reserveCapacity(candidates.count)
            for (k, c) in candidates.enumerated() {
                guard var c else { continue }
                c.path = prefix + files[k].relative
                list.append(c)
            }
            Suggester.pairLivePhotos(&list)
            for c in list { builder.add(c) }
            considered += list.count
            options.progress?(considered)
        }

        // One visited set for every folder: a folder given twice, or inside another given one,
        // is walked once (its files are not candidates twice).
        var visited = Set<TreeWalker.FolderID>()
        for (displayFolder, root) in zip(displayFolders, roots) {
            // Report paths as the user named the folder.
            prefix = displayFolder.hasSuffix("/") ? displayFolder : displayFolder + "/"
            let walkedBefore = walked.count
            TreeWalker(policy: .library, exclude: options.exclude.compactMap(PathGlob.init)).walk(root, visited: &visited) {
                event in
                switch event {
                case .files, .subfolder: break
                case .folderDone(let folder): fold(folder)
                case .skipped(_, let relative, let reason):
                    skipped.append(SkippedEntry(path: prefix + relative, reason: reason.description))
                }
            }
            flushIndex()
            // Only a folder that was walked here may have its vanished sub-folders cleaned.
            if let writer, walked.count > walkedBefore { writer.removeRows(under: root, outside: Array(walked[walkedBefore...])) }
        }
        if let writer { notes += writer.finish() }

        let decision = builder.decision
        var recorded = false
        if options.record, let s = decision.suggestion, let t = decision.instant {
            do throws(StateFileError) {
                try memory.advance(profile: options.profile, to: t, offered: s.path, now: realNow)
                recorded = true
            } catch {
                throw .state(error)
            }
        }
        return Outcome(
            folders: roots, decision: decision, age: decision.instant.flatMap { Duration(seconds: now - $0) },
            skipped: skipped, parsed: parsedCount, notes: notes, recorded: recorded)
    }

    /// Records the outcome's suggestion as offered, for a caller that ran with `record` false
    /// and records only once the offer was shown (the CLI does, so that an offer nobody saw,
    /// because stdout failed, is not remembered). Nothing happens when there is no suggestion.
    public func record(_ outcome: Outcome) throws(SuggestError) -> Outcome {
        guard let s = outcome.decision.suggestion, let t = outcome.decision.instant else { return outcome }
        do throws(StateFileError) {
            try SuggestionMemory(path: options.statePath).advance(
                profile: options.profile, to: t, offered: s.path, now: Date().timeIntervalSince1970)
        } catch {
            throw .state(error)
        }
        var recorded = outcome
        recorded.recorded = true
        return recorded
    }

    /// `dismiss`: everything captured up to `until` (default now) counts as seen by `profile`,
    /// in every folder. The folders, when given, are checked first (an unreadable one is an
    /// error and nothing is recorded). Returns the remembered instant (it only moves forward).
    public static func dismiss(
        folders: [String] = [], until: Date?, profile: String = defaultProfile, statePath: String
    ) throws(SuggestError) -> Date {
        for f in folders { _ = try checkedFolder(f) }
        let now = Date().timeIntervalSince1970
        do throws(StateFileError) {
            let t = try SuggestionMemory(path: statePath).advance(
                profile: profile, to: until?.timeIntervalSince1970 ?? now,
                offered: nil, now: now)
            return Date(timeIntervalSince1970: t)
        } catch {
            throw .state(error)
        }
    }

    /// `forget`: clears what `profile` was offered or dismissed (in every folder: the memory is
    /// the profile's). The folders, when given, are checked first. True when there was something
    /// to forget.
    public static func forget(folders: [String] = [], profile: String = defaultProfile, statePath: String) throws(SuggestError)
        -> Bool
    {
        for f in folders { _ = try checkedFolder(f) }
        do throws(StateFileError) {
            // Nothing to forget in a file that does not exist: do not create one.
            guard FileManager.default.fileExists(atPath: statePath) else { return false }
            return try SuggestionMemory(path: statePath).forget(profile: profile)
        } catch {
            throw .state(error)
        }
    }

    /// The index and its writer's connection. The index is a cache: one that is damaged, another
    /// program's or from a newer photometa is moved aside (named in a note) and built anew.
    static func openIndex(_ path: String, notes: inout [String]) throws(StateFileError) -> (AssetIndex, IndexWriter) {
        do throws(StateFileError) {
            return (try AssetIndex(path: path), IndexWriter(try AssetIndex(path: path)))
        } catch {
            switch error {
            case .notADatabase, .damaged, .foreign, .newerVersion: break
            default: throw error
            }
            let aside = path + ".broken"
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: aside + suffix)
                try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
            }
            notes.append("the index \(path) was damaged or not photometa's; moved to \(aside) and rebuilt")
            return (try AssetIndex(path: path), IndexWriter(try AssetIndex(path: path)))
        }
    }

    /// The folder's canonical path, once it is known to be a folder that can be listed.
    static func checkedFolder(_ folder: String) throws(SuggestError) -> String {
        do throws(SystemError) {
            return try FileSystem.canonicalFolder(folder)
        } catch {
            throw .unreadableFolder(path: folder, error: error)
        }
    }

    /// Applies `LivePhotoPairing` to a folder's candidates: both halves name each other, and
    /// the still becomes a Live Photo.
    static func pairLivePhotos(_ candidates: inout [SuggestionCandidate]) {
        let members = candidates.map {
            LivePhotoPairing.Member(
                path: $0.path, kind: $0.kind, contentIdentifier: $0.contentIdentifier, captured: $0.captured,
                durationSeconds: $0.durationSeconds)
        }
        for p in LivePhotoPairing.pairs(members) {
            candidates[p.still].livePhotoPair = candidates[p.movie].path
            candidates[p.still].livePhotoEvidence = p.evidence
            candidates[p.still].kind = .livePhoto
            candidates[p.movie].livePhotoPair = candidates[p.still].path
            candidates[p.movie].livePhotoEvidence = p.evidence
        }
    }
}

/// Why `suggest`, `dismiss`, `forget` or `watch` could not run.
public enum SuggestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The folder cannot be listed: missing, not a folder (`ENOTDIR`), or no permission
    /// (`error.isPermissionDenied`), the analogue of a denied photo-library permission.
    case unreadableFolder(path: String, error: SystemError)
    /// The state file (the memory) cannot be used; it was left untouched.
    case state(StateFileError)

    /// The message for people.
    public var description: String {
        switch self {
        case .unreadableFolder(let path, let e):
            return "cannot read \(path): \(e.errno == ENOTDIR ? "not a folder" : e.description)"
        case .state(let s): return s.description
        }
    }
}
