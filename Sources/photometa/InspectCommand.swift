import Foundation
import PhotoMeta
import PhotoMetaCore
import Synchronization

/// `photometa inspect [-r] [--json | --jsonl] [--tz ZONE] [--files-from FILE [-0]] PATH...`
struct InspectCommand {
    typealias Format = ListFormat

    static let help = """
        USAGE: photometa inspect [-r] [--json | --jsonl] [--tz ZONE] [--files-from FILE [-0]]
                                 [--keep-going] [--exclude GLOB] [--no-sidecars] [-q] PATH...

        Reports, for every file, its true capture date (with its source and UTC offset), format,
        kind (photo, screenshot, gif, livePhoto, video), camera, size, orientation, GPS position and
        embedded thumbnail. The format is detected from the content, never from the extension.

        OPTIONS:
          -r, --recursive     Inspect the contents of directories, recursively. Hidden files are
                              skipped; files that are not images or videos are skipped and counted
                              on stderr; files that cannot be read are errors.
          --json              One JSON array of all files.
          --jsonl             One JSON object per line, streamed as files finish (in path order).
          --tz ZONE           Zone for dates whose file gives no UTC offset, and for showing
                              instants (e.g. Asia/Shanghai, UTC, +08:00). Default: the process's
                              local zone (TZ in any form glibc reads, with a warning when it
                              names no zone). Zone names are matched in any case. The report
                              marks such values as assumed.
          --files-from FILE   Also inspect the paths listed in FILE ("-": standard input), one
                              per line, after the PATHs; listed folders are walked with -r.
                              Results come in the list's order, read as it goes (a list of any
                              length); a path listed twice gets two entries.
          -0, --null          The list is NUL-separated (find -print0), not one path per line.
          --keep-going        Exit 0 when every failure is a file that could not be read and
                              has its entry (with "error"); a folder that cannot be listed still
                              exits 1. For RDD.pipe, parallel --halt and other batch runners.
          --exclude GLOB      With -r: leave out paths below each folder that match (repeatable):
                              * and ? within a name, ** across folders; a pattern without /
                              matches a name at any depth.
          --no-sidecars       Do not read XMP sidecars (NAME.EXT.xmp, NAME.xmp) or Google
                              Takeout JSON (NAME.EXT.json...) beside the files: their dates
                              rank below the file's own and above its name.
          -q, --quiet         No progress line and no summary lines on stderr (errors stay).
          -h, --help          Show this help.

        PATH may be omitted with --files-from. On a terminal, long runs (-r, --files-from) show a
        progress line on stderr, redrawn at most ten times a second and erased at the end.

        Files named on the command line always get an entry; one that is not a supported format gets
        format "unknown" and an error.

        EXIT STATUS:
          0   every file was read (with --keep-going: every failure is in its entry)
          1   some files could not be read (each reported on stderr as "photometa: PATH: reason")
          64  usage error
          66  the --files-from list cannot be read
          74  the output could not be written (e.g. the disk is full)

        Names are shown with control characters escaped (\\e, \\n, \\x9b, \\u{202E}...); JSON keeps
        them exact (as \\u escapes).
        """

    var recursive = false
    var format = Format.text
    var zone: TimeZone
    var paths: [String] = []
    var filesFrom: String?
    var nul = false
    var keepGoing = false
    var sidecars = true
    var quiet = false
    var exclude: [String] = []

    init(arguments: [String]) throws(UsageError) {
        var cursor = ArgumentCursor(arguments)
        var zoneOption: TimeZone?
        while let opt = try cursor.nextOption() {
            switch opt.name {
            case "-r", "--recursive": recursive = true
            case "--json", "--jsonl": format = try ListFormat.choose(opt.name, over: format)
            case "--tz": zoneOption = try ZoneArgument.parse(try cursor.value(for: opt, example: "Asia/Shanghai"))
            case "--files-from":
                guard filesFrom == nil else { throw UsageError("--files-from is given once (one list)") }
                filesFrom = try cursor.value(for: opt, example: "list.txt")
            case "-0", "--null": nul = true
            case "--keep-going": keepGoing = true
            case "--no-sidecars": sidecars = false
            case "-q", "--quiet": quiet = true
            case "--exclude": exclude.append(try ExcludeArgument.parse(try cursor.value(for: opt, example: "'**/cache/**'")))
            default: throw UsageError("unknown option '\(opt.name)'")
            }
            if opt.inlineValue != nil, opt.name != "--tz", opt.name != "--files-from", opt.name != "--exclude" {
                throw UsageError("\(opt.name) takes no value")
            }
        }
        paths = cursor.positionals
        zone = zoneOption ?? ZoneArgument.processDefault()
        guard !paths.isEmpty || filesFrom != nil else { throw UsageError("inspect needs at least one PATH (or --files-from)") }
        guard !nul || filesFrom != nil else { throw UsageError("-0 is for --files-from lists") }
        guard exclude.isEmpty || recursive else { throw UsageError("--exclude is for folders walked with -r") }
    }

