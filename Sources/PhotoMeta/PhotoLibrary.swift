import Foundation
import PhotoMetaCore
import PhotoMetaSystem
import Synchronization

/// A photo library: one or more folders, asked the questions a chat app's photo picker asks.
/// `recent(limit:kinds:)` is the picker that opens after "+" (what `photometa recent` prints),
/// `suggestion()` the photo worth offering now (what `photometa suggest --peek` says, nothing
/// recorded), `changes()` the inserted, removed and changed files as they happen.
///
/// `recent(limit:kinds:)` and `suggestion()` are answered by a running `photometa serve` that
/// serves the folders, else by a scan (`FolderScan`, with the index that `suggest` keeps, so an
/// unchanged library is mostly stat'ed, not parsed), with the same answers; `changes()` follows
/// the service's watchers of the folders, else watches them in this process. Reported paths are
/// each folder as given joined with the path below it; a folder inside another given one is
/// listed once.
public struct PhotoLibrary: Sendable {
    /// What every question of the library shares.
    public struct Options: Sendable {
        /// The suggestion rules' settings; `settings.zone` is also the zone `recent` reads
        /// dates without an offset in.
        public var settings: SuggestionSettings
        /// Paths below each folder to leave out, as for `suggest` (`--exclude`).
        public var exclude: [String] = []
        /// Where the index lives (default `Suggester.defaultIndexPath()`); nil: every file is
        /// parsed on every question.
        public var indexPath: String? = Suggester.defaultIndexPath()
        /// Where the memory of offers lives, read by `suggestion()` (default
        /// `Suggester.defaultStatePath()`).
        public var statePath = Suggester.defaultStatePath()
        /// Whose memory `suggestion()` reads (default `Suggester.defaultProfile`).
        public var profile = Suggester.defaultProfile
        /// Called after each folder of a scan with the number of files looked at so far.
        public var progress: (@Sendable (_ considered: Int) -> Void)?
        /// The time `suggestion()` reads (tests move their own).
        package var clock: any WallClock = SystemClock()
        /// Ask a running `photometa serve` first (false: `--no-service`); where to find it.
        package var useService = true
        package var environment = ProcessEnvironment.current

        /// The zone for capture dates without an offset (the same as `settings.zone`).
        public var zone: TimeZone {
            get { settings.zone }
            set { settings.zone = newValue }
        }

        /// The defaults, with `zone` for dates without an offset (`.current` means "here").
        public init(zone: TimeZone) { settings = SuggestionSettings(zone: zone) }
    }

    /// The answer of `recent(limit:kinds:)`.
    public struct Recent: Sendable {
        /// The newest assets, newest first (equal instants by path), each as `inspect` reports it.
        public var assets: [MediaAsset]
        /// Warnings for people (the index could not be used, a file vanished while listed...).
        public var notes: [String]
        /// Entries not considered at all, with the reason.
        public var skipped: [Suggester.SkippedEntry]
        /// The pid of the `photometa serve` that listed them; nil when the folders were scanned.
        package var servicePid: Int32?
    }

    /// The kinds `recent` lists when none are asked for: photo, screenshot, livePhoto, gif.
    public static let stillKinds: Set<MediaKind> = RecentSelection.stillKinds
    /// The number of assets `recent` lists when no limit is given.
    public static let defaultLimit = 20

    /// The folders as the caller wrote them.
    public let folders: [String]
    /// The options every question uses.
    public let options: Options

    /// Opens `folders`, checking that each can be listed (`SuggestError.unreadableFolder`
    /// otherwise, as for `suggest`). Nothing is read yet.
    public init(folders: [String], options: Options) throws(SuggestError) {
        for f in folders { _ = try Suggester.checkedFolder(f) }
        self.folders = folders
        self.options = options
    }

