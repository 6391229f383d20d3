import Foundation
import PhotoMeta
import PhotoMetaCore
import PhotoMetaSystem

/// `photometa serve [DIR...]`: the live library as a service (docs/service.md).
struct ServeCommand {
    static let help = """
        USAGE: photometa serve [DIR...] [--exclude GLOB] [--no-index] [--rescan INTERVAL]
                               [--jsonl [--within 60s] [--tz ZONE] [--screenshots MODE] [--videos]
                                [--state PATH] [--profile NAME] [--exec CMD] [--no-suggest]
                                [--thumbnail [SIZE]] [--thumbnail-mode fit|fill|crop]]

        Keeps a live library of the DIRs (by default the pictures folder, as for suggest): scans
        them once (with the index), then follows every change with inotify, so that `suggest`
        answers from it at once instead of walking the folders. It announces itself in
        $XDG_RUNTIME_DIR/photometa/ (a private folder) and says
        "photometa: serving DIR... (N files)" on stderr once its library reflects the folders.
        Clients use it when it serves the folders they ask for with the same --exclude (or,
        neither having an --exclude, folders above them); otherwise, or when it is gone or
        silent for 100 ms, they scan.

        The rules' settings (--within, --screenshots, --videos, --tz) and the memory
        (--profile, --state) of an answer are the client's: every `suggest` brings its own.

        With --jsonl, serve is also the observer of `watch --jsonl` for the same folders: it
        prints watch's events on stdout (changes, new offers made and recorded under its own
        --profile and rules, the standing offer once at the start, "withdrawn" when it stops
        standing, pictures), so a client keeps one process for both. The options after
        --jsonl are watch's: --within, --tz, --screenshots, --videos, --state, --profile, --exec,
        --no-suggest, --thumbnail, --thumbnail-mode (`photometa watch --help`); without --jsonl
        they are refused.

        OPTIONS:
          --exclude GLOB   Leave out paths below DIR that match (repeatable), as for suggest.
          --no-index       Parse every file at the start instead of using the index.
          --rescan INTERVAL
                           Besides inotify's events, look again every INTERVAL (0: never).
                           inotify sees only this computer's changes: on a network or FUSE file
                           system (NFS, SMB, sshfs...), where another computer may add photos,
                           the default is 30s (and a note says so); elsewhere never. On NFS and
                           SMB a look lists again the folders whose times changed, and every
                           tenth looks at every file; elsewhere every look looks at every file.
          --jsonl          Also print watch's events, one JSON line each (docs/watch.md).
          -h, --help       Show this help.

        Run it as a user service: systemctl --user enable --now photometa (docs/service.md).
        Stops cleanly on SIGINT or SIGTERM.

        EXIT STATUS:
          0   stopped by SIGINT or SIGTERM
          1   another serve has these folders (its pid is named), or a folder disappeared
              (deleted, moved, its file system unmounted)
          64  usage error
          66  a DIR cannot be read
          74  with --jsonl, stdout could not be written (a reader gone ends serve quietly)
        """

    var folders: FolderArguments
    var exclude: [String] = []
    var indexPath: String? = Suggester.defaultIndexPath()
    /// With --jsonl: the watch that prints the events.
    var events: WatchCommand?
    /// `--rescan`: the interval of whole looks besides inotify's events, for the library and
    /// the events alike.
    var rescan: Duration?

    /// The options `serve --jsonl` hands to its watch, and whether each takes a value.
    static let watchOptions: [String: Bool] = [
        "--within": true, "--tz": true, "--screenshots": true, "--videos": false, "--state": true, "--profile": true,
        "--exec": true, "--no-suggest": false, "--thumbnail-mode": true,
    ]

    init(arguments: [String]) throws(UsageError) {
        var cursor = ArgumentCursor(arguments)
        var jsonl = false
        var forWatch: [String] = []
        while let opt = try cursor.nextOption() {
            switch opt.name {
            case "--exclude":
                exclude.append(try ExcludeArgument.parse(try cursor.value(for: opt, example: "'**/cache/**'")))
            case "--no-index": indexPath = nil
            case "--rescan":
                let text = try cursor.value(for: opt, example: "30s")
                rescan = text == "0" ? .zero : try DurationArgument.parse(text, option: "--rescan")
                forWatch += ["--rescan", text]
            case "--jsonl": jsonl = true
            case "--thumbnail":
                let t = try OfferThumbnail.parse(&cursor, opt)
                forWatch += ["--thumbnail=\(t.size)"]
            case let name where ServeCommand.watchOptions[name] != nil:
                forWatch.append(name)
                if ServeCommand.watchOptions[name] == true { forWatch.append(try cursor.value(for: opt, example: "VALUE")) }
            default: throw UsageError("unknown option '\(opt.name)'")
            }
        }
        folders = FolderArguments(cursor.positionals)
        if let first = forWatch.first(where: { $0.hasPrefix("--") && $0 != "--rescan" }), !jsonl {
            throw UsageError("\(first.split(separator: "=")[0]) is an option of serve's events: add --jsonl")
        }
        if jsonl {
            let excludes = exclude.flatMap { ["--exclude", $0] }
            events = try WatchCommand(arguments: folders.folders + ["--jsonl"] + excludes + forWatch)
        }
    }

