import Foundation
import PhotoMeta
import PhotoMetaCore
import PhotoMetaSystem
import PhotoMetaThumbnailCache
import Synchronization

/// `photometa watch [DIR...] ...`: reports changes and new suggestions as they happen.
struct WatchCommand {
    static let help = """
        USAGE: photometa watch [DIR...] [--jsonl] [--within 60s] [--tz ZONE]
                               [--screenshots include|exclude|only] [--videos] [--state PATH]
                               [--profile NAME] [--exclude GLOB] [--exec CMD] [--poll INTERVAL]
                               [--rescan INTERVAL] [--no-suggest] [--thumbnail [SIZE]]
                               [--thumbnail-mode fit|fill|crop]

        Watches every DIR (by default the pictures folder, as for suggest).

        Observes DIR (recursively, including folders created later) and prints each settled batch
        of changes: "+ path" inserted, "- path" removed, "~ path" changed, "> old -> new" renamed
        or moved within the folders. A file is reported once it is complete (closed after
        writing, moved in, or unchanged for 1 s), never half-written. Files present at the start
        are not reported. Hidden files and temporary names (.part, .crdownload, ... see
        docs/watch.md) are ignored. When a new file qualifies under the rules and memory of
        `suggest`, a line "You may want to send: ..." follows, and the offer is recorded as
        `suggest` would.

        The offer's life: the offer standing when watch starts (from an earlier watch or suggest)
        is reported once after ready ("Still on offer: ...", JSON "standing": true). When the
        standing offer stops standing, a line "Withdrawn (REASON): path" (JSON event
        "withdrawn") says why: deleted, dismissed (by `photometa dismiss` or `forget`, from any
        process), expired (its capture left --within), superseded (a newer offer), or moved
        (renamed within the folders: "-> new path", where it stands now).

        OPTIONS:
          --jsonl             One JSON event per line (see docs/watch.md).
          --within, --tz, --screenshots, --videos, --state, --profile, --exclude
                              As for `photometa suggest`.
          --exec CMD          Run CMD (through /bin/sh) for each offer (new or standing), with its
                              environment (below). A failing CMD is reported on stderr and
                              watching goes on.
          --poll INTERVAL     Poll every INTERVAL (e.g. 2s) instead of using inotify. photometa also
                              polls by itself (and says so) when inotify is unavailable or its watch
                              limit is reached.
          --rescan INTERVAL   Besides inotify's events, look again every INTERVAL (0: never).
                              inotify sees only this computer's changes: on a network or FUSE file
                              system (NFS, SMB, sshfs...), where another computer may add photos,
                              the default is 30s (and a note says so); elsewhere never. On NFS and
                              SMB a look lists again the folders whose times changed, and every
                              tenth looks at every file; elsewhere every look looks at every file.
          --thumbnail [SIZE]  Also make each offer's picture, after the offer is printed: a line
                              "thumbnail: PATH", JSON event "thumbnail" (with thumbnailError on a
                              failure, and the offer stands).
          --thumbnail-mode M  fit (default), fill or crop, as for suggest: a square button asks
                              --thumbnail 256 --thumbnail-mode crop.
          --no-suggest        Report changes only.
          -h, --help          Show this help.

        ENVIRONMENT:
          PHOTOMETA_PATH        (for --exec) the offered file's path
          PHOTOMETA_KIND        (for --exec) its kind: photo, screenshot, gif, livePhoto, video
          PHOTOMETA_CAPTURED    (for --exec) its capture instant, ISO 8601 in UTC (unset: unknown)
          PHOTOMETA_THUMBNAIL   (for --exec, with --thumbnail) its picture's path (unset: failed)
          PHOTOMETA_THUMBNAILER (read) the thumbnail helper to run instead of the one installed
                                beside photometa
          XDG_STATE_HOME, XDG_CACHE_HOME, XDG_CONFIG_HOME, HOME: where the memory, the
                                thumbnails and the pictures folder are found

        Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.

        EXIT STATUS:
          0   stopped by SIGINT or SIGTERM
          1   every watched folder disappeared (deleted, moved, its file system unmounted;
              while another is left, the watch goes on there and says so), or the state file
              is unusable
          64  usage error
          66  DIR cannot be read
          74  stdout could not be written (a reader that went away ends the watch quietly);
              the offer it could not print is taken back
        """

    var folders: FolderArguments
    var options = DirectoryWatcher.Options(suggestions: nil)
    var jsonl = false
    var exec: String?
    var thumbnail: OfferThumbnail?
    var zone: TimeZone
    /// Offers' pictures are made here, one at a time, after their offer was printed (a thread of
    /// its own, not a dispatch queue: an idle watch wakes no thread, `SerialWorker`).
    let pictures = SerialWorker(name: "photometa.pictures")