    /// The newest `limit` assets by capture instant, newest first, equal instants by path
    /// bytes: `photometa recent`. The candidates are `suggest`'s (media only: images and
    /// videos, the movie of a Live Photo folded into its still, unreadable files left out),
    /// of `kinds` (videos only when `kinds` holds `.video`), with no recency window and no
    /// memory. Files without a capture date are left out; a file still being written is
    /// listed. Memory is bounded by `limit` and the largest folder, not the library.
    public func recent(limit: Int = defaultLimit, kinds: Set<MediaKind> = stillKinds) throws(SuggestError) -> Recent {
        var roots: [FolderScan.Root] = []
        for f in folders { roots.append(FolderScan.Root(path: try Suggester.checkedFolder(f), display: f)) }
        let candidates: [SuggestionCandidate]
        var notes: [String] = []
        var skipped: [Suggester.SkippedEntry] = []
        var servicePid: Int32?
        // A few more than asked: the same file under two names is listed once (`distinct`).
        let asked = limit > Int.max - Self.duplicateRoom ? limit : limit + Self.duplicateRoom
        if let (listing, pid) = askService(roots, limit: asked, kinds: kinds) {
            (candidates, servicePid) = (listing, pid)
        } else {
            let selection = RecentSelectionBox(RecentSelection(limit: asked, kinds: kinds, zone: options.zone))
            // A folder the index summarised, whose newest capture is older than the newest
            // `limit` found so far by more than any zone moves a date, cannot be listed: it is
            // counted, no row read (as the live library stops at the same bound).
            let passOver: (ClosedRange<Double>?) -> Bool = { span in
                guard let cutoff = selection.value.cutoff else { return false }
                return span.map { $0.upperBound + CaptureDate.widestZoneOffset + 1 < cutoff } ?? true
            }
            let progress = options.progress
            var folderScan = FolderScan(exclude: options.exclude, indexPath: options.indexPath)
            folderScan.lastNamesFirst = true
            folderScan.handsOnInParts = true  // the selection folds candidates one at a time
            let counted: (String, Int) -> Void = { _, n in
                selection.considered += n
                progress?(selection.considered)
            }
            let scan = folderScan.run(roots, passOver: passOver, counted: counted) { _, list in
                for c in list { selection.value.add(c) }
                selection.considered += list.count
                progress?(selection.considered)
            }
            candidates = selection.value.selected
            notes = scan.notes
            // The walk went last names first; the entries skipped are given in path order.
            skipped = scan.skipped.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        }
        let chosen = Array(Self.distinct(candidates).prefix(limit))
        // Only the chosen files are inspected in full, for their `inspect` rows.
        let pairing = PairingFolders()  // a folder's pairable files listed once for all chosen
        let inspected = ParallelMap.run(chosen.count) { i in
            FileInspector.inspect(path: chosen[i].path, pairLivePhotos: true, pairing: pairing)
        }
        var assets: [MediaAsset] = []
        for a in inspected {
            guard let e = a.error else {
                assets.append(a)
                continue
            }
            notes.append("\(a.path) could not be read once chosen (\(e)); left out")
        }
        var recent = Recent(assets: assets, notes: notes, skipped: skipped)
        recent.servicePid = servicePid
        return recent
    }

    /// How many more files `recent` chooses than it lists, for the names of one file.
    static let duplicateRoom = 16

    /// One row per file: a link to a photo of the library and the photo itself (or two hard
    /// links of one file) are one picture, listed once, by its own name rather than a link's
    /// (else its first name in the listing's order). Files that cannot be examined stay.
    static func distinct(_ chosen: [SuggestionCandidate]) -> [SuggestionCandidate] {
        struct Identity: Hashable {
            var device: UInt64
            var inode: UInt64
        }
        let identities = ParallelMap.run(chosen.count) { i -> (Identity, isLink: Bool)? in
            guard let target = try? FileFacts.of(chosen[i].path) else { return nil }
            let isLink = (try? FileFacts.of(chosen[i].path, followLinks: false))?.type == .symlink
            return (Identity(device: target.device, inode: target.inode), isLink)
        }
        var keep: [Identity: Int] = [:]
        for (i, found) in identities.enumerated() {
            guard let (id, isLink) = found else { continue }
            if let kept = keep[id], isLink || identities[kept]?.isLink == false { continue }
            keep[id] = i
        }
        return chosen.indices.filter { i in identities[i].map { keep[$0.0] == i } ?? true }.map { chosen[$0] }
    }

    /// The listing of a live service serving exactly these folders (`ServiceClient`); nil when
    /// none answers (the caller scans).
    private func askService(_ roots: [FolderScan.Root], limit: Int, kinds: Set<MediaKind>)
        -> ([SuggestionCandidate], Int32)?
    {
        guard options.useService else { return nil }
        let request = ServiceRequest(
            recent: roots.map { ServiceRequest.Folder(path: $0.path, display: $0.display) }, exclude: options.exclude,
            limit: limit, kinds: kinds, zone: options.zone)
        guard case .success(let reply) = ServiceClient.ask(request, environment: options.environment),
            let listing = reply.recent
        else { return nil }
        return (listing, reply.pid)
    }

