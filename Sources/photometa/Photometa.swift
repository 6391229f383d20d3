import Foundation
import PhotoMeta
import PhotoMetaCore
import PhotoMetaSystem

/// The command-line entry point: picks the subcommand and turns errors into exit codes. Every
/// command's logic lives in the PhotoMeta library; these files only parse and print.
@main
struct Photometa {
    static let version = "0.1.0"

    static let help = """
        photometa \(version): when was each photo really taken, and which one does the user want to send now?

        USAGE: photometa <command> [options]

        COMMANDS:
          inspect   Report capture date, format, kind, camera, size, GPS... of files
          suggest   The photo the user probably wants to send now (exit 3 when none)
          recent    The newest photos, newest first: the picker that opens after "+"
          watch     Report files inserted, removed or changed in a folder, and new suggestions
          thumbnail The picture to show for photos and videos, at a size (shared freedesktop cache)
          serve     Keep a live library of folders, so suggest answers at once (a user service)
          status    Whether a running serve answers for folders (exit 3 when none)
          dismiss   Mark everything up to now as seen, for the profile
          forget    Clear what was offered or dismissed for the profile

        Run 'photometa <command> --help' (or 'photometa help <command>') for a command's options.

        OPTIONS:
          -h, --help     Show this help.
          --version      Show the version.

        EXIT STATUS:
          0 success; 1 failure (inspect: some files could not be read; watch, serve: the folder
          disappeared; serve: another serve has these folders); 3 suggest found nothing,
          recent nothing to list, status no service; 4 suggest: the photo is still being
          written; 64 usage error; 66 folder cannot be read;
          74 the output could not be written (e.g. the disk is full).
        """

    static func main() {
        // A closed stdout must stay closed to our own writes, not lend its number to a socket.
        StandardDescriptors.holdClosed()
        // A reader that quits early (photometa ... | head) must not kill us with SIGPIPE.
        Signals.ignoreBrokenPipe()
        // The arguments as bytes: a path that is not valid UTF-8 must still name its file
        // (CommandLine.arguments would replace such bytes with U+FFFD).
        var code = run(FileSystem.arguments())
        Output.flush()
        // Output that did not arrive is a failure (a closed pipe excepted: the reader chose to
        // stop reading).
        if let e = Output.stdoutFailure, !FileDescriptorOutput.isBrokenPipe(e) {
            Output.err("photometa: cannot write to standard output: \(e)")
            code = .ioError
        }
        exit(code.rawValue)
    }

    static func run(_ args: [String]) -> ExitCode {
        guard let command = args.first else {
            return usage(UsageError("missing command (try 'photometa inspect FILE')"), nil)
        }
        let rest = Array(args.dropFirst())
        switch command {
        case "help" where rest.count == 1 && rest[0] != "help":
            return run([rest[0], "--help"])  // `photometa help inspect`, as git and cargo read it
        case "-h", "--help", "help":
            Output.out(help + "\n")
            return .success
        case "--version":
            Output.out("photometa \(version)\n")
            return .success
        case "inspect":
            return dispatch(rest, help: InspectCommand.help, name: "inspect") { () throws(UsageError) in
                try InspectCommand(arguments: rest).run()
            }
        case "suggest":
            return dispatch(rest, help: SuggestCommand.help, name: "suggest") { () throws(UsageError) in
                try SuggestCommand(arguments: rest).run()
            }
        case "recent":
            return dispatch(rest, help: RecentCommand.help, name: "recent") { () throws(UsageError) in
                try RecentCommand(arguments: rest).run()
            }
        case "thumbnail":
            return dispatch(rest, help: ThumbnailCommand.help, name: "thumbnail") { () throws(UsageError) in
                try ThumbnailCommand(arguments: rest).run()
            }
        case "watch":
            return dispatch(rest, help: WatchCommand.help, name: "watch") { () throws(UsageError) in
                try WatchCommand(arguments: rest).run()
            }
        case "serve":
            return dispatch(rest, help: ServeCommand.help, name: "serve") { () throws(UsageError) in
                try ServeCommand(arguments: rest).run()
            }
        case "status":
            return dispatch(rest, help: StatusCommand.help, name: "status") { () throws(UsageError) in
                try StatusCommand(arguments: rest).run()
            }
        case "dismiss":
            return dispatch(rest, help: DismissCommand.help, name: "dismiss") { () throws(UsageError) in
                try DismissCommand(arguments: rest).run()
            }
        case "forget":
            return dispatch(rest, help: ForgetCommand.help, name: "forget") { () throws(UsageError) in
                try ForgetCommand(arguments: rest).run()
            }
        default:
            return usage(UsageError("unknown command '\(command)'"), nil)
        }
    }

    /// `--help` anywhere among a command's arguments shows its help; usage errors exit 64.
    static func dispatch(
        _ rest: [String], help: String, name: String,
        _ body: () throws(UsageError) -> ExitCode
    ) -> ExitCode {
        let options = rest.prefix { $0 != "--" }
        if options.contains("-h") || options.contains("--help") {
            Output.out(help + "\n")
            return .success
        }
        do throws(UsageError) {
            return try body()
        } catch {
            return usage(error, name)
        }
    }

    static func usage(_ e: UsageError, _ command: String?) -> ExitCode {
        Output.err("photometa: \(e.message)")
        Output.err("Run 'photometa \(command.map { $0 + " " } ?? "")--help' for usage.")
        return .usage
    }
}
