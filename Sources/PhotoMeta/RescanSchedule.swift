import PhotoMetaCore
import PhotoMetaSystem

/// When a watcher looks at its whole tree again besides inotify's events
/// (`DirectoryWatcher.Options.rescanInterval`): inotify reports only what this computer's
/// kernel does, so on a network or FUSE file system another computer's changes (a phone's
/// upload to the NAS) raise no event.
struct RescanSchedule {
    let every: Double
    /// When the last whole look was (at first, the start: the first scan looked at everything).
    private(set) var last: Double

    /// The schedule for `watcher`'s folder and the note that says so, or nil for none: every
    /// `rescanInterval`, else every `sharedRescanInterval` on a network or FUSE file system
    /// (`SharedFileSystem`), else never; a zero `rescanInterval` is never.
    static func make(for watcher: DirectoryWatcher, now: Double) -> (RescanSchedule, note: String)? {
        make(folders: [(watcher.folder, watcher.displayFolder)], asked: watcher.options.rescanInterval, now: now)
    }

    /// The same for several folders (`serve`'s): one on such a file system makes the schedule.
    static func make(folders: [(path: String, display: String)], asked: Duration?, now: Double) -> (
        RescanSchedule, note: String
    )? {
        let shared = folders.lazy.compactMap { f in SharedFileSystem.name(of: f.path).map { (f.display, $0) } }.first
        guard let every = asked ?? (shared == nil ? nil : DirectoryWatcher.Options.sharedRescanInterval), every > .zero
        else { return nil }
        let why = shared.map { "\($0.0) is on \($0.1), where inotify sees only this computer's changes; " } ?? ""
        let note = why + "looking at every file again every \(DurationText.describe(every))"
        return (RescanSchedule(every: every.seconds, last: now), note)
    }

    /// When it is next due.
    var due: Double { last + every }

    /// True once `every` seconds have passed since it last was.
    mutating func isDue(at t: Double) -> Bool {
        guard t - last >= every else { return false }
        last = t
        return true
    }
}
