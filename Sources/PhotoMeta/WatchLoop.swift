import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

/// One run of a `DirectoryWatcher`, in steps: start (watch, then take the "before" snapshot),
/// wait for events (inotify, or a poll), look again at what they name, settle
/// (`SettleTracker`), inspect, offer (`Offering`). Time comes from the watcher's clock.
///
/// Work follows the change: only the entries inotify names are looked at again, and a folder is
/// listed again only for an event on itself (`ChangedPlaces`; a new sub-folder is walked whole,
/// as it may have been moved in with files); the whole tree is looked at again only after the
/// kernel's queue overflowed, an event came on a descriptor that is not ours, or while polling.
final class WatchLoop {
    let watcher: DirectoryWatcher
    let deliver: (WatchEvent) -> Void
    let offerDelivered: () -> Bool  // did the offer just delivered reach anyone?
    private let wakes: [Int32]  // one is readable when `shouldStop` may say yes (`DirectoryWatcher.run`)
    private let clock: any WallClock
    private let walker: TreeWalker
    private var inotify: InotifySource?
    /// The tree as last looked at.
    private(set) var current = FolderSnapshot()
    private var tracker: SettleTracker
    /// Something happened since the last look (`changed`: where; `fullRescan`: read it all),
    /// and when to look (`LookSchedule`).
    private var schedule: LookSchedule
    private var changed = ChangedPlaces()
    private var fullRescan = false
    private var pendingCheck: Double?
    /// An offer put off until a file's times are still (`OfferDeferral`).
    let deferral = OfferDeferral()
    private var lastPoll = 0.0
    /// Looks besides inotify's events (`Options.rescanInterval`), and what they keep between
    /// them (`FolderTimes`).
    private var rescans: RescanSchedule?
    private var folderTimes = FolderTimes()
    /// The mount points in and above the folder (`MountWatch`), while inotify is used.
    private var mounts: MountWatch?

    init(
        _ watcher: DirectoryWatcher, deliver: @escaping (WatchEvent) -> Void, offerDelivered: @escaping () -> Bool,
        wakes: [Int32]
    ) {
        self.watcher = watcher
        self.deliver = deliver
        self.offerDelivered = offerDelivered
        self.wakes = wakes
        clock = watcher.options.clock
        var walker = TreeWalker(policy: .library, exclude: watcher.excludePatterns)
        // The snapshot keeps each file's key, never a folder's files together: a burst's
        // folder of 50,000 files is walked one run of files at a time.
        walker.streamsFiles = true
        self.walker = walker
        tracker = SettleTracker(initial: [:], settleTime: watcher.options.settleTime.seconds)
        schedule = LookSchedule(debounce: watcher.options.debounce.seconds)
    }

    private var folder: String { watcher.folder }

    /// Watches the root, takes the "before" snapshot, watches every folder, says `ready`.
    /// False when the folder is already gone (and `folderGone` was delivered).
    func start() -> Bool {
        var pollingNote: String?
        if let interval = watcher.options.pollInterval {
            pollingNote = "polling every \(DurationText.describe(interval))"
        } else {
            // The root is watched before the first snapshot, so nothing that arrives after the
            // snapshot can go unnoticed.
            do throws(InotifySource.Failure) {
                let source = try InotifySource(root: folder, maximumWatches: watcher.options.maximumWatches)
                try source.watch("")
                inotify = source
                mounts = MountWatch(roots: [folder])
            } catch {
                pollingNote = "\(error); polling every 1 s instead"
            }
        }
        // Every sub-folder is watched as the walker enters it, before it is listed, so the
        // snapshot is the "before" state and ready means ready (no second look at the tree,
        // which made the first change wait a second at 100,000 files).
        let failure = WatchFailure()
        guard let initial = snapshot(walking(failure: failure)) else {
            goneFolder()
            return false
        }
        current = initial
        tracker = SettleTracker(initial: initial.files, settleTime: watcher.options.settleTime.seconds)
        if inotify != nil, let why = failure.reason {
            pollingNote = "\(why); polling every 1 s instead"
            inotify = nil
        }
        if let pollingNote { deliver(.note(pollingNote)) }
        if inotify != nil, let (schedule, note) = RescanSchedule.make(for: watcher, now: clock.now()) {
            rescans = schedule
            deliver(.note(note))
        }
        deliver(.ready)
        lastPoll = clock.now()
        if let settings = watcher.options.suggestions, let offering = watcher.offering?.value,
            let standing = keeper.announce(
                watcher.root, exclude: watcher.excludePatterns, offering: offering, settings: settings, now: lastPoll)
        {
            deliver(standing)
        }
        return true
    }

