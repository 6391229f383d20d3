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
        /// Events closer together than this are one batch.
        public var debounce: Duration = .milliseconds(50)
        /// The suggestion rules' settings; nil disables suggestions.
        public var suggestions: SuggestionSettings?
        /// The memory shared with `suggest`.
        public var statePath = Suggester.defaultStatePath()
        /// Paths below the folder to leave out, as for `suggest`.
        public var exclude: [String] = []
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
        state.reported = initial
        if let source = inotify {
            do throws(InotifySource.Failure) {
                for f in initial.folders { try source.watch(f) }
            } catch {
                pollingNote = "\(error); polling every 1 s instead"
                inotify = nil
            }
            // Files created in sub-folders before their watch was added are found by one more
            // look, right away.
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
                Thread.sleep(forTimeInterval: min(timeout, 100) / 1000)
                if now() - lastPoll >= pollInterval {
                    lastPoll = now()
                    state.dirty = true
                    state.lastEvent = 0
                }
            }
            let t = now()
            let debounced = state.dirty && t - state.lastEvent >= debounce
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
        var pending: [String: FileKey] = [:]
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
        state.pendingCheck = state.pending.isEmpty ? nil : t + options.settleTime.seconds / 2
        let paths = ready.map { path($0.0) }
        let assets = ParallelMap.run(paths.count) { i in FileInspector.inspect(path: paths[i]) }
        var candidates: [SuggestionCandidate] = []
        for (i, (rel, inserted)) in ready.enumerated() {
            let file = ChangeSet.File(path: paths[i], asset: assets[i])
            if inserted { changes.inserted.append(file) } else { changes.changed.append(file) }
            if let key = snap.files[rel] {
                candidates.append(SuggestionCandidate(assets[i], modified: key.modifiedSeconds))
            }
        }
        return (changes, suggest(candidates, at: t))
    }

    /// Closed (or moved in) after its last write and not empty, or unchanged since the last
    /// look and older than the settle time. (An empty file closed at once is usually a file
    /// created first and written next.)
    func isComplete(_ rel: String, _ key: FileKey, _ state: LoopState, at t: Double) -> Bool {
        if key.size > 0, let closed = state.closedAt[rel], closed >= (state.modifiedAt[rel] ?? 0) { return true }
        let age = t - key.modifiedSeconds
        return state.pending[rel] == key && age >= options.settleTime.seconds
    }

    /// The suggestion rules over newly settled files, with the memory of `suggest`; the offer is
    /// recorded. Completeness was already decided by the watcher, so no settle time applies.
    func suggest(_ candidates: [SuggestionCandidate], at t: Double) -> (SuggestionCandidate, Double)? {
        guard var settings = options.suggestions, let memory = memory?.value, !candidates.isEmpty else { return nil }
        settings.settleTime = .zero
        let remembered = try? memory.remembered(profile: options.profile)
        let context = SuggestionContext(now: t, realNow: t, remembered: remembered ?? nil, settings: settings)
        let decision = SuggestionEngine().decide(candidates, context: context)
        guard let s = decision.suggestion, let instant = decision.instant else { return nil }
        _ = try? memory.advance(profile: options.profile, to: instant, offered: s.path, now: t)
        return (s, t - instant)
    }

    /// The folder now, without hidden or temporary files; nil when it is gone.
    func snapshot() -> FolderSnapshot? {
        guard (try? FileSystem.canonicalFolder(folder)) == folder else { return nil }
        var snap = FolderSnapshot()
        TreeWalker(policy: .library, exclude: options.exclude.compactMap(PathGlob.init)).walk(folder) { event in
            switch event {
            case .files(_, let files):
                for entry in files {
                    let name = entry.relative.split(separator: "/").last.map(String.init) ?? entry.relative
                    guard !TemporaryNames.isTemporary(name) else { continue }
                    snap.files[entry.relative] = entry.facts.key
                }
            case .folderDone(let f):
                if !f.relative.isEmpty { snap.folders.insert(f.relative) }
            case .skipped:
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
