import Foundation

/// Observes a folder and reports settled change sets and new suggestions.
///
/// inotify only wakes the watcher; what changed is decided by diffing snapshots of the folder
/// (path → size, mtime, ctime, inode, device), so bursts, renames, lost events (queue overflow)
/// and sub-folders created after the start all come out exact. A file is reported once it is
/// complete: closed after its last write, moved in, or unchanged for `settleTime`; until then
/// it is held back and looked at again, never lost. The snapshot taken at the start is the
/// "before" state. Without inotify (or past its watch limit) the watcher polls.
public final class DirectoryWatcher: @unchecked Sendable {
    public struct Options: Sendable {
        /// Poll every this many seconds instead of using inotify (`--poll`).
        public var pollInterval: Double?
        /// A file unchanged for this long counts as complete even without a close event.
        public var settleTime: Double = 1
        /// Events closer together than this are one batch.
        public var debounce: Double = 0.05
        /// The suggestion rules' settings; nil disables suggestions.
        public var suggestions: SuggestionSettings? = SuggestionSettings()
        /// The memory shared with `suggest`.
        public var statePath = SuggestionMemory.defaultPath()
        /// At most this many inotify watches (one per folder); past it the watcher polls, as it
        /// does when the kernel's limit is reached. Nil: only the kernel's limit.
        public var maximumWatches: Int?

        public init() {}
    }

    public let displayFolder: String
    public let folder: String
    public let options: Options
    private let memory: SuggestionMemory?