    func run() -> ExitCode {
        // It reads files and prints: no writes, no sockets, no programs (docs/sandbox.md).
        SelfConfinement.apply(SelfConfinement.Needs())
        let tally = Tally()
        var fileList: InspectionRunner.FileList?
        if let filesFrom {
            do throws(SystemError) {
                fileList = try InspectionRunner.FileList(path: filesFrom, nul: nul)
            } catch {
                Output.err("photometa: cannot read the list \(filesFrom): \(error)")
                return .noInput
            }
        }
        let progress = recursive || fileList != nil ? ProgressLine.start(quiet: quiet) : nil
        if format == .json { Output.out("[") }
        // --jsonl streams: lines are written within 10 ms of being ready. A few files named
        // here are inspected at once on this thread, and printed at its end.
        if format == .jsonl, !InspectionRunner.runsInline(paths: paths, recursive: recursive, fileList: fileList) {
            Output.flushPeriodically()
        }
        inspectAll(fileList, tally: tally, progress: progress)
        if format == .json { Output.out(tally.emitted > 0 ? "\n]\n" : "]\n") }
        Output.flush()
        progress?.finish()
        return finish(fileList, tally: tally)
    }

    /// What a worker hands over: nil for a file skipped as not media.
    private struct Rendered: Sendable {
        var text: String
        var path: String
        var error: String?
    }

    /// Inspects every path (on all cores) and prints each row in order.
    private func inspectAll(_ fileList: InspectionRunner.FileList?, tally: Tally, progress: ProgressLine?) {
        let report = AssetReport(zone: zone)
        let format = self.format
        // Output that can no longer be written (`| head` quit, a full disk) ends the run: the
        // rest would be parsed for no one.
        let stop = StopFlag()
        InspectionRunner.run(
            paths: paths, fileList: fileList, recursive: recursive, exclude: exclude, sidecars: sidecars, stop: stop,
            scanned: { count, finished in
                if finished { progress?.set(total: count) }
            },
            problem: { problem in
                switch problem {
                case .unreadable(let path, let reason):
                    tally.addFailure(inEntry: false)
                    Output.err("photometa: \(path): \(reason)")
                case .notAFile:
                    tally.addSkipped()
                }
            },
            render: { item, asset -> Rendered? in
                // Inside directories, files that are not media are skipped and counted; files that
                // could not be read at all are errors (`MediaAsset.isNotMedia`).
                if asset.isNotMedia, !item.explicit { return nil }
                let text = format == .text ? report.text(asset) : report.json(asset)
                return Rendered(text: text, path: asset.path, error: asset.error?.description)
            },
            emit: { rendered in
                progress?.increment()
                guard let r = rendered else { return tally.addSkipped() }
                if let e = r.error {
                    tally.addFailure(inEntry: true)
                    Output.err("photometa: \(r.path): \(e)")
                }
                let first = tally.emitted == 0
                switch format {
                case .text: Output.out((first ? "" : "\n") + r.text)
                case .json: Output.out((first ? "\n" : ",\n") + r.text)
                case .jsonl: Output.out(r.text + "\n")
                }
                tally.addEmitted()
                if Output.stdoutFailure != nil { stop.set() }
            })
    }

    /// The end of the run: a list cut short, the count of skipped files, the exit status.
    private func finish(_ fileList: InspectionRunner.FileList?, tally: Tally) -> ExitCode {
        let listFailure = fileList?.failure
        if let e = listFailure {
            Output.err("photometa: the list \(filesFrom ?? "-") could not be read to its end: \(e)")
        }
        let skipped = tally.skipped
        if skipped > 0, !quiet {
            Output.err(
                "photometa: skipped \(skipped) file\(skipped == 1 ? "" : "s") that \(skipped == 1 ? "is" : "are") not images or videos"
            )
        }
        // The list itself failed (a read error midway): 66, as for a list that cannot be opened.
        if listFailure != nil { return .noInput }
        if keepGoing { return tally.failedOutsideEntries > 0 ? .someFailed : .success }
        return tally.failed > 0 ? .someFailed : .success
    }
}

/// Counters of one run: `emitted` is touched only from the serialized `emit` callback, the
/// others also from the scanning thread.
final class Tally: Sendable {
    private struct Counts {
        var emitted = 0
        var failures = 0
        /// Failures without an entry of their own (a folder that cannot be listed...).
        var failuresOutsideEntries = 0
        var skips = 0
    }
    private let counts = Mutex(Counts())
    var emitted: Int { counts.withLock { $0.emitted } }
    var failed: Int { counts.withLock { $0.failures } }
    var failedOutsideEntries: Int { counts.withLock { $0.failuresOutsideEntries } }
    var skipped: Int { counts.withLock { $0.skips } }
    func addEmitted() { counts.withLock { $0.emitted += 1 } }
    /// `inEntry`: the failure is recorded in the file's own entry (its `error`).
    func addFailure(inEntry: Bool) {
        counts.withLock {
            $0.failures += 1
            if !inEntry { $0.failuresOutsideEntries += 1 }
        }
    }
    func addSkipped() { counts.withLock { $0.skips += 1 } }
}