    init(arguments: [String]) throws(UsageError) {
        var cursor = ArgumentCursor(arguments)
        var settings = SuggestionSettings(zone: TimeZone(secondsFromGMT: 0) ?? .current)
        var zoneOption: TimeZone?
        var suggest = true
        var mode: ThumbnailRequest.Mode?
        while let opt = try cursor.nextOption() {
            switch opt.name {
            case "--jsonl": jsonl = true
            case "--within":
                settings.within = try DurationArgument.parse(try cursor.value(for: opt, example: "10s"), option: "--within")
            case "--tz": zoneOption = try ZoneArgument.parse(try cursor.value(for: opt, example: "Asia/Shanghai"))
            case "--screenshots":
                let v = try cursor.value(for: opt, example: "exclude")
                guard let mode = SuggestionSettings.Screenshots(rawValue: v) else {
                    throw UsageError("--screenshots must be include, exclude or only (not '\(v)')")
                }
                settings.screenshots = mode
            case "--videos": settings.includeVideos = true
            case "--state": options.statePath = try cursor.path(for: opt, example: "~/state.sqlite3")
            case "--profile": options.profile = try ProfileArgument.parse(try cursor.value(for: opt, example: "work"))
            case "--exec": exec = try cursor.value(for: opt, example: "'notify-send \"$PHOTOMETA_PATH\"'")
            case "--poll":
                let interval = try DurationArgument.parse(try cursor.value(for: opt, example: "2s"), option: "--poll")
                guard interval > .zero else { throw UsageError("--poll needs an interval above zero") }
                options.pollInterval = interval
            case "--rescan":
                let text = try cursor.value(for: opt, example: "30s")
                options.rescanInterval = text == "0" ? .zero : try DurationArgument.parse(text, option: "--rescan")
            case "--no-suggest": suggest = false
            case "--thumbnail": thumbnail = try OfferThumbnail.parse(&cursor, opt)
            case "--thumbnail-mode": mode = try OfferThumbnail.mode(try cursor.value(for: opt, example: "crop"))
            case "--exclude":
                options.exclude.append(try ExcludeArgument.parse(try cursor.value(for: opt, example: "'**/cache/**'")))
            default: throw UsageError("unknown option '\(opt.name)'")
            }
        }
        thumbnail = try OfferThumbnail.with(mode: mode, thumbnail)
        guard suggest || exec == nil else { throw UsageError("--exec runs for offers, which --no-suggest turns off") }
        folders = FolderArguments(cursor.positionals)
        zone = zoneOption ?? ZoneArgument.processDefault()
        settings.zone = zone
        options.suggestions = suggest ? settings : nil
    }

    /// What the watch needs once confined (`serve --jsonl` adds it to its own).
    var needs: SelfConfinement.Needs {
        SelfConfinement.Needs(
            files: [options.suggestions == nil ? nil : options.statePath, thumbnail?.picturesFile],
            thumbnails: thumbnail != nil, hook: exec)
    }

    func run() -> ExitCode {
        SelfConfinement.apply(needs)
        AllocatorPolicy.forLongRunningProcess()
        let (stop, signals) = Termination.stopFlag()
        defer { signals.cancel() }
        return watch(until: stop)
    }

    /// Watches until `stop` is set (or every folder is gone), printing the events; the process
    /// is already confined. One watcher per folder, each on its own thread; their events are
    /// printed one at a time. All folders are checked before any is watched. A folder that
    /// disappears (a card pulled out, a folder deleted) ends its own watcher only: the photos
    /// that keep arriving in the others are still reported.
    func watch(until stop: StopFlag) -> ExitCode {
        var watchers: [DirectoryWatcher] = []
        for folder in folders.folders {
            do throws(SuggestError) {
                let w = try DirectoryWatcher(folder: folder, options: options)
                // A folder given twice, or inside another given one, is watched once, through
                // the outer one: each change is reported once (as suggest walks it once).
                guard !watchers.contains(where: { PathKey(w.folder).isWithin($0.folder) }) else { continue }
                watchers.removeAll { PathKey($0.folder).isWithin(w.folder) }
                watchers.append(w)
            } catch {
                return SuggestCommand.report(error, folders: folders)
            }
        }
        let report = AssetReport(zone: zone)
        let state = WatchState(watchers: watchers, stop: stop)
        // The watchers sleep until an event, a due time or this (no timeout while idle).
        let wakes = stop.wakeDescriptor.map { [$0] } ?? []
        let group = DispatchGroup()
        for watcher in watchers {
            group.enter()
            let thread = Thread {
                // A stdout that can no longer be written (the reader gone, a full disk) ends the
                // watch: an offer nobody sees is taken back (`offerDelivered`), and no more are made.
                watcher.run(
                    shouldStop: { stop.isSet || Output.stdoutFailure != nil }, wakes: wakes,
                    deliver: { event in state.serially { show(event, state: state, watcher: watcher, report: report) } },
                    offerDelivered: { Output.delivered() })
                group.leave()
            }
            thread.start()
        }
        group.wait()
        pictures.sync()  // the last offer's picture, if one is being made
        Output.flush()
        if state.allGone {
            Output.err("photometa: \(state.gone.joined(separator: ", ")) disappeared; stopped watching")
            return .someFailed
        }
        // Main reports the write error (a closed pipe quietly).
        return Output.stdoutFailure == nil ? .success : .ioError
    }

