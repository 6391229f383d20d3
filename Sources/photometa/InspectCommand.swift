import Foundation
import PhotoMeta

/// `photometa inspect [-r] [--json | --jsonl] [--tz ZONE] PATH...`
struct InspectCommand {
    enum Format { case text, json, jsonl }

    static let help = """
    USAGE: photometa inspect [-r] [--json | --jsonl] [--tz ZONE] PATH...

    Reports, for every file, its true capture date (with its source and UTC offset), format,
    kind (photo, screenshot, gif, livePhoto, video), camera, size, orientation, GPS position and
    embedded thumbnail. The format is detected from the content, never from the extension.

    OPTIONS:
      -r, --recursive   Inspect the contents of directories, recursively. Hidden files are
                        skipped; files that are not images or videos are skipped and counted
                        on stderr; files that cannot be read are errors.
      --json            One JSON array of all files.
      --jsonl           One JSON object per line, streamed as files finish (sorted by path).
      --tz ZONE         Zone for dates whose file gives no UTC offset, and for showing
                        instants (e.g. Asia/Shanghai, UTC, +08:00). Default: the process's
                        local zone (TZ). The report marks such values as assumed.
      -h, --help        Show this help.

    Files named on the command line always get an entry; one that is not a supported format gets
    format "unknown" and an error.

    EXIT STATUS:
      0   every file was read
      1   some files could not be read (each reported on stderr as "photometa: PATH: reason")
      64  usage error
    """

    var recursive = false
    var format = Format.text
    var zone = TimeZone.current
    var paths: [String] = []

    init(arguments: [String]) throws(UsageError) {
        var i = 0
        var onlyPaths = false
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if onlyPaths || !arg.hasPrefix("-") || arg == "-" {
                paths.append(arg)
                continue
            }
            switch arg {
            case "--": onlyPaths = true
            case "-r", "--recursive": recursive = true
            case "--json":
                guard format != .jsonl else { throw UsageError("--json and --jsonl cannot be combined") }
                format = .json
            case "--jsonl":
                guard format != .json else { throw UsageError("--json and --jsonl cannot be combined") }
                format = .jsonl
            case "--tz":
                guard i < arguments.count else { throw UsageError("--tz needs a zone, e.g. --tz Asia/Shanghai") }
                zone = try ZoneArgument.parse(arguments[i])
                i += 1
            default:
                if arg.hasPrefix("--tz=") {
                    zone = try ZoneArgument.parse(String(arg.dropFirst(5)))
                } else {
                    throw UsageError("unknown option '\(arg)'")
                }
            }
        }
        guard !paths.isEmpty else { throw UsageError("inspect needs at least one PATH") }
    }

    func run() -> ExitCode {
        let scan = PathScanner(recursive: recursive).scan(paths)
        var failed = false
        for e in scan.errors {
            Output.err("photometa: \(e.path): \(e.reason)")
            failed = true
        }
        let report = AssetReport(zone: zone)
        let items = scan.items
        let tally = Tally()
        if format == .json { Output.out("[") }
        let format = self.format
        /// What a worker hands over: nil for a file skipped as not media.
        struct Rendered: Sendable {
            var text: String
            var path: String
            var error: String?
        }
        InspectionRunner.run(scan, render: { index, asset -> Rendered? in
            // Inside directories, files that were read and are not media are skipped and
            // counted; files that could not be read at all (no fileSize) are errors.
            if asset.error != nil, !items[index].explicit, asset.format == .unknown, asset.fileSize != nil {
                return nil
            }
            let text: String
            switch format {
            case .text: text = report.text(asset)
            case .json, .jsonl: text = report.json(asset)
            }
            return Rendered(text: text, path: asset.path, error: asset.error)
        }, emit: { _, rendered in
            guard let r = rendered else {
                tally.skipped += 1
                return
            }
            if let e = r.error {
                tally.failed += 1
                Output.err("photometa: \(r.path): \(e)")
            }
            switch format {
            case .text: Output.out((tally.emitted > 0 ? "\n" : "") + r.text)
            case .json: Output.out((tally.emitted > 0 ? ",\n" : "\n") + r.text)
            case .jsonl:
                Output.out(r.text + "\n")
                Output.flush()
            }
            tally.emitted += 1
        })
        if format == .json { Output.out(tally.emitted > 0 ? "\n]\n" : "]\n") }
        Output.flush()
        if tally.skipped > 0 || scan.skippedSpecial > 0 {
            let n = tally.skipped + scan.skippedSpecial
            Output.err("photometa: skipped \(n) file\(n == 1 ? "" : "s") that \(n == 1 ? "is" : "are") not images or videos")
        }
        return failed || tally.failed > 0 ? .someFailed : .success
    }
}

/// Counters touched only from the runner's serialized `emit` callback.
final class Tally: @unchecked Sendable {
    var emitted = 0
    var failed = 0
    var skipped = 0
}

enum ZoneArgument {
    /// An IANA name (`Asia/Shanghai`), `UTC`, or a fixed offset (`+08:00`, `-0530`).
    static func parse(_ text: String) throws(UsageError) -> TimeZone {
        if let o = DateTextParser.offset(text), text.first == "+" || text.first == "-" {
            if let z = TimeZone(secondsFromGMT: o.seconds) { return z }
        }
        // Foundation on Linux renames "UTC" to "GMT"; keep the name people typed recognisable.
        if text == "UTC" || text == "Z", let z = TimeZone(identifier: "Etc/UTC") { return z }
        if let z = TimeZone(identifier: text) { return z }
        throw UsageError("unknown time zone '\(text)' (use an IANA name such as Europe/Paris, UTC, or an offset such as +08:00)")
    }
}
