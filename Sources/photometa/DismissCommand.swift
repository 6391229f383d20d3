import Foundation
import PhotoMeta
import PhotoMetaCore

/// `photometa dismiss [DIR...] [--until ISO8601] [--state PATH] [--profile NAME]`
struct DismissCommand {
    static let help = """
        USAGE: photometa dismiss [DIR...] [--until ISO8601] [--tz ZONE] [--state PATH] [--profile NAME]

        Records that everything captured up to now (or up to --until, which may not be later than
        now plus 5 s, the clock difference the rules allow) was seen: suggest, watch and serve
        will not offer it, in any folder. The memory is
        the profile's (--profile, default "default"), not the folder's: the DIRs, when given, are
        only checked to be readable folders (none is needed). The standing offer, if it was
        captured up to then, is withdrawn (a running watch says "withdrawn", reason dismissed).
        The remembered time only moves forward.

        EXIT STATUS: 0 done, 1 state file error, 64 usage error, 66 a DIR cannot be read,
        74 the output could not be written.
        """

    var folders: FolderArguments
    var until: Date?
    var statePath = Suggester.defaultStatePath()
    var profile = Suggester.defaultProfile

    init(arguments: [String]) throws(UsageError) {
        var cursor = ArgumentCursor(arguments)
        var zoneOption: TimeZone?
        var untilText: String?
        while let opt = try cursor.nextOption() {
            switch opt.name {
            case "--until": untilText = try cursor.value(for: opt, example: "2024-08-08T12:00:00Z")
            case "--tz": zoneOption = try ZoneArgument.parse(try cursor.value(for: opt, example: "UTC"))
            case "--state": statePath = try cursor.path(for: opt, example: "~/state.sqlite3")
            case "--profile": profile = try ProfileArgument.parse(try cursor.value(for: opt, example: "work"))
            default: throw UsageError("unknown option '\(opt.name)'")
            }
        }
        folders = FolderArguments(cursor.positionals)
        if let untilText {
            let t = try InstantArgument.parse(untilText, zone: zoneOption ?? ZoneArgument.processDefault(), option: "--until")
            // Dismissing the future would silence everything taken until then (years, for a
            // typing mistake): only up to now, plus the clock skew the rules allow.
            guard t.timeIntervalSinceNow <= 5 else {
                throw UsageError("--until '\(untilText)' is in the future; dismiss only what was taken up to now")
            }
            until = t
        }
    }

    func run() -> ExitCode {
        do throws(SuggestError) {
            // The memory is the profile's: only folders the user named are checked (a missing
            // pictures folder is no reason to refuse).
            let named = folders.defaultSource == nil ? folders.folders : []
            let when = try Suggester.dismiss(folders: named, until: until, profile: profile, statePath: statePath)
            // The memory is the profile's: every folder, not only the ones named.
            let profileNamed = profile == Suggester.defaultProfile ? "" : " (profile \(TerminalText.escape(profile)))"
            // The proleptic Gregorian calendar of `--until` (Foundation's formatter turns to the
            // Julian one before 1582: 0001-01-01 showed as 0001-01-03).
            // The instant is the memory's (the later of it and --until): any number a state file
            // holds, converted only when it is one.
            let shown =
                Int64(exactly: when.timeIntervalSince1970.rounded(.down)).flatMap { LocalDateTime(secondsAsIfUTC: $0) }.map {
                    $0.iso8601 + "Z"
                } ?? ISO8601DateFormatter().string(from: when)
            Output.out("Dismissed everything captured up to \(shown), in every folder\(profileNamed).\n")
            return .success
        } catch {
            return SuggestCommand.report(error, folders: folders)
        }
    }
}
