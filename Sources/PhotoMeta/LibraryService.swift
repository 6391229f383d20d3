import Foundation
import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

/// `photometa serve`: the live library (`LiveLibrary`) kept current by inotify, announced in
/// the runtime folder, answering `ServiceRequest`s on a Unix socket (docs/service.md).
///
/// One thread does everything, in order: a request is answered only after the events queued
/// before it were read and the folders they name listed again, so an answer never lags the
/// folders. Liveness is the `ServiceLock` (a held `flock`, gone with the process), never the
/// registration file alone.
package final class LibraryService {
    /// Why the service cannot run.
    package enum Failure: Error, CustomStringConvertible {
        /// Another live `serve` has these folders.
        case alreadyServing(pid: Int32?)
        case runtimeFolder(String)
        case socket(String)
        /// A served folder disappeared.
        case folderGone(String)

        package var description: String {
            switch self {
            case .alreadyServing(let pid?): return "another photometa serve (pid \(pid)) serves these folders"
            case .alreadyServing(nil): return "another photometa serve serves these folders"
            case .runtimeFolder(let why): return why
            case .socket(let why): return why
            case .folderGone(let f): return "\(f) disappeared"
            }
        }
    }

    package let folders: [String]
    package let exclude: [String]
    let library: LiveLibrary
    private let clock: any WallClock
    /// Each served folder's inotify source, beside the folder it watches: a folder that could
    /// not be watched has none, so the two are never paired by position.
    var watches: [(root: String, source: InotifySource)] = []
    /// Clients connected whose request has not fully arrived, and until when they may take
    /// (100 ms): read as their bytes come, so one silent client holds no other.
    private var waiting: [(connection: UnixSocket, deadline: Double)] = []
    /// A watch could not be added (the kernel's limit): the library may miss changes, so it
    /// answers nothing (clients scan) rather than something stale.
    let watchFailure = WatchFailure()
    private var since = 0.0
    /// Called after each look at changed folders (the command gives the allocator's free pages
    /// back: a look at a large folder frees as much as it made).
    package var afterLook: (() -> Void)?
    /// Where `run` says things after the start (a folder it could not watch, and when it can again).
    var note: ((String) -> Void)?
    /// Set when the service stops: its `changes` subscribers' watchers stop with it.
    private let subscribers = StopFlag()
    var ready = false

    /// Whole looks besides inotify's events: every `rescanInterval` (`serve --rescan`), else
    /// every 30 s when a folder is on a network or FUSE file system (`RescanSchedule`).
    package var rescanInterval: Duration?
    /// Look at folders first, and at every file every this many looks, whatever the file
    /// system (tests); nil: as the file system allows (`RescanSchedule`).
    package var rescanWholeEvery: Int?
    private var rescans: RescanSchedule?
    /// Watches beyond this count fail as past the kernel's limit (tests; nil: only the
    /// kernel's `max_user_watches` applies), per served folder.
    package var maximumWatches: Int?
    /// The mount points in and above the folders (nil without `/proc`).
    private var mounts: MountWatch?

    /// `folders` canonical (checked by the caller).
    package init(folders: [String], exclude: [String], indexPath: String?, clock: any WallClock = SystemClock()) {
        self.folders = folders
        self.exclude = exclude
        library = LiveLibrary(roots: folders, exclude: exclude, indexPath: indexPath)
        self.clock = clock
    }

    /// Runs until `shouldStop` (checked whenever `wake` is readable, else at least every
    /// 250 ms): takes the lock, watches and scans the folders, announces itself, says
    /// `ready(files)`, then answers and follows changes. `runtime` nil: no clients can find it
    /// (it still keeps the index current).
    package func run(
        runtime: RuntimeFolder?, shouldStop: () -> Bool, wake: Int32? = nil, ready announce: (Int) -> Void,
        note: @escaping (String) -> Void
    ) throws(Failure) {
        var lock: ServiceLock?
        var listener: UnixSocketListener?
        var registration: String?
        let key = LibraryService.key(folders: folders, exclude: exclude)
        if let runtime {
            do throws(ServiceLock.Failure) {
                lock = try ServiceLock(path: runtime.file(key + ".lock"))
            } catch {
                if case .held(_, let pid) = error { throw .alreadyServing(pid: pid) }
                throw .runtimeFolder("\(error)")
            }
        }
        try startWatching()
        mounts = MountWatch(roots: folders)
        library.dropped = releaseWatch()
        library.watchEntering = watchEntering()
        library.populate(entering: watchEntering())
        try catchUp()
        for n in library.notes { note(n) }
        // Since the library is exact: the first rescan counts from here.
        since = clock.now()
        if let (schedule, said) = RescanSchedule.make(
            folders: folders.map { ($0, $0) }, asked: rescanInterval, wholeEvery: rescanWholeEvery, now: since)
        {
            rescans = schedule
            note(said)
        }
        if let runtime, lock != nil {
            (listener, registration) = try register(runtime, key: key)
        }
        defer { if let registration { FileSystem.remove(registration) } }
        ready = true
        announce(library.fileCount)
        if let failure = watchFailure.reason { note("\(failure); clients will scan") }
        _ = watchFailure.takeNew()
        self.note = note
        defer { subscribers.set() }
        try loop(listener: listener, shouldStop: shouldStop, wake: wake)
        _ = lock
    }

    /// Binds the socket and writes the registration (the lock is held).
    private func register(_ runtime: RuntimeFolder, key: String) throws(Failure) -> (UnixSocketListener, String) {
        let socketPath = runtime.file(key + ".sock")
        let listener: UnixSocketListener
        do throws(UnixSocket.Failure) {
            listener = try UnixSocketListener(path: socketPath)
        } catch {
            throw .socket("\(error)")
        }
        let path = runtime.file(key + ".json")
        let r = Registration(
            pid: ThisProcess.id, folders: folders, exclude: exclude, socket: socketPath, lock: runtime.file(key + ".lock"),
            since: clock.now())
        do throws(PrivateFiles.Problem) {
            let data = (try? JSONEncoder().encode(r)).map { [UInt8]($0) } ?? []
            try PrivateFiles.replaceAtomically(path, with: data)
        } catch {
            throw .runtimeFolder("\(error)")
        }
        return (listener, path)
    }

    /// Waits for events and clients; changes are looked at after a 15 ms debounce (at most
    /// 250 ms after the first event: `LookSchedule`), and always before a request is answered.
    private func loop(listener: UnixSocketListener?, shouldStop: () -> Bool, wake: Int32?) throws(Failure) {
        var schedule = LookSchedule(debounce: 0.015)
        while !shouldStop() {
            var fds = watches.map(\.source.fd) + waiting.map(\.connection.descriptorForPolling)
            if let listener { fds.append(listener.descriptorForPolling) }
            if let wake { fds.append(wake) }
            // Idle with a wake descriptor: no timeout at all (no CPU while nothing happens).
            var timeout = schedule.due.map { max(0, ($0 - clock.now()) * 1000) } ?? (wake == nil ? 250.0 : Double.infinity)
            if let first = waiting.map(\.deadline).min() { timeout = min(timeout, max(0, (first - clock.now()) * 1000)) }
            if let due = rescans?.due { timeout = min(timeout, max(0, (due - clock.now()) * 1000)) }
            let readable = Readiness.wait(
                fds, priority: mounts.map { [$0.descriptor] } ?? [],
                timeoutMilliseconds: timeout.isFinite ? Int32(timeout.rounded(.up)) : -1)
            if try takeEvents() { schedule.event(at: clock.now()) }
            if let mounts, readable.contains(mounts.descriptor), try mountsChanged(mounts) { schedule.event(at: clock.now()) }
            if let look = rescans?.look(at: clock.now()) {
                library.rescan(look)
                schedule.event(at: clock.now())
            }
            if schedule.isDue(at: clock.now()) {
                library.refresh(entering: watchEntering())
                afterLook?()
                tellWatchFailures()
                schedule.looked()
            }
            if let listener, readable.contains(listener.descriptorForPolling) {
                while let connection = try? listener.accept(timeoutMilliseconds: 0) {
                    waiting.append((connection, clock.now() + Double(ServiceClient.timeoutMilliseconds) / 1000))
                }
            }
            try serveWaiting()
        }
    }

    /// Answers each waiting client whose request line has arrived; drops one past its 100 ms
    /// or whose line is not a request (it gets no answer, and scans).
    private func serveWaiting() throws(Failure) {
        var still: [(connection: UnixSocket, deadline: Double)] = []
        for w in waiting {
            let line: String?
            do throws(UnixSocket.Failure) {
                line = try w.connection.receiveLine(timeoutMilliseconds: 0, maxBytes: 1 << 20)
            } catch .timedOut {
                if clock.now() < w.deadline { still.append(w) }
                continue
            } catch {
                continue  // closed mid-line, too long, not text: nothing to answer
            }
            guard let line, let request = try? JSONDecoder().decode(ServiceRequest.self, from: Data(line.utf8)) else { continue }
            try answer(request, on: w.connection)
        }
        waiting = still
    }

    /// Brings the library up to date and replies to `request`.
    private func answer(_ request: ServiceRequest, on connection: UnixSocket) throws(Failure) {
        try catchUp()
        var reply = ServiceReply(
            pid: ThisProcess.id, folders: folders, files: library.fileCount, since: since, ready: ready)
        reply.rescanEvery = rescans?.every
        reply.wholeRescanEvery = rescans.map { $0.every * Double($0.wholeEvery ?? 1) }
        reply.lastRescan = rescans?.last
        if request.operation == .status {
            // As a plain `suggest` of the folders would be answered (a hidden folder below a
            // served one is not held: it is scanned).
            if let why = watchFailure.reason {
                reply.refused = why
            } else if !library.served.serves(request, exclude: exclude) {
                reply.refused = "the request's folders or excludes are not this service's"
            }
            // Of the folders asked (a folder below a served one holds fewer).
            if !request.folders.isEmpty { reply.files = library.fileCount(in: request.folders.map(\.path)) }
        } else if request.operation == .suggest {
            if let why = watchFailure.reason {
                reply.refused = why
            } else if let (decision, skipped) = library.decide(request, exclude: exclude) {
                reply.decision = decision
                reply.skipped = skipped
            } else {
                reply.refused = "the request's folders or excludes are not this service's"
            }
        } else if request.operation == .changes {
            if let why = watchFailure.reason {
                reply.refused = why
            } else if library.served.serves(request, exclude: exclude) {
                ChangeSubscription.start(request, on: connection, reply: reply, stop: subscribers)
                return
            } else {
                reply.refused = "the request's folders or excludes are not this service's"
            }
        } else if request.operation == .recent {
            if let why = watchFailure.reason {
                reply.refused = why
            } else if let listing = library.recent(request, exclude: exclude) {
                reply.recent = listing
            } else {
                reply.refused = "the request's folders or excludes are not this service's"
            }
        }
        guard let data = try? JSONEncoder().encode(reply) else { return }
        try? connection.send(line: String(decoding: data, as: UTF8.self), timeoutMilliseconds: 1000)
    }

    /// Reads what inotify queued and looks at it now.
    private func catchUp() throws(Failure) {
        _ = try takeEvents()
        if library.hasChanges {
            library.refresh(entering: watchEntering())
            afterLook?()
        }
        tellWatchFailures()
    }

    /// Takes every queued event into the library's dirty set; true when there were any.
    private func takeEvents() throws(Failure) -> Bool {
        var any = false
        for (root, source) in watches {
            for e in source.wait(timeoutMilliseconds: 0) {
                any = true
                // The served folder moved or deleted: even if a folder of the same name is
                // there again, it is not the one watched. Stop (a user service restarts, and
                // starts clean) rather than answer for a folder no longer followed.
                if e.rootGone { throw .folderGone(root) }
                if e.overflowed || e.folder == nil {
                    library.rescan(.everyFile)
                } else if let f = e.folder {
                    let folder = f.isEmpty ? root : root + "/" + f
                    // A sub-folder's name changing touches no file of this folder: the
                    // sub-folder is dropped or scanned, not the folder listed again (a folder
                    // of 10,000 sub-folders took longer to list than a client waits).
                    if e.folderNameChanged {
                        library.folderNameChanged(folder + "/" + e.name)
                    } else if e.unmounted {
                        // A file system mounted on a sub-folder went: its watch went with it, and
                        // the name now leads to the folder the mount covered, scanned (and
                        // watched) anew.
                        library.folderNameChanged(folder)
                    } else {
                        library.changed(folder, name: e.name)
                    }
                }
            }
        }
        return any
    }

    /// A file system mounted or unmounted at a sub-folder: the folder there now is scanned (and
    /// watched) anew. One mounted over a served folder, or above it: the folder is gone, as for
    /// inotify's `rootGone`. True when the library has something to look at.
    private func mountsChanged(_ mounts: MountWatch) throws(Failure) -> Bool {
        let points = mounts.changed()
        for p in points {
            if let root = mounts.coveredRoot(p) { throw .folderGone(root) }
            library.folderNameChanged(p)
        }
        return !points.isEmpty
    }

}