    func run() -> ExitCode {
        var canonical: [String] = []
        for f in folders.folders {
            do throws(SystemError) {
                let c = try FileSystem.canonicalFolder(f)
                if !canonical.contains(where: { PathKey($0) == PathKey(c) }) { canonical.append(c) }
            } catch {
                return SuggestCommand.report(.unreadableFolder(path: f, error: error), folders: folders)
            }
        }
        let runtime = ServeCommand.runtimeFolder()
        var needs = SelfConfinement.Needs(files: [indexPath], runtime: runtime?.path, unixSockets: true)
        if let w = events?.needs {
            needs.files += w.files
            needs.thumbnails = w.thumbnails
            needs.hook = w.hook
        }
        SelfConfinement.apply(needs)
        AllocatorPolicy.forLongRunningProcess()
        let (stop, signals) = Termination.stopFlag()
        defer { signals.cancel() }
        // With --jsonl the events come from a watch beside the service: when it ends (a folder
        // gone, an unusable memory), the service stops too, and the worse exit code is serve's.
        let watched = WatchOutcome()
        if let events {
            watched.group.enter()
            Thread {
                let code = events.watch(until: stop)
                watched.code = code
                if code != .success { stop.set() }
                watched.group.leave()
            }.start()
        }
        let code = serve(canonical, runtime: runtime, stop: stop)
        stop.set()
        watched.group.wait()
        return code == .success ? watched.code : code
    }

    /// The live library until `stop`.
    private func serve(_ canonical: [String], runtime: RuntimeFolder?, stop: StopFlag) -> ExitCode {
        let service = LibraryService(folders: canonical, exclude: exclude, indexPath: indexPath)
        service.rescanInterval = rescan
        service.afterLook = AllocatorPolicy.giveBackFreePages
        #if DEBUG
            // Test builds: the kernel's watch limit, reached at will (ServeFoldersTests).
            service.maximumWatches = ProcessEnvironment.current["PHOTOMETA_WATCH_LIMIT"].flatMap { Int($0) }
        #endif
        do throws(LibraryService.Failure) {
            try service.run(
                runtime: runtime, shouldStop: { stop.isSet }, wake: stop.wakeDescriptor,
                ready: { files in
                    let named = folders.folders.joined(separator: ", ")
                    Output.err("photometa: serving \(named) (\(files) file\(files == 1 ? "" : "s"))")
                },
                note: { Output.err("photometa: note: \($0)") })
        } catch {
            Output.err("photometa: \(error)")
            return .someFailed
        }
        return .success
    }

    /// How the watch of `serve --jsonl` ended (set on its thread before `group` is left).
    final class WatchOutcome: @unchecked Sendable {
        let group = DispatchGroup()
        var code = ExitCode.success
    }

    /// The runtime folder, prepared; nil (with a note saying why clients cannot find the
    /// service) when there is none to use.
    static func runtimeFolder() -> RuntimeFolder? {
        switch RuntimeFolder.locate(environment: ProcessEnvironment.current) {
        case .failure(let why):
            Output.err("photometa: note: \(why): clients cannot find this service and will scan")
            return nil
        case .success(let runtime):
            do throws(RuntimeFolder.Problem) {
                try runtime.prepare()
                return runtime
            } catch {
                Output.err("photometa: note: \(runtime.path) refused (\(error)): clients cannot find this service and will scan")
                return nil
            }
        }
    }
}

/// `photometa status [DIR...] [--json]`: whether a live service answers for the folders.
struct StatusCommand {
    static let help = """
        USAGE: photometa status [DIR...] [--json]

        Says whether a running `photometa serve` answers for the DIRs (by default the pictures
        folder): its pid, folders, file count and since when, and how often it looks again
        besides inotify's events (serve --rescan, or on a network file system) and when it last
        did; or why none does.

        EXIT STATUS: 0 a service answers, 3 none does, 64 usage error, 66 a DIR cannot be read,
        74 the output could not be written.
        """

    var folders: FolderArguments
    var json = false

    init(arguments: [String]) throws(UsageError) {
        var cursor = ArgumentCursor(arguments)
        while let opt = try cursor.nextOption() {
            switch opt.name {
            case "--json": json = true
            default: throw UsageError("unknown option '\(opt.name)'")
            }
        }
        folders = FolderArguments(cursor.positionals)
    }

    func run() -> ExitCode {
        var request = ServiceRequest(operation: .status)
        for f in folders.folders {
            do throws(SystemError) {
                request.folders.append(ServiceRequest.Folder(path: try FileSystem.canonicalFolder(f), display: f))
            } catch {
                return SuggestCommand.report(.unreadableFolder(path: f, error: error), folders: folders)
            }
        }
        let report: StatusReport
        switch ServiceClient.ask(request, environment: ProcessEnvironment.current) {
        case .success(let reply):
            let rescan = reply.rescanEvery.map {
                (every: $0, whole: reply.wholeRescanEvery ?? $0, last: reply.lastRescan ?? reply.since)
            }
            report = StatusReport(
                pid: reply.pid, folders: reply.folders, files: reply.files, since: reply.since, rescan: rescan)
        case .failure(let why):
            report = StatusReport(notServing: why.description)
        }
        Output.out(json ? report.json + "\n" : report.text)
        return report.serving ? .success : .noSuggestion
    }
}
