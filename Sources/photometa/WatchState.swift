import PhotoMeta
import Synchronization

/// What the watchers of one `watch` command share: one printer at a time, which are ready,
/// and the folders that disappeared (the last of them stops the watch).
final class WatchState: Sendable {
    private struct Counts {
        /// The watchers that said `ready`, and those that ended with their folder gone.
        var ready: Set<ObjectIdentifier> = []
        var gone: [ObjectIdentifier: String] = [:]
        var goneOrder: [String] = []
        var readyShown = false
        var held: [WatchEvent] = []
    }
    private let counts = Mutex(Counts())
    private let printer = Mutex(())
    private let watchers: [DirectoryWatcher]
    /// Set when every folder is gone or stdout fails, so every watcher, asleep without a
    /// timeout, wakes and ends (its `shouldStop` says why).
    private let stop: StopFlag

    init(watchers: [DirectoryWatcher], stop: StopFlag) {
        self.watchers = watchers
        self.stop = stop
    }

    /// Ends the watch once a write to stdout has failed: nobody reads the events any more.
    func stopIfOutputFailed() {
        if Output.stdoutFailure != nil { stop.set() }
    }

    /// Runs `body` with no other watcher's event being printed.
    func serially(_ body: () -> Void) { printer.withLock { _ in body() } }

    /// Counts `watcher` ready; true when, with it, every watcher is ready or gone (`ready` is
    /// to be printed now, once).
    func ready(_ watcher: DirectoryWatcher) -> Bool {
        counts.withLock { c in
            c.ready.insert(ObjectIdentifier(watcher))
            return Self.takeAllReady(&c, of: watchers.count)
        }
    }

    /// `ready` was printed (every watcher ready or gone).
    var isReady: Bool { counts.withLock { $0.readyShown } }

    /// Keeps an event that came before every folder was ready.
    func hold(_ event: WatchEvent) { counts.withLock { $0.held.append(event) } }

    /// The events kept until ready, in order.
    func takeHeld() -> [WatchEvent] {
        counts.withLock { c in
            defer { c.held = [] }
            return c.held
        }
    }

    /// The folders that disappeared, in the order they did.
    var gone: [String] { counts.withLock { $0.goneOrder } }
    /// Every folder disappeared: the watch has stopped for that reason.
    var allGone: Bool { counts.withLock { $0.gone.count == watchers.count } }

    /// `watcher`'s folder disappeared (its watcher has ended): the folders still watched (none:
    /// the watch stops), and whether `ready` is due now (the others were waiting for this one).
    func markGone(_ watcher: DirectoryWatcher) -> (left: [String], nowReady: Bool) {
        let (left, nowReady) = counts.withLock { c in
            let id = ObjectIdentifier(watcher)
            if c.gone[id] == nil { c.goneOrder.append(watcher.displayFolder) }
            c.gone[id] = watcher.displayFolder
            c.ready.remove(id)
            let left = watchers.filter { c.gone[ObjectIdentifier($0)] == nil }.map(\.displayFolder)
            return (left, !left.isEmpty && Self.takeAllReady(&c, of: watchers.count))
        }
        if left.isEmpty { stop.set() }
        return (left, nowReady)
    }

    /// True once, when every watcher is ready or gone.
    private static func takeAllReady(_ c: inout Counts, of count: Int) -> Bool {
        guard !c.readyShown, c.ready.count + c.gone.count >= count else { return false }
        c.readyShown = true
        return true
    }
}