    var keeper: OfferKeeper { watcher.options.keeper }

    /// Runs until `shouldStop` or the folder is gone.
    func run(shouldStop: () -> Bool) {
        while !shouldStop() {
            guard waitForChanges() else { return }
            let t = clock.now()
            tickOffer(at: t)
            let pendingDue = pendingCheck.map { t >= $0 } ?? false
            guard schedule.isDue(at: t) || pendingDue else { continue }
            guard look(at: t) else { return }
        }
    }

    /// Waits for events (until the next due time or a wake, else no timeout: an idle watch wakes
    /// no thread; at most 100 ms without wakes) and takes them in. False when the folder is gone.
    private func waitForChanges() -> Bool {
        let offerTick = watcher.options.suggestions.flatMap { keeper.nextTick(within: $0.within.seconds) }
        let rescan = inotify == nil ? nil : rescans?.due  // looked at only while inotify runs
        let due = [schedule.due, pendingCheck, rescan, offerTick].compactMap { $0 }.min()
        let idle = wakes.isEmpty || inotify == nil ? 100.0 : Double.infinity
        let timeout = min(idle, due.map { max(0, $0 - clock.now()) * 1000 } ?? .infinity)
        guard let source = inotify else {
            clock.sleep(seconds: min(timeout, 100) / 1000)
            if clock.now() - lastPoll >= watcher.options.pollInterval.map(\.seconds) ?? 1 {
                (lastPoll, fullRescan) = (clock.now(), true)
                schedule.lookNow()
            }
            return true
        }
        // At most a day (`Int32` milliseconds, whatever a clock set far off gives).
        let milliseconds = timeout.isFinite ? Int32(min(timeout.rounded(.up), 86_400_000)) : -1
        let mount = mounts.map { [$0.descriptor] } ?? []
        var readable: Set<Int32> = []
        if !wakes.isEmpty {
            readable = Readiness.wait([source.fd] + wakes, priority: mount, timeoutMilliseconds: milliseconds)
        }
        let events = source.wait(timeoutMilliseconds: wakes.isEmpty ? milliseconds : 0)
        // Without wakes (the library's watchers) the wait was inotify's: the mount table is asked.
        if wakes.isEmpty, !mount.isEmpty { readable = Readiness.wait([], priority: mount, timeoutMilliseconds: 0) }
        let t = clock.now()
        // A file system mounted or unmounted in the folder: looked at whole (inotify says nothing
        // of a mount over a watched folder); one mounted over the folder or above it: gone.
        if let mounts, readable.contains(mounts.descriptor) {
            let points = mounts.changed()
            if points.contains(where: { mounts.coveredRoot($0) != nil }) {
                goneFolder()
                return false
            }
            // The watches at and below each point are on the folders it covers or uncovers: the
            // whole look watches the folders there now as it enters them.
            for p in points {
                let rel = String(p.dropFirst(folder.count + 1))
                for f in source.watchedFolders where f == rel || f.hasPrefix(rel + "/") { source.forget(f, release: true) }
            }
            if !points.isEmpty { (fullRescan, schedule) = (true, schedule.after(t)) }
        }
        for e in events {
            if e.rootGone {
                // The root's own descriptor said so: check, then stop (unmounted: the path leads elsewhere).
                if e.unmounted || (try? FileSystem.canonicalFolder(folder)) != folder {
                    goneFolder()
                    return false
                }
                fullRescan = true
            }
            if e.overflowed { fullRescan = true }
            if let f = e.folder {
                changed.note(f, name: e.name)
                if !e.name.isEmpty {
                    let rel = f.isEmpty ? e.name : f + "/" + e.name
                    tracker.note(rel, written: e.modified || e.created, closed: e.closedAfterWriting || e.movedIn)
                }
            } else {
                // A descriptor that is not ours (any more): look everywhere, never stop.
                fullRescan = true
            }
            schedule.event(at: t)
        }
        if let look = rescans?.look(at: t) {
            for f in folderTimes.toList(look, in: current, root: folder) { changed.note(f, name: "") }
            fullRescan = fullRescan || look == .everyFile
            schedule.lookNow()
        }
        return true
    }