    /// Prints one event of a watcher (under the printer lock). A standing offer found before
    /// every folder is ready waits for `ready`; an offer's picture is made after the offer is
    /// printed, on its own queue, and comes as a `thumbnail` event.
    func show(_ event: WatchEvent, state: WatchState, watcher: DirectoryWatcher, report: AssetReport) {
        switch event {
        case .ready:
            // Once every folder is watched: from then on nothing is missed.
            guard state.ready(watcher) else { return }
            showReady(state: state, watcher: watcher, report: report)
        case .changes(let c):
            print(
                .changes(
                    inserted: c.inserted.map(\.asset), removed: c.removed, changed: c.changed.map(\.asset),
                    moved: c.moved.map { .init(from: $0.from, to: $0.to.path) }), report)
        case .suggestion(let s, let age), .standing(let s, let age):
            guard state.isReady else { return state.hold(event) }
            var offer = OfferReport(s, size: OfferSize.of(s.path), zone: zone, ageSeconds: age)
            if case .standing = event { offer.standing = true }
            print(.suggestion(offer), report)
            picture(for: s, report: report, state: state)
        case .withdrawn(let w):
            guard state.isReady else { return state.hold(event) }
            print(.withdrawn(w), report)
        case .note(let n): Output.err("photometa: note: \(n)")
        case .folderGone:
            let (left, nowReady) = state.markGone(watcher)
            // The last folder's end is said once the watchers have stopped (`watch(until:)`).
            guard !left.isEmpty else { return }
            let message = "\(watcher.displayFolder) disappeared; still watching \(left.joined(separator: ", "))"
            if state.isReady {
                print(.error(message: message), report)
            } else {
                state.hold(.error(message))
            }
            if nowReady { showReady(state: state, watcher: watcher, report: report) }
        case .error(let message): print(.error(message: message), report)
        }
        Output.flush()
        state.stopIfOutputFailed()
    }

    /// `ready` (once every folder is watched or gone), then what was held until it.
    func showReady(state: WatchState, watcher: DirectoryWatcher, report: AssetReport) {
        print(.ready(folders: folders.folders), report)
        for e in state.takeHeld() { show(e, state: state, watcher: watcher, report: report) }
    }

    /// The offer's picture (`--thumbnail`), made off the watching thread, then the `--exec` hook
    /// (which is told the picture); without `--thumbnail`, the hook at once.
    func picture(for s: SuggestionCandidate, report: AssetReport, state: WatchState) {
        guard let thumbnail else {
            if let exec { run(exec, for: s, thumbnail: nil) }
            return
        }
        pictures.async {
            let outcome = thumbnail.outcome(s.path)
            state.serially {
                print(.thumbnail(path: s.path, outcome), report)
                Output.flush()
                state.stopIfOutputFailed()
            }
            if let exec { run(exec, for: s, thumbnail: outcome.made?.path) }
        }
    }

    /// Prints one event: a JSON line with --jsonl (docs/watch.md), else the text lines; the
    /// ready and error events go to stderr in text (and are JSON lines too with --jsonl).
    func print(_ event: WatchEventReport, _ report: AssetReport) {
        switch event {
        case .ready:
            Output.err("photometa: watching \(folders.folders.joined(separator: ", ")) (Ctrl-C to stop)")
        case .error(let message):
            Output.err("photometa: error: \(message)")
        case .changes, .suggestion, .withdrawn, .thumbnail:
            break
        }
        if jsonl {
            Output.out(event.json(report: report) + "\n")
        } else if let text = event.text() {
            Output.out(text)
        }
    }

    /// Runs the --exec command without blocking the watch; a failure is reported, not fatal.
    /// The hook's output goes to stderr, never into the event stream, and it inherits no
    /// descriptor of photometa's (`Hook`, posix_spawn with closefrom).
    func run(_ command: String, for s: SuggestionCandidate, thumbnail: String?) {
        var env = ProcessEnvironment.current
        env["PHOTOMETA_PATH"] = s.path
        if let thumbnail { env["PHOTOMETA_THUMBNAIL"] = thumbnail }
        env["PHOTOMETA_KIND"] = s.kind.rawValue
        if let c = s.captured {
            // The capture instant, ISO 8601 in UTC (the zone applied where the file has no offset).
            let instant = Date(timeIntervalSince1970: c.epochSeconds(assuming: zone))
            env["PHOTOMETA_CAPTURED"] = ISO8601DateFormatter().string(from: instant)
        }
        let path = s.path
        do throws(SystemError) {
            try Hook.run(command, environment: env) { status in
                if status != 0 { Output.err("photometa: --exec command failed (exit \(status)) for \(path)") }
            }
        } catch {
            Output.err("photometa: --exec command could not start: \(error)")
        }
    }
}
