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
        /// Besides inotify's events, look at the tree again this often (`--rescan`): inotify
        /// reports only this machine's changes, so on a network file system another computer's
        /// (a phone's upload to the NAS) raise none. nil: every `sharedRescanInterval` on such a
        /// file system (`SharedFileSystem`), never on a local one; zero: never. Where folders'
        /// times follow their names (NFS, SMB), a look examines the folders and lists again
        /// those that changed, and every tenth looks at every file; elsewhere every look does
        /// (`RescanSchedule`).
        public var rescanInterval: Duration?
        /// Look at folders first, and at every file every this many looks, whatever the file
        /// system (tests); nil: as the file system allows (`RescanSchedule`).
        package var rescanWholeEvery: Int?
        /// The default of `rescanInterval` on a network or FUSE file system.
        public static let sharedRescanInterval: Duration = .seconds(30)
        /// A file unchanged for this long counts as complete even without a close event.
        public var settleTime: Duration = .seconds(1)
        /// Events closer together than this are one batch (a burst keeps extending it, for at
        /// most 250 ms or this, whichever is longer, after its first event: `LookSchedule`).
        /// Short, because it is all of the latency between a photo's last write and its report.
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
        /// The time the settle rule and the offers read (tests move their own).
        package var clock: any WallClock = SystemClock()
        /// The standing offer, shared by the watchers made with these options (one per folder).
        let keeper = OfferKeeper()

        /// `suggestions`: the rules' settings, or nil to report changes only.
        public init(suggestions: SuggestionSettings?) { self.suggestions = suggestions }
    }

    /// The folder as the caller wrote it (reported paths start with it).
    public let displayFolder: String
    /// Its canonical path.
    public let folder: String
    /// The options it was made with.
    public let options: Options
    /// The offer path, used only from the watching thread (hence `@unchecked`).
    let offering: OfferingBox?
    /// `options.exclude` as patterns (the empty and the invalid dropped).
    let excludePatterns: [PathGlob]
    /// The folder as a walk's root: canonical, and as shown.
    var root: FolderScan.Root { FolderScan.Root(path: folder, display: displayFolder) }

    /// Checks the folder (unreadable: `.unreadableFolder`, as `suggest`) and opens the memory.
    public init(folder displayFolder: String, options: Options) throws(SuggestError) {
        self.displayFolder =
            displayFolder.hasSuffix("/") && displayFolder.count > 1 ? String(displayFolder.dropLast()) : displayFolder
        self.options = options
        excludePatterns = options.exclude.compactMap(PathGlob.init)
        folder = try Suggester.checkedFolder(displayFolder)
        if options.suggestions != nil {
            do throws(StateFileError) {
                offering = OfferingBox(
                    try Offering(statePath: options.statePath, profile: options.profile), statePath: options.statePath)
            } catch {
                throw .state(error)
            }
        } else {
            offering = nil
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
    /// disappears. Blocking; `deliver` is called on the calling thread (`WatchLoop`).
    /// `offerDelivered` is asked right after a `suggestion` event was delivered: false (the
    /// event reached no one: a reader gone) takes the recorded offer back, so it is made
    /// again, by the next `suggest` or watch.
    public func run(shouldStop: () -> Bool, deliver: (WatchEvent) -> Void, offerDelivered: () -> Bool = { true }) {
        run(shouldStop: shouldStop, wakes: [], deliver: deliver, offerDelivered: offerDelivered)
    }

    /// With `wakes`, descriptors of which one becomes readable whenever `shouldStop` may have
    /// turned true (`StopFlag.wakeDescriptor`, a client's connection), the watcher sleeps until
    /// an event, a due time (a debounce, a file settling, a look besides inotify, the standing
    /// offer's next tick) or a wake, with no timeout otherwise: an idle watch wakes no thread.
    /// Without any it looks at `shouldStop` every 100 ms.
    package func run(
        shouldStop: () -> Bool, wakes: [Int32], deliver: (WatchEvent) -> Void, offerDelivered: () -> Bool = { true }
    ) {
        withoutActuallyEscaping(deliver) { deliver in
            withoutActuallyEscaping(offerDelivered) { offerDelivered in
                let loop = WatchLoop(self, deliver: deliver, offerDelivered: offerDelivered, wakes: wakes)
                guard loop.start() else { return }
                loop.run(shouldStop: shouldStop)
            }
        }
    }

    /// A reported path's file by its canonical path, as the memory records it (`Offering`);
    /// when it cannot be resolved, the folder's canonical path joined with the path below it.
    func canonical(_ reported: String) -> String {
        if let resolved = try? FileSystem.canonicalPath(reported) { return resolved }
        let prefix = displayFolder + "/"
        guard reported.hasPrefix(prefix) else { return reported }
        return (folder == "/" ? "" : folder) + "/" + reported.dropFirst(prefix.count)
    }
}

/// The offer path, used only from the watching thread (hence `@unchecked`).
final class OfferingBox: @unchecked Sendable {
    private(set) var value: Offering
    private let statePath: String

    init(_ value: Offering, statePath: String) {
        self.value = value
        self.statePath = statePath
    }

    /// The memory for an offer about to be recorded: opened again when its file was deleted
    /// or replaced since the watch began (the user removed the state file, or `forget`'s
    /// tools did), so the offer lands where the next `suggest` reads, not in a file no name
    /// leads to. A file that cannot be used now is an error for the caller to report.
    func current() throws(StateFileError) -> Offering {
        guard !value.isStillAtItsPath else { return value }
        value = try Offering(statePath: statePath, profile: value.profile)
        return value
    }

    /// The memory (`current`) and what the rules need from it at `t`.
    func context(settings: SuggestionSettings, at t: Double) throws(StateFileError) -> (Offering, SuggestionContext) {
        let offering = try current()
        return (offering, try offering.context(settings: settings, now: t, realNow: t))
    }
}