    /// Looks again where events said, settles, reports. False when the folder is gone.
    private func look(at t: Double) -> Bool {
        var touched: Set<String> = []
        let failure = WatchFailure()
        if fullRescan {
            // The tree as it was is the tracker's (every file of the last look is reported or
            // pending): the old snapshot goes before the new one is taken, so a rescan after a
            // burst never holds the tree twice.
            current = FolderSnapshot()
            guard let snap = snapshot(walking(failure: failure)) else {
                goneFolder()
                return false
            }
            touched = tracker.knownPaths.union(snap.files.keys)
            current = snap
        } else if schedule.dirty {
            touched = changed.look(&current, root: folder, walker: walking(failure: failure))
        }
        if inotify != nil, let why = failure.reason {
            deliver(.note("\(why); polling every 1 s instead"))
            inotify = nil
        }
        fullRescan = false
        changed = ChangedPlaces()
        schedule.looked()
        folderTimes.listed(digest: current.digest)
        touched.formUnion(followFolders())
        var settled = tracker.settle(touched, current: current.files, now: t)
        addPicturesSpokenFor(touched, to: &settled)
        pendingCheck = tracker.nextCheck(after: t)
        // A burst (50,000 files moved in at once) is inspected and reported in change sets of
        // at most `chunk` files, so its inspections are never all in memory at once; of its
        // candidates only the few an offer can pick (at most six) are kept, for one offer over the whole
        // batch (`SuggestionShortlist`: the memory is read after the changes are out).
        var shortlist = offerSettings.map {
            SuggestionShortlist(context: SuggestionContext(now: t, realNow: t, remembered: nil, settings: $0))
        }
        for part in settled.chunked(WatchLoop.chunk) {
            let (changes, found) = inspect(part)
            // What was put off about these files gives way to their state now (`OfferDeferral`).
            deferral.follow(changes)
            for c in found where !setAside(c, at: t) { shortlist?.add(c) }
            // Changes first: a memory held by another process delays only the offer.
            if !changes.isEmpty { deliver(.changes(changes)) }
            if let offering = watcher.offering?.value,
                let e = keeper.changed(changes, offering: offering, settings: offerSettings, canonical: watcher.canonical, now: t)
            {
                deliver(e)
            }
        }
        watcher.options.tracked?(tracker.trackedNames)
        offer(shortlist?.kept ?? [], at: t)
        pendingCheck = [pendingCheck, deferral.due].compactMap { $0 }.min()
        return true
    }

    /// The most files one change set holds.
    static let chunk = 256

    /// Files whose report changed though their own file did not, inspected again and reported
    /// changed: the pictures a sidecar (XMP, Takeout JSON) written, changed or removed speaks
    /// for (its date), each folder with touched sidecars looked at once; and the Live Photo
    /// partners of files that came or went (their kind and pair).
    private func addPicturesSpokenFor(_ touched: Set<String>, to settled: inout SettleTracker.Settled) {
        settled.addChanged(
            current.pictures(spokenForBy: touched, reported: tracker.isReported)
                + current.partners(of: settled.arrivedOrGone, reported: tracker.isReported))
    }