    /// Checks the folder (unreadable: `.unreadableFolder`, as `suggest`) and opens the memory.
    public init(folder displayFolder: String, options: Options) throws(FolderSuggester.Failure) {
        self.displayFolder = displayFolder.hasSuffix("/") && displayFolder.count > 1 ? String(displayFolder.dropLast()) : displayFolder
        self.options = options
        do throws(FolderScanner.Unreadable) {
            folder = try FolderScanner().scan(displayFolder).folder
        } catch {
            throw .unreadableFolder(error)
        }
        if options.suggestions != nil {
            do throws(StateFile.Failure) {
                memory = try SuggestionMemory(path: options.statePath)
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
    public func run(shouldStop: () -> Bool, deliver: (WatchEvent) -> Void) {
        var state = LoopState()
        guard let initial = snapshot() else {
            deliver(.folderGone)
            return
        }
        state.reported = initial
        var inotify: InotifySource?
        if let interval = options.pollInterval {
            deliver(.note("polling every \(Duration.describe(interval))"))
        } else {
            do throws(InotifySource.Failure) {
                let source = try InotifySource(root: folder, maximumWatches: options.maximumWatches)
                try source.watch("")
                for f in initial.folders { try source.watch(f) }
                inotify = source
            } catch {
                deliver(.note("\(error); polling every 1 s instead"))
            }
        }
        let pollInterval = options.pollInterval ?? 1
        var lastPoll = now()

        while !shouldStop() {
            var timeout = 100.0
            if state.dirty { timeout = min(timeout, max(0, options.debounce - (now() - state.lastEvent)) * 1000) }
            if let due = state.pendingCheck { timeout = min(timeout, max(0, due - now()) * 1000) }
            if let source = inotify {
                let events = source.wait(timeoutMilliseconds: Int32(timeout.rounded(.up)))
                let t = now()
                for e in events {
                    if e.rootGone {
                        deliver(.folderGone)
                        return
                    }
                    // Events are ordered by a counter, not the clock: a close and the next write
                    // can arrive in one batch.
                    state.sequence += 1
                    let rel = e.folder.isEmpty ? e.name : (e.name.isEmpty ? e.folder : e.folder + "/" + e.name)
                    if e.modified || e.created { state.modifiedAt[rel] = state.sequence }
                    if e.closedAfterWriting || e.movedIn { state.closedAt[rel] = state.sequence }
                    state.dirty = true
                    state.lastEvent = t
                }
            } else {
                usleep(UInt32(min(timeout, 100) * 1000))
                if now() - lastPoll >= pollInterval {
                    lastPoll = now()
                    state.dirty = true
                    state.lastEvent = 0
                }
            }
            let t = now()
            let debounced = state.dirty && t - state.lastEvent >= options.debounce
            let pendingDue = state.pendingCheck.map { t >= $0 } ?? false
            guard debounced || pendingDue else { continue }
            guard let snap = snapshot() else {
                deliver(.folderGone)
                return
            }
            if let source = inotify {
                let current = Set(snap.folders)
                for f in current.subtracting(source.watchedFolders) {
                    do throws(InotifySource.Failure) {
                        try source.watch(f)
                    } catch {
                        deliver(.note("\(error); polling every 1 s instead"))
                        inotify = nil
                        break
                    }
                }
                for f in source.watchedFolders.subtracting(current) where !f.isEmpty { source.forget(f) }
            }
            state.dirty = false
            let (changes, suggestion) = settle(snap, &state, at: t)
            if !changes.isEmpty { deliver(.changes(changes)) }
            if let (candidate, age) = suggestion { deliver(.suggestion(candidate, ageSeconds: age)) }
        }
    }

    struct LoopState {
        var reported = FolderSnapshot()
        /// Seen but not yet complete: relative path → key at the last look.
        var pending: [String: AssetIndex.Key] = [:]
        /// Sequence number of the last write / close-after-write (or move in) event per file.
        var modifiedAt: [String: Int] = [:]
        var closedAt: [String: Int] = [:]
        var sequence = 0
        var dirty = false
        var lastEvent = 0.0
        var pendingCheck: Double?
    }

    /// Moves complete files from the new snapshot into the reported state and builds the
    /// change set; incomplete ones wait in `pending`.
    func settle(_ snap: FolderSnapshot, _ state: inout LoopState, at t: Double) -> (ChangeSet, (SuggestionCandidate, Double)?) {
        let diff = snap.diff(from: state.reported)
        var changes = ChangeSet()
        for rel in diff.removed {
            state.reported.files.removeValue(forKey: rel)
            changes.removed.append(path(rel))
        }
        // Pending files that vanished before completing were never reported: drop them.
        for rel in state.pending.keys where snap.files[rel] == nil { state.pending.removeValue(forKey: rel) }
        var ready: [(String, Bool)] = []
        for (rel, inserted) in diff.inserted.map({ ($0, true) }) + diff.changed.map({ ($0, false) }) {
            guard let key = snap.files[rel] else { continue }
            if isComplete(rel, key, state, at: t) {
                ready.append((rel, inserted))
                state.reported.files[rel] = key
                state.pending.removeValue(forKey: rel)
                state.modifiedAt.removeValue(forKey: rel)
                state.closedAt.removeValue(forKey: rel)
            } else {
                state.pending[rel] = key
            }
        }
        state.reported.folders = snap.folders
        state.pendingCheck = state.pending.isEmpty ? nil : t + options.settleTime / 2
        let paths = ready.map { path($0.0) }
        let assets = ParallelMap.run(paths.count) { i in MediaFileInspector.inspect(path: paths[i]) }
        var candidates: [SuggestionCandidate] = []
        for (i, (rel, inserted)) in ready.enumerated() {
            let file = ChangeSet.File(path: paths[i], asset: assets[i])
            if inserted { changes.inserted.append(file) } else { changes.changed.append(file) }
            if let key = snap.files[rel] {
                candidates.append(SuggestionCandidate(assets[i], modified: Double(key.mtimeNanoseconds) / 1e9))
            }
        }
        return (changes, suggest(candidates, at: t))
    }

    /// Closed (or moved in) after its last write and not empty, or unchanged since the last
    /// look and older than the settle time. (An empty file closed at once is usually a file
    /// created first and written next.)
    func isComplete(_ rel: String, _ key: AssetIndex.Key, _ state: LoopState, at t: Double) -> Bool {
        if key.size > 0, let closed = state.closedAt[rel], closed >= (state.modifiedAt[rel] ?? 0) { return true }
        let age = t - Double(key.mtimeNanoseconds) / 1e9
        return state.pending[rel] == key && age >= options.settleTime
    }

    /// The suggestion rules over newly settled files, with the memory of `suggest`; the offer is
    /// recorded. Completeness was already decided by the watcher, so no settle time applies.
    func suggest(_ candidates: [SuggestionCandidate], at t: Double) -> (SuggestionCandidate, Double)? {
        guard var settings = options.suggestions, let memory, !candidates.isEmpty else { return nil }
        settings.settleTime = 0
        let remembered = try? memory.remembered(folder: folder)
        let context = SuggestionContext(now: t, realNow: t, remembered: remembered ?? nil, settings: settings)
        let decision = SuggestionEngine().decide(candidates, context: context)
        guard let s = decision.suggestion, let instant = decision.instant else { return nil }
        _ = try? memory.advance(folder: folder, to: instant, offered: s.path, now: t)
        return (s, t - instant)
    }

    /// The folder now, without hidden or temporary files; nil when it is gone.
    func snapshot() -> FolderSnapshot? {
        guard let listing = try? FolderScanner().scan(folder), listing.folder == folder else { return nil }
        var snap = FolderSnapshot()
        for entry in listing.files {
            let name = entry.relative.split(separator: "/").last.map(String.init) ?? entry.relative
            guard !TemporaryNames.isTemporary(name) else { continue }
            snap.files[entry.relative] = AssetIndex.Key(entry.facts)
        }
        snap.folders = Set(listing.folders)
        return snap
    }

    func path(_ rel: String) -> String { displayFolder + "/" + rel }

    func now() -> Double { Date().timeIntervalSince1970 }
}

/// A flag set from another thread (a signal handler's queue, a stream's termination).
public final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    public init() {}
    public var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    public func set() { lock.lock(); value = true; lock.unlock() }
}
