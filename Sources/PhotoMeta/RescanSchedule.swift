import PhotoMetaCore
import PhotoMetaSystem

/// When a watcher looks at its tree again besides inotify's events
/// (`DirectoryWatcher.Options.rescanInterval`), and how: inotify reports only what this
/// computer's kernel does, so on a network or FUSE file system another computer's changes (a
/// phone's upload to the NAS) raise no event.
///
/// On a file system whose folders' times follow their names (NFS, SMB: `SharedFileSystem
/// .foldersFollowChanges`) most looks examine the folders only and list again those whose times
/// changed, and those whose files changed at the last look (`Look.changedFolders`: one `statx`
/// a folder instead of one a file); every `wholeEvery`-th look, and every look elsewhere, looks
/// at every file (`Look.everyFile`), which is what finds a file rewritten in place long after
/// it came.
package struct RescanSchedule {
    /// What one look examines.
    package enum Look: Equatable {
        case everyFile
        /// The folders' own times; those that changed, and those whose files changed at the
        /// last look, are listed again (`FolderTimes`).
        case changedFolders
    }

    let every: Double
    /// Looks at every file every this many looks; nil: every look does.
    let wholeEvery: Int?
    /// When the last look was (at first, the start: the first scan looked at everything).
    private(set) var last: Double
    private var looks = 0

    /// The default of `wholeEvery` where folders come first: every 5 min at the default 30 s.
    static let defaultWholeEvery = 10

    /// The schedule for `watcher`'s folder and the note that says so, or nil for none.
    static func make(for watcher: DirectoryWatcher, now: Double) -> (RescanSchedule, note: String)? {
        make(
            folders: [(watcher.folder, watcher.displayFolder)], asked: watcher.options.rescanInterval,
            wholeEvery: watcher.options.rescanWholeEvery, now: now)
    }

    /// The same for several folders (`serve`'s): every `asked` interval, else every
    /// `sharedRescanInterval` when one lies on a network or FUSE file system, else never; a zero
    /// `asked` is never. Folders come first when every folder lies on a file system whose folder
    /// times follow their names, or when `wholeEvery` (the cadence of looks at every file)
    /// is given (tests).
    static func make(
        folders: [(path: String, display: String)], asked: Duration?, wholeEvery: Int? = nil, now: Double
    ) -> (RescanSchedule, note: String)? {
        let systems = folders.map { f in (f.display, SharedFileSystem.name(of: f.path)) }
        let shared = systems.lazy.compactMap { d, name in name.map { (d, $0) } }.first
        guard let every = asked ?? (shared == nil ? nil : DirectoryWatcher.Options.sharedRescanInterval), every > .zero
        else { return nil }
        let foldersFirst =
            wholeEvery != nil || systems.allSatisfy { $0.1.map(SharedFileSystem.foldersFollowChanges) ?? false }
        let whole = foldersFirst ? max(1, wholeEvery ?? defaultWholeEvery) : nil
        let why = shared.map { "\($0.0) is on \($0.1), where inotify sees only this computer's changes; " } ?? ""
        let how =
            whole.map {
                "looking at its folders again every \(DurationText.describe(every)) and at every file every "
                    + DurationText.describe(every.seconds * Double($0))
            } ?? "looking at every file again every \(DurationText.describe(every))"
        return (RescanSchedule(every: every.seconds, wholeEvery: whole, last: now), why + how)
    }

    /// When it is next due.
    var due: Double { last + every }

    /// The look due at `t`, once `every` seconds have passed since the last; nil before.
    mutating func look(at t: Double) -> Look? {
        guard t - last >= every else { return nil }
        looks += 1
        last = t
        guard let wholeEvery, looks % wholeEvery != 0 else { return .everyFile }
        return .changedFolders
    }
}
