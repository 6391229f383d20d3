import Foundation
import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

/// Observes a folder and reports settled change sets and new suggestions.
///
/// inotify only wakes the watcher; what changed is decided by diffing snapshots of the folder
/// (path → size, mtime, ctime, inode, device), so bursts, renames, lost events (queue overflow)
/// and sub-folders created after the start all come out exact. A file is reported once it is
/// complete: closed after its last write, moved in, or unchanged for `settleTime`; until then
/// it is held back and looked at again, never lost. The snapshot taken at the start is the
/// "before" state. Without inotify (or past its watch limit) the watcher polls.
public final class DirectoryWatcher: Sendable {
    /// How to watch: inotify or polling, settle and debounce times, suggestions.
    public struct Options: Sendable {
        /// Poll at this interval instead of using inotify (`--poll`).
        public var pollInterval: Duration?
        /// A file unchanged for this long counts as complete even without a close event.
        public var settleTime: Duration = .seconds(1)
        /// Events closer together than this are one batch (a burst keeps extending it). Short,
        /// because it is all of the latency between a photo's last write and its report.
        public var debounce: Duration = .milliseconds(15)
        /// The suggestion rules' settings; nil disables suggestions.
        public var suggestions: SuggestionSettings?
        /// The memory shared with `suggest`.
        public var statePath = Suggester.defaultStatePath()
        /// Paths below the folder to leave out, as for `suggest`.
        public var exclude: [String] = []
        /// Told the number of names the loop keeps bookkeeping for, after each look (tests of
        /// bounded memory count names, not bytes).
        package var tracked: (@Sendable (Int) -> Void)?
        /// Whose memory (`--profile`), as for `suggest`.
        public var profile = Suggester.defaultProfile
        /// At most this many inotify watches (one per folder); past it the watcher polls, as it
        /// does when the kernel's limit is reached. Nil: only the kernel's limit.
        public var maximumWatches: Int?

        /// `suggestions`: the rules' settings, or nil to report changes only.
        public init(suggestions: SuggestionSettings?) { self.suggestions = suggestions }
    }

    /// The folder as the caller wrote it (reported paths start with it).
    public let displayFolder: String
    /// Its canonical path.
    public let folder: String
    /// The options it was made with.
    public let options: Options
    private let memory: MemoryBox?

    /// Checks the folder (unreadable: `.unreadableFolder`, as `suggest`) and opens the memory.
    public init(folder displayFolder: String, options: Options) throws(SuggestError) {
        self.displayFolder =
            displayFolder.hasSuffix("/") && displayFolder.count > 1 ? String(displayFolder.dropLast()) : displayFolder
        self.options = options
        folder = try Suggester.checkedFolder(displayFolder)
        if options.suggestions != nil {
            do throws(StateFileError) {
                memory = MemoryBox(try SuggestionMemory(path: options.statePath))
            } catch {
                throw .state(error)
            }
        } else {
            memory = nil
        }
    }

    /// The events as an `AsyncSequence`; watching stops when the stream's consumer goes away.
    public func events() -> AsyncStream<WatchEvent> {
        let stop = StopFlag()
        return AsyncStream { continuation in
            continuation.onTermination = { _ in stop.set() }
            let thread = Thread {
                self.run(shouldStop: { stop.isSet }) { continuation.yield($0) }
                continuation.finish()
            }
            thread.start()
        }
    }