    /// What `suggest` would offer now, without recording the offer (`suggest --peek`):
    /// `options.settings`' rules and the profile's memory, rejections not kept.
    public func suggestion() throws(SuggestError) -> Suggester.Outcome {
        var o = Suggester.Options(settings: options.settings)
        o.statePath = options.statePath
        o.profile = options.profile
        o.exclude = options.exclude
        o.indexPath = options.indexPath
        o.record = false
        o.explain = false
        o.progress = options.progress
        o.clock = options.clock
        return try Suggester(options: o).run(folders: folders)
    }

    /// The files inserted, removed and changed in the folders from now on, as settled change
    /// sets (`DirectoryWatcher`'s, one watcher per folder; a folder inside another given one
    /// is watched once). Returns once every folder is watched, so every change made after the
    /// call returns is reported. Every file is reported, media or not (`ChangeSet.File.asset`
    /// says what it is). Watching stops when the consumer lets go of the sequence. Backed by a
    /// running `photometa serve` that serves the folders (its watchers, the same sets; the
    /// sequence then ends if the service stops). Throws when a folder cannot be listed.
    public func changes() async throws(SuggestError) -> AsyncStream<ChangeSet> {
        try await changesWithSource().sets
    }

    /// `changes()`, and the pid of the `photometa serve` that watches for it (nil: watched in
    /// this process). A running service that serves the folders runs the same watchers and
    /// sends the settled sets' paths; the files are inspected here, as a watcher here would.
    package func changesWithSource() async throws(SuggestError) -> (sets: AsyncStream<ChangeSet>, servicePid: Int32?) {
        var watched: [(canonical: String, display: String)] = []
        for f in folders { watched.append((try Suggester.checkedFolder(f), f)) }
        if options.useService,
            let (connection, pid) = ServiceClient.subscribe(
                ServiceRequest(
                    changes: watched.map { ServiceRequest.Folder(path: $0.canonical, display: $0.display) },
                    exclude: options.exclude),
                environment: options.environment)
        {
            return (ServiceChanges.stream(connection, folders: watched), pid)
        }
        return (try await watchHere(watched), nil)
    }

    /// The change sets of `watched` from watchers in this process.
    private func watchHere(_ watched: [(canonical: String, display: String)]) async throws(SuggestError)
        -> AsyncStream<ChangeSet>
    {
        var seen = Set<String>()
        var watchers: [DirectoryWatcher] = []
        var options = DirectoryWatcher.Options(suggestions: nil)
        options.exclude = self.options.exclude
        options.clock = self.options.clock
        for w in watched where seen.insert(w.canonical).inserted {
            let inside = watched.contains { $0.canonical != w.canonical && w.canonical.hasPrefix($0.canonical + "/") }
            if !inside { watchers.append(try DirectoryWatcher(folder: w.display, options: options)) }
        }
        let all = watchers
        let ready = ReadyLatch(count: all.count)
        let stream = AsyncStream<ChangeSet> { continuation in
            let task = Task {
                await withTaskGroup(of: Void.self) { group in
                    for watcher in all {
                        group.addTask {
                            var arrived = false
                            for await event in watcher.events() {
                                switch event {
                                case .changes(let set): continuation.yield(set)
                                case .ready:
                                    arrived = true
                                    ready.arrive()
                                default: break
                                }
                            }
                            // A folder gone before it was watched must not keep the caller waiting.
                            if !arrived { ready.arrive() }
                        }
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        await ready.wait()
        return stream
    }
}

/// Counts watchers down to ready and wakes the one caller waiting for all of them.
final class ReadyLatch: Sendable {
    private let state: Mutex<(left: Int, waiter: CheckedContinuation<Void, Never>?)>

    init(count: Int) { state = Mutex((count, nil)) }

    /// One more is ready.
    func arrive() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.left -= 1
            guard s.left <= 0 else { return nil }
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume()
    }

    /// Returns once every one is ready.
    func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                guard s.left > 0 else { return true }
                s.waiter = c
                return false
            }
            if now { c.resume() }
        }
    }
}

/// The listing `recent` builds while a scan asks it for its cutoff (`FolderScan.run`'s
/// `passOver`): one value both closures reach.
final class RecentSelectionBox {
    var value: RecentSelection
    /// Files considered so far, listed or counted (for `Options.progress`).
    var considered = 0
    init(_ value: RecentSelection) { self.value = value }
}
