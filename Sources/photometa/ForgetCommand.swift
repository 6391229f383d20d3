import Foundation
import PhotoMeta
import PhotoMetaCore

/// `photometa forget [DIR...] [--state PATH] [--profile NAME]`
struct ForgetCommand {
    static let help = """
        USAGE: photometa forget [DIR...] [--state PATH] [--profile NAME]

        Clears what photometa remembers of the profile's offers and dismissals (in every folder:
        the memory is the profile's): suggest may offer recent photos again. The DIRs, when
        given, are checked to be readable folders (none is needed).

        EXIT STATUS: 0 done, 1 state file error, 64 usage error, 66 a DIR cannot be read, 74 the
        output could not be written.
        """

    var folders: FolderArguments
    var statePath = Suggester.defaultStatePath()
    var profile = Suggester.defaultProfile

    init(arguments: [String]) throws(UsageError) {
        var cursor = ArgumentCursor(arguments)
        while let opt = try cursor.nextOption() {
            switch opt.name {
            case "--state": statePath = try cursor.path(for: opt, example: "~/state.sqlite3")
            case "--profile": profile = try ProfileArgument.parse(try cursor.value(for: opt, example: "work"))
            default: throw UsageError("unknown option '\(opt.name)'")
            }
        }
        folders = FolderArguments(cursor.positionals)
    }

    func run() -> ExitCode {
        do throws(SuggestError) {
            // The memory is the profile's: only folders the user named are checked.
            let named = folders.defaultSource == nil ? folders.folders : []
            let had = try Suggester.forget(folders: named, profile: profile, statePath: statePath)
            let shown = TerminalText.escape(profile)
            Output.out(
                had
                    ? "Forgot what was offered or dismissed for profile \(shown).\n"
                    : "Nothing remembered for profile \(shown).\n")
            return .success
        } catch {
            return SuggestCommand.report(error, folders: folders)
        }
    }
}