    /// Watches until `shouldStop` returns true (checked at least every 100 ms) or the folder
    /// disappears. Blocking; `deliver` is called on the calling thread.
    ///
    /// Work follows the change: only the folders inotify names are listed again (a new
    /// sub-folder is walked whole, as it may have been moved in with files); the whole tree is
    /// looked at again only after the kernel's queue overflowed, an event came on a descriptor
    /// that is not ours, or while polling.
    public func run(shouldStop: () -> Bool, deliver: (WatchEvent) -> Void) {
        var state = LoopState()
        let debounce = options.debounce.seconds
        var inotify: InotifySource?
        var pollingNote: String?
        if let interval = options.pollInterval {
            pollingNote = "polling every \(DurationText.describe(interval))"
        } else {
            // The root is watched before the first snapshot, so nothing that arrives after the
            // snapshot can go unnoticed.
            do throws(InotifySource.Failure) {
                let source = try InotifySource(root: folder, maximumWatches: options.maximumWatches)
                try source.watch("")
                inotify = source
            } catch {
                pollingNote = "\(error); polling every 1 s instead"
            }
        }
        guard let initial = snapshot() else {
            deliver(.folderGone)
            return
        }
        state.current = initial
        state.reported = initial.files
        if let source = inotify {
            do throws(InotifySource.Failure) {
                for f in initial.folders { try source.watch(f) }
            } catch {
                pollingNote = "\(error); polling every 1 s instead"
                inotify = nil
            }
            // Files created in sub-folders before their watch was added are found by one more
            // look, right away.
            state.fullRescan = true
            state.dirty = true
        }
        if let pollingNote { deliver(.note(pollingNote)) }
        deliver(.ready)
        let pollInterval = options.pollInterval?.seconds ?? 1
        var lastPoll = now()

        while !shouldStop() {
            var timeout = 100.0
            if state.dirty { timeout = min(timeout, max(0, debounce - (now() - state.lastEvent)) * 1000) }
            if let due = state.pendingCheck { timeout = min(timeout, max(0, due - now()) * 1000) }
            if let source = inotify {
                let events = source.wait(timeoutMilliseconds: Int32(timeout.rounded(.up)))
                let t = now()
                for e in events {
                    if e.rootGone {
                        // The root's own descriptor said so: check, then stop.
                        if (try? FileSystem.canonicalFolder(folder)) != folder {
                            deliver(.folderGone)
                            return
                        }
                        state.fullRescan = true
                    }
                    // Events are ordered by a counter, not the clock: a close and the next write
                    // can arrive in one batch.
                    state.sequence += 1
                    if e.overflowed { state.fullRescan = true }
                    if let f = e.folder {
                        state.dirtyFolders.insert(f)
                        if !e.name.isEmpty {
                            let rel = f.isEmpty ? e.name : f + "/" + e.name
                            if e.modified || e.created { state.modifiedAt[rel] = state.sequence }
                            if e.closedAfterWriting || e.movedIn { state.closedAt[rel] = state.sequence }
                        }
                    } else {
                        // A descriptor that is not ours (any more): look everywhere, never stop.
                        state.fullRescan = true
                    }
                    state.dirty = true
                    state.lastEvent = t
                }
            } else {
                Thread.sleep(forTimeInterval: min(timeout, 100) / 1000)
                if now() - lastPoll >= pollInterval {
                    lastPoll = now()
                    state.fullRescan = true
                    state.dirty = true
                    state.lastEvent = 0
                }
            }
            let t = now()
            let debounced = state.dirty && t - state.lastEvent >= debounce
            let pendingDue = state.pendingCheck.map { t >= $0 } ?? false
            guard debounced || pendingDue else { continue }
            var touched: Set<String> = []
            if state.fullRescan {
                guard let snap = snapshot() else {
                    deliver(.folderGone)
                    return
                }
                touched = Set(state.current.files.keys).union(snap.files.keys)
                state.current = snap
            } else if state.dirty {
                for f in state.dirtyFolders.sorted() { touched.formUnion(rescan(f, &state.current)) }
            }
            state.fullRescan = false
            state.dirtyFolders.removeAll()
            state.dirty = false
            if let source = inotify {
                for f in state.current.folders.subtracting(source.watchedFolders) {
                    do throws(InotifySource.Failure) {
                        try source.watch(f)
                    } catch {
                        deliver(.note("\(error); polling every 1 s instead"))
                        inotify = nil
                        break
                    }
                }
                for f in source.watchedFolders.subtracting(state.current.folders) where !f.isEmpty { source.forget(f) }
            }
            let (changes, candidates) = settle(touched, &state, at: t)
            // Changes first: a memory held by another process delays only the offer.
            if !changes.isEmpty { deliver(.changes(changes)) }
            switch suggest(candidates, at: t) {
            case .offered(let candidate, let age): deliver(.suggestion(candidate, ageSeconds: age))
            case .failed(let why): deliver(.error(why))
            case .none: break
            }
        }
    }

