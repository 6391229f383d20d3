import Foundation
import PhotoMeta
import PhotoMetaCore
import PhotoMetaSystem
import Synchronization

/// `photometa watch [DIR...] ...`: reports changes and new suggestions as they happen.
struct WatchCommand {
    static let help = """
        USAGE: photometa watch [DIR...] [--jsonl] [--within 60s] [--tz ZONE]
                               [--screenshots include|exclude|only] [--videos] [--state PATH]
                               [--profile NAME] [--exclude GLOB] [--exec CMD] [--poll INTERVAL]
                               [--no-suggest] [--thumbnail [SIZE]]

        Watches every DIR (by default the pictures folder, as for suggest).

        Observes DIR (recursively, including folders created later) and prints each settled batch
        of changes: "+ path" inserted, "- path" removed, "~ path" changed. A file is reported once
        it is complete (closed after writing, moved in, or unchanged for 1 s), never half-written.
        Files present at the start are not reported. Hidden files and editors' temporary files are
        ignored. When a new file qualifies under the rules and memory of `suggest`, a line
        "You may want to send: ..." follows, and the offer is recorded as `suggest` would.

        OPTIONS:
          --jsonl             One JSON event per line (see docs/watch.md).
          --within, --tz, --screenshots, --videos, --state, --profile, --exclude
                              As for `photometa suggest`.
          --exec CMD          Run CMD (through /bin/sh) for each suggestion, with the file's path in
                              PHOTOMETA_PATH and its kind in PHOTOMETA_KIND. A failing CMD is
                              reported on stderr and watching goes on.
          --poll INTERVAL     Poll every INTERVAL (e.g. 2s) instead of using inotify. photometa also
                              polls by itself (and says so) when inotify is unavailable or its watch
                              limit is reached.
          --thumbnail [SIZE]  Also make each offer's thumbnail, as for suggest: a line
                              "thumbnail: PATH" after the offer, JSON "thumbnail", and
                              PHOTOMETA_THUMBNAIL for --exec. A failure leaves the offer standing.
          --no-suggest        Report changes only.
          -h, --help          Show this help.

        Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.

        EXIT STATUS:
          0   stopped by SIGINT or SIGTERM
          1   the watched folder disappeared, or the state file is unusable
          64  usage error
          66  DIR cannot be read
        """

    var folders: FolderArguments
    var options = DirectoryWatcher.Options(suggestions: nil)
    var jsonl = false
    var exec: String?
    var thumbnail: OfferThumbnail?
    var zone: TimeZone

    init(arguments: [String]) throws(UsageError) {
        var cursor = ArgumentCursor(arguments)
        var settings = SuggestionSettings(zone: TimeZone(secondsFromGMT: 0) ?? .current)
        var zoneOption: TimeZone?
        var suggest = true
        while let opt = cursor.nextOption() {
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
            case "--state": options.statePath = try cursor.value(for: opt, example: "/tmp/state.sqlite3")
            case "--profile": options.profile = try ProfileArgument.parse(try cursor.value(for: opt, example: "work"))
            case "--exec": exec = try cursor.value(for: opt, example: "'notify-send \"$PHOTOMETA_PATH\"'")
            case "--poll":
                let interval = try DurationArgument.parse(try cursor.value(for: opt, example: "2s"), option: "--poll")
                guard interval > .zero else { throw UsageError("--poll needs an interval above zero") }
                options.pollInterval = interval
            case "--no-suggest": suggest = false
            case "--thumbnail": thumbnail = try OfferThumbnail.parse(&cursor, opt)
            case "--exclude":
                options.exclude.append(try ExcludeArgument.parse(try cursor.value(for: opt, example: "'**/cache/**'")))
            default: throw UsageError("unknown option '\(opt.name)'")
            }
        }
        folders = FolderArguments(cursor.positionals)
        zone = zoneOption ?? ZoneArgument.processDefault()
        settings.zone = zone
        options.suggestions = suggest ? settings : nil
    }

    func run() -> ExitCode {
        SelfConfinement.apply(
            SelfConfinement.Needs(
                files: [options.suggestions == nil ? nil : options.statePath], thumbnails: thumbnail != nil, hook: exec))
        // One watcher per folder, each on its own thread; their events are printed one at a
        // time. All folders are checked before any is watched.
        var watchers: [DirectoryWatcher] = []
        for folder in folders.folders {
            do throws(SuggestError) {
                watchers.append(try DirectoryWatcher(folder: folder, options: options))
            } catch {
                return SuggestCommand.report(error, folders: folders)
            }
        }
        let (stop, signals) = Termination.stopFlag()
        defer { for s in signals { s.cancel() } }
        let report = AssetReport(zone: zone)
        let state = WatchState(count: watchers.count)
        let group = DispatchGroup()
        for watcher in watchers {
            group.enter()
            let thread = Thread {
                watcher.run(
                    shouldStop: { stop.isSet || state.gone != nil },
                    deliver: { event in
                        state.serially {
                            switch event {
                            case .ready:
                                // Once every folder is watched: from then on nothing is missed.
                                if state.ready() { print(.ready(folders: folders.folders), report) }
                            case .changes(let c):
                                print(
                                    .changes(
                                        inserted: c.inserted.map(\.asset), removed: c.removed, changed: c.changed.map(\.asset)),
                                    report)
                            case .suggestion(let s, let age):
                                let offer = OfferReport(s, ageSeconds: age, thumbnail: thumbnail.map { $0.outcome(s.path) })
                                print(.suggestion(offer), report)
                                if let exec { run(exec, for: s, thumbnail: offer.thumbnail?.made?.path) }
                            case .note(let n): Output.err("photometa: note: \(n)")
                            case .folderGone: state.markGone(watcher.displayFolder)
                            case .error(let message): print(.error(message: message), report)
                            }
                            Output.flush()
                        }
                    })
                group.leave()
            }
            thread.start()
        }
        group.wait()
        Output.flush()
        if let gone = state.gone {
            Output.err("photometa: \(gone) disappeared; stopped watching")
            return .someFailed
        }
        return .success
    }

    /// Prints one event: a JSON line with --jsonl (docs/watch.md), else the text lines; the
    /// ready and error events go to stderr in text (and are JSON lines too with --jsonl).
    func print(_ event: WatchEventReport, _ report: AssetReport) {
        switch event {
        case .ready:
            Output.err("photometa: watching \(folders.folders.joined(separator: ", ")) (Ctrl-C to stop)")
        case .error(let message):
            Output.err("photometa: error: \(message)")
        case .changes, .suggestion:
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
        var env = ProcessInfo.processInfo.environment
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

/// What the watchers of one `watch` command share: one printer at a time, how many are ready,
/// and the first folder that disappeared (which stops them all).
final class WatchState: Sendable {
    private struct Counts {
        var ready = 0
        var gone: String?
    }
    private let counts = Mutex(Counts())
    private let printer = Mutex(())
    private let count: Int

    init(count: Int) { self.count = count }

    /// Runs `body` with no other watcher's event being printed.
    func serially(_ body: () -> Void) { printer.withLock { _ in body() } }

    /// Counts one watcher ready; true when it was the last.
    func ready() -> Bool {
        counts.withLock { c in
            c.ready += 1
            return c.ready == count
        }
    }

    var gone: String? { counts.withLock { $0.gone } }
    func markGone(_ folder: String) { counts.withLock { c in if c.gone == nil { c.gone = folder } } }
}
