#if canImport(Glibc)
import Glibc
#endif
import PhotoMeta

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
                (photometa inspect --help for details)

    OPTIONS:
      -h, --help     Show this help.
      --version      Show the version.

    EXIT STATUS:
      0 success, 1 some files failed, 64 usage error.
    """

    static func main() {
        // A reader that quits early (photometa ... | head) must not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let args = Array(CommandLine.arguments.dropFirst())
        let code = run(args)
        Output.flush()
        exit(code.rawValue)
    }

    static func run(_ args: [String]) -> ExitCode {
        guard let command = args.first else {
            return usage(UsageError("missing command (try 'photometa inspect FILE')"), nil)
        }
        let rest = Array(args.dropFirst())
        switch command {
        case "-h", "--help", "help":
            Output.out(help + "\n")
            return .success
        case "--version":
            Output.out("photometa \(version)\n")
            return .success
        case "inspect":
            if rest.contains("-h") || rest.contains("--help") {
                Output.out(InspectCommand.help + "\n")
                return .success
            }
            do throws(UsageError) {
                return try InspectCommand(arguments: rest).run()
            } catch {
                return usage(error, "inspect")
            }
        default:
            return usage(UsageError("unknown command '\(command)'"), nil)
        }
    }

    static func usage(_ e: UsageError, _ command: String?) -> ExitCode {
        Output.err("photometa: \(e.message)")
        Output.err("Run 'photometa \(command.map { $0 + " " } ?? "")--help' for usage.")
        return .usage
    }
}