    struct LoopState {
        /// The tree as last looked at.
        var current = FolderSnapshot()
        /// What was reported (or there at the start): relative path → key.
        var reported: [String: FileKey] = [:]
        /// Seen but not yet complete: relative path → key at the last look.
        var pending: [String: FileKey] = [:]
        /// Files inspected and found not to be media: never reported, nor their removal.
        var notMedia: Set<String> = []
        /// Sequence number of the last write / close-after-write (or move in) event per file.
        var modifiedAt: [String: Int] = [:]
        var closedAt: [String: Int] = [:]
        var sequence = 0
        var dirty = false
        /// Folders inotify named since the last look, and whether the whole tree must be read.
        var dirtyFolders: Set<String> = []
        var fullRescan = false
        var lastEvent = 0.0
        var pendingCheck: Double?

        /// The names the loop keeps something for (bounded by the tree plus what is in flight).
        var trackedNames: Int { Set(modifiedAt.keys).union(closedAt.keys).union(pending.keys).union(notMedia).count }
    }

    /// Lists `folder` again (one level; a new sub-folder whole, a vanished one dropped);
    /// returns the paths whose entries may have changed.
    func rescan(_ folder: String, _ snap: inout FolderSnapshot) -> Set<String> {
        let walker = TreeWalker(policy: .library, exclude: options.exclude.compactMap(PathGlob.init))
        let dir = folder.isEmpty ? self.folder : self.folder + "/" + folder
        var files: [String: FileKey] = [:]
        var subfolders: [String] = []
        var readable = true
        walker.listOne(dir, relative: folder, root: self.folder) { event in
            switch event {
            case .files(_, let list):
                for entry in list where !TemporaryNames.isTemporary(FolderSnapshot.lastComponent(entry.relative)) {
                    files[entry.relative] = entry.facts.key
                }
            case .subfolder(_, let rel): subfolders.append(rel)
            case .skipped(_, _, .unreadableFolder): readable = false
            case .skipped, .folderDone: break
            }
        }
        guard readable else { return folder.isEmpty ? [] : snap.removeTree(folder) }
        var touched = snap.replaceFiles(in: folder, with: files)
        let now = Set(subfolders)
        let prefix = folder.isEmpty ? "" : folder + "/"
        for f in snap.folders where f.hasPrefix(prefix) && !f.dropFirst(prefix.count).contains("/") && !now.contains(f) {
            touched.formUnion(snap.removeTree(f))
        }
        for f in subfolders where !snap.folders.contains(f) {
            // New here (created, or moved in with what it holds): walked whole.
            walker.walkSubtree(self.folder + "/" + f, relative: f, root: self.folder) { event in
                switch event {
                case .files(_, let list):
                    for entry in list where !TemporaryNames.isTemporary(FolderSnapshot.lastComponent(entry.relative)) {
                        snap.add(entry.relative, entry.facts.key)
                        touched.insert(entry.relative)
                    }
                case .folderDone(let done): snap.folders.insert(done.relative)
                case .skipped, .subfolder: break
                }
            }
        }
        return touched
    }

    /// Decides for the touched paths (and those pending) what was inserted, removed or changed;
    /// moves complete files into the reported state; inspects them. Returns the change set and
    /// the suggestion candidates.
    func settle(_ touched: Set<String>, _ state: inout LoopState, at t: Double) -> (ChangeSet, [SuggestionCandidate]) {
        var changes = ChangeSet()
        var ready: [(rel: String, inserted: Bool)] = []
        for rel in touched.union(state.pending.keys).sorted() {
            let now = state.current.files[rel]
            let before = state.reported[rel]
            switch (before, now) {
            case (.some, nil):
                state.reported.removeValue(forKey: rel)
                if !state.notMedia.contains(rel) { changes.removed.append(path(rel)) }
                state.notMedia.remove(rel)
                state.pending.removeValue(forKey: rel)
            case (nil, nil):
                // Came and went before it settled: never reported, nothing kept for it.
                state.pending.removeValue(forKey: rel)
            case (let b?, let key?) where b.sameContent(as: key):
                state.reported[rel] = key  // ctime alone (chmod, a new link): not a change
                state.pending.removeValue(forKey: rel)
            case (let b, let key?):
                if isComplete(rel, key, state, at: t) {
                    ready.append((rel, b == nil))
                    state.reported[rel] = key
                    state.pending.removeValue(forKey: rel)
                } else {
                    state.pending[rel] = key
                }
            }
        }
        // Bookkeeping for names that are gone or settled is dropped: memory follows the tree,
        // not the names that ever came and went.
        for rel in ready.map(\.rel) {
            state.modifiedAt.removeValue(forKey: rel)
            state.closedAt.removeValue(forKey: rel)
        }
        for rel in Array(state.modifiedAt.keys) where state.current.files[rel] == nil {
            state.modifiedAt.removeValue(forKey: rel)
        }
        for rel in Array(state.closedAt.keys) where state.current.files[rel] == nil { state.closedAt.removeValue(forKey: rel) }
        state.pendingCheck = state.pending.isEmpty ? nil : t + options.settleTime.seconds / 2
        options.tracked?(state.trackedNames)

        let paths = ready.map { path($0.rel) }
        let assets = ParallelMap.run(paths.count) { i in FileInspector.inspect(path: paths[i]) }
        var candidates: [SuggestionCandidate] = []
        for (i, r) in ready.enumerated() {
            let asset = assets[i]
            // The filter of `inspect -r`: a file that was read and is no image or video is not news.
            if asset.error != nil, asset.format == .unknown, asset.fileSize != nil {
                state.notMedia.insert(r.rel)
                continue
            }
            state.notMedia.remove(r.rel)
            let file = ChangeSet.File(path: paths[i], asset: asset)
            if r.inserted { changes.inserted.append(file) } else { changes.changed.append(file) }
            if let key = state.current.files[r.rel] {
                candidates.append(SuggestionCandidate(asset, modified: key.modifiedSeconds))
            }
        }
        return (changes, candidates)
    }

