import Foundation
import PhotoMeta
import PhotoMetaCore
import PhotoMetaSystem

/// `photometa serve [DIR...]`: the live library as a service (docs/service.md).
struct ServeCommand {
    static let help = """
        USAGE: photometa serve [DIR...] [--exclude GLOB] [--no-index]

        Keeps a live library of the DIRs (by default the pictures folder, as for suggest): scans
        them once (with the index), then follows every change with inotify, so that `suggest`
        answers from it at once instead of walking the folders. It announces itself in
        $XDG_RUNTIME_DIR/photometa/ (a private folder) and says
        "photometa: serving DIR... (N files)" on stderr once its library reflects the folders.
        Clients use it only when it serves exactly the folders they ask for, with the same
        --exclude; otherwise, or when it is gone or silent for 100 ms, they scan.

        The rules' settings (--within, --screenshots, --videos, --tz) and the memory
        (--profile, --state) are the client's: every `suggest` brings its own.

        OPTIONS:
          --exclude GLOB   Leave out paths below DIR that match (repeatable), as for suggest.
          --no-index       Parse every file at the start instead of using the index.
          -h, --help       Show this help.

        Run it as a user service: systemctl --user enable --now photometa (docs/service.md).
        Stops cleanly on SIGINT or SIGTERM.

        EXIT STATUS:
          0   stopped by SIGINT or SIGTERM
          1   another serve has these folders (its pid is named), or a folder disappeared
          64  usage error
          66  a DIR cannot be read
        """

    var folders: FolderArguments
    var exclude: [String] = []
    var indexPath: String? = Suggester.defaultIndexPath()

    init(arguments: [String]) throws(UsageError) {
        var cursor = ArgumentCursor(arguments)
        while let opt = cursor.nextOption() {
            switch opt.name {
            case "--exclude":
                exclude.append(try ExcludeArgument.parse(try cursor.value(for: opt, example: "'**/cache/**'")))
            case "--no-index": indexPath = nil
            default: throw UsageError("unknown option '\(opt.name)'")
            }
        }
        folders = FolderArguments(cursor.positionals)
    }

    func run() -> ExitCode {
        var canonical: [String] = []
        for f in folders.folders {
            do throws(SystemError) {
                let c = try FileSystem.canonicalFolder(f)
                if !canonical.contains(c) { canonical.append(c) }
            } catch {
                return SuggestCommand.report(.unreadableFolder(path: f, error: error), folders: folders)
            }
        }
        let runtime = ServeCommand.runtimeFolder()
        SelfConfinement.apply(SelfConfinement.Needs(files: [indexPath], runtime: runtime?.path, unixSockets: true))
        let (stop, signals) = Termination.stopFlag()
        defer { for s in signals { s.cancel() } }
        let service = LibraryService(folders: canonical, exclude: exclude, indexPath: indexPath)
        do throws(LibraryService.Failure) {
            try service.run(
                runtime: runtime, shouldStop: { stop.isSet },
                ready: { files in
                    let named = folders.folders.map(TerminalText.escape).joined(separator: ", ")
                    Output.err("photometa: serving \(named) (\(files) file\(files == 1 ? "" : "s"))")
                },
                note: { Output.err("photometa: note: \($0)") })
        } catch {
            Output.err("photometa: \(error)")
            return .someFailed
        }
        return .success
    }

    /// The runtime folder, prepared; nil (with a note saying why clients cannot find the
    /// service) when there is none to use.
    static func runtimeFolder() -> RuntimeFolder? {
        switch RuntimeFolder.locate(environment: ProcessInfo.processInfo.environment) {
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
        folder): its pid, folders, file count and since when; or why none does.

        EXIT STATUS: 0 a service answers, 3 none does, 64 usage error, 66 a DIR cannot be read.
        """

    var folders: FolderArguments
    var json = false

    init(arguments: [String]) throws(UsageError) {
        var cursor = ArgumentCursor(arguments)
        while let opt = cursor.nextOption() {
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
        switch ServiceClient.ask(request, environment: ProcessInfo.processInfo.environment) {
        case .success(let reply):
            report = StatusReport(pid: reply.pid, folders: reply.folders, files: reply.files, since: reply.since)
        case .failure(let why):
            report = StatusReport(notServing: why.description)
        }
        Output.out(json ? report.json + "\n" : report.text)
        return report.serving ? .success : .noSuggestion
    }
}