    /// Watches the folders that appeared, forgets those that went. Walks watch the folders
    /// they enter; one that was listed before it was watched (what was made in it between the
    /// two has no event) is listed again, whole (its new folders in turn, 8 rounds, then the
    /// next look rescans all). Returns the paths that changed.
    private func followFolders() -> Set<String> {
        guard let source = inotify else { return [] }
        var touched: Set<String> = []
        for _ in 0..<8 {
            let new = current.folders.subtracting(source.watchedFolders)
            if new.isEmpty { break }
            for f in new {
                do throws(InotifySource.Failure) {
                    try source.watch(f)
                } catch {
                    deliver(.note("\(error); polling every 1 s instead"))
                    inotify = nil
                    return touched
                }
            }
            for f in new.sorted() { touched.formUnion(current.relist(f, root: folder, walker: walker)) }
        }
        if !current.folders.subtracting(source.watchedFolders).isEmpty {
            fullRescan = true
            schedule.lookNow()
        }
        for f in source.watchedFolders.subtracting(current.folders) where !f.isEmpty { source.forget(f) }
        return touched
    }

    /// Inspects the settled files (on all cores): the change set and the offer's candidates. A file
    /// that is not media (`isNotMedia`) is no news; a renamed one is a move in the change set
    /// (the standing offer follows) and a candidate at its new name.
    private func inspect(_ settled: SettleTracker.Settled) -> (ChangeSet, [SuggestionCandidate]) {
        var changes = ChangeSet()
        changes.removed = settled.removed.map(path)
        let relative = settled.ready.map(\.path) + settled.moved.map(\.to)
        let paths = relative.map(path)
        let pairing = PairingFolders()  // a folder's pairable files read once a batch, not once a movie
        let assets = ParallelMap.run(paths.count) {
            FileInspector.inspect(path: paths[$0], pairLivePhotos: true, pairing: pairing)
        }
        var candidates: [SuggestionCandidate] = []
        for (i, rel) in relative.enumerated() {
            let asset = assets[i]
            // Gone since the look (made and deleted at once): a new file is no news, nor its removal.
            if i < settled.ready.count, asset.error == .system(.noSuchFile) {
                if settled.ready[i].inserted { tracker.inspected(rel, isMedia: false) }
                continue
            }
            tracker.inspected(rel, isMedia: !asset.isNotMedia && asset.error != .system(.noSuchFile))
            let file = ChangeSet.File(path: paths[i], asset: asset)
            if i >= settled.ready.count {
                let from = settled.moved[i - settled.ready.count].from
                // Renamed to a name that is not media (`x.jpg` to `x.jpg.bak`), or gone since: went.
                if asset.isNotMedia || asset.error == .system(.noSuchFile) {
                    changes.removed.append(path(from))
                } else {
                    changes.moved.append(.init(from: path(from), to: file))
                }
            } else if !asset.isNotMedia {
                if settled.ready[i].inserted { changes.inserted.append(file) } else { changes.changed.append(file) }
            }
            guard !asset.isNotMedia, asset.error != .system(.noSuchFile) else { continue }
            if i >= settled.ready.count, !WatchLoop.judgesRename(asset) { continue }
            if let key = current.files[rel] {
                candidates.append(SuggestionCandidate(asset, modified: key.modifiedSeconds))
            }
        }
        return (changes, candidates)
    }

    /// The folder now, without hidden or temporary files, walked by `walker`; nil when it is gone.
    private func snapshot(_ walker: TreeWalker) -> FolderSnapshot? {
        guard (try? FileSystem.canonicalFolder(folder)) == folder else { return nil }
        return FolderSnapshot.take(folder, walker: walker)
    }

    /// The walker, watching each folder it enters (before listing it) while inotify is used:
    /// a file made after its folder was listed raises an event, one made before is listed.
    private func walking(failure: WatchFailure) -> TreeWalker {
        inotify.map { walker.watching(InotifyBox($0), failure: failure) } ?? walker
    }

    private func path(_ rel: String) -> String { watcher.displayFolder + "/" + rel }
}