    /// Closed (or moved in) after its last write, or unchanged since the last look and older
    /// than the settle time; never while empty (a browser creates the file empty and renames
    /// its download over it later).
    func isComplete(_ rel: String, _ key: FileKey, _ state: LoopState, at t: Double) -> Bool {
        guard key.size > 0 else { return false }
        if let closed = state.closedAt[rel], closed >= (state.modifiedAt[rel] ?? 0) { return true }
        let age = t - key.modifiedSeconds
        return state.pending[rel].map { $0.sameContent(as: key) } == true && age >= options.settleTime.seconds
    }

    enum SuggestionOutcome {
        case none
        case offered(SuggestionCandidate, Double)
        case failed(String)
    }

    /// The suggestion rules over newly settled files, with the memory of `suggest`. The offer is
    /// made only once it is recorded; a memory that cannot be read or written is an error event,
    /// never silence. Completeness was already decided by the watcher, so no settle time applies.
    func suggest(_ candidates: [SuggestionCandidate], at t: Double) -> SuggestionOutcome {
        guard var settings = options.suggestions, let memory = memory?.value, !candidates.isEmpty else { return .none }
        settings.settleTime = .zero
        let remembered: Double?
        do throws(StateFileError) {
            remembered = try memory.remembered(profile: options.profile)
        } catch {
            return .failed("no suggestion: the memory could not be read (\(error))")
        }
        let context = SuggestionContext(now: t, realNow: t, remembered: remembered, settings: settings)
        let decision = SuggestionEngine().decide(candidates, context: context)
        guard let s = decision.suggestion, let instant = decision.instant else { return .none }
        do throws(StateFileError) {
            try memory.advance(profile: options.profile, to: instant, offered: s.path, now: t)
        } catch {
            return .failed("no suggestion for \(s.path): the offer could not be recorded (\(error))")
        }
        return .offered(s, t - instant)
    }

    /// The folder now, without hidden or temporary files; nil when it is gone.
    func snapshot() -> FolderSnapshot? {
        guard (try? FileSystem.canonicalFolder(folder)) == folder else { return nil }
        var snap = FolderSnapshot()
        TreeWalker(policy: .library, exclude: options.exclude.compactMap(PathGlob.init)).walk(folder) { event in
            switch event {
            case .files(_, let files):
                for entry in files where !TemporaryNames.isTemporary(FolderSnapshot.lastComponent(entry.relative)) {
                    snap.add(entry.relative, entry.facts.key)
                }
            case .folderDone(let f):
                if !f.relative.isEmpty { snap.folders.insert(f.relative) }
            case .skipped, .subfolder:
                break
            }
        }
        return snap
    }

    func path(_ rel: String) -> String { displayFolder + "/" + rel }

    func now() -> Double { Date().timeIntervalSince1970 }
}

/// The memory connection, used only from the watching thread (hence `@unchecked`).
private final class MemoryBox: @unchecked Sendable {
    let value: SuggestionMemory
    init(_ value: SuggestionMemory) { self.value = value }
}
