import Foundation
import PhotoMeta
import PhotoMetaCore
import PhotoMetaThumbnailCache

/// The folders a command was given, or the user's pictures folder when none was.
struct FolderArguments {
    var folders: [String]
    /// Set when the pictures folder was taken for want of a DIR (for --explain and hints).
    var defaultSource: String?

    init(_ positionals: [String]) {
        if positionals.isEmpty {
            let (path, source) = PicturesFolder.locate()
            folders = [path]
            defaultSource = source
        } else {
            folders = positionals
            defaultSource = nil
        }
    }
}

/// `photometa suggest [DIR...] ...`: the photo worth offering now.
struct SuggestCommand {
    static let help = """
        USAGE: photometa suggest [DIR...] [--within 60s] [--now ISO8601] [--tz ZONE]
                                 [--screenshots include|exclude|only] [--videos] [--peek]
                                 [--explain] [--json] [--state PATH] [--profile NAME]
                                 [--exclude GLOB] [--no-index] [--no-service] [--standing] [--wait D]
                                 [--thumbnail [SIZE]] [--thumbnail-mode fit|fill|crop] [-q]

        Picks the photo the user probably wants to send right now: the newest still image in the
        DIRs (recursively; by default the pictures folder, XDG_PICTURES_DIR of user-dirs.dirs, else
        ~/Pictures) captured within --within of now, not yet offered or dismissed, and completely
        written. The offer is remembered for the profile, across all folders, so it is never made
        twice.

        OPTIONS:
          --within DURATION   How recent a capture must be (default 60s). Durations: numbers with
                          units d, h, m, s, ms, largest first, each once (10s, 2m, 1h30m, 500ms),
                          at most 3650d.
          --now ISO8601       Decide as if it were this instant (default: the clock). Files still being
                              written are judged on the real clock either way.
          --tz ZONE           Zone for capture dates without a UTC offset (default: TZ / local zone).
          --screenshots MODE  include (default), exclude, or only.
          --videos            Offer videos too (stills only by default).
          --peek              Decide, but do not record the offer.
          --explain           List every file considered and the rule that turned it down.
          --json              Machine-readable output (see docs/suggest.md).
          --state PATH        The memory file (default $XDG_STATE_HOME/photometa/state.sqlite3,
                              else ~/.local/state/photometa/state.sqlite3).
          --profile NAME      Whose memory (default "default"): a second consumer (another chat
                              app) keeps its own.
          --wait DURATION     When the newest photo is still being written, wait up to DURATION
                              for it to be complete before deciding (default 0: say so at once,
                              exit 4).
          -q, --quiet         No progress line on stderr (shown on a terminal during long runs).
          --exclude GLOB      Leave out paths below DIR that match (repeatable): * and ? within a
                              name, ** across folders; a pattern without / matches a name at
                              any depth (--exclude Screenshots, --exclude 'Downloads/**').
          --thumbnail [SIZE]  Also make the offer's thumbnail (default 256 px, at most 1024), in the
                              shared freedesktop cache: a line "thumbnail: PATH", or JSON
                              suggestion.thumbnail. A thumbnail failure is reported on stderr
                              (JSON thumbnailError) and the suggestion stands.
          --thumbnail-mode M  fit (default: inside SIZE, from the shared cache), fill (covers
                              SIZExSIZE) or crop (exactly SIZExSIZE, cut from the centre): fill
                              and crop are PNGs in $XDG_CACHE_HOME/photometa/offers/, cut from a
                              larger cached picture when there is one.
          --standing          What is on offer now: the profile's last offer while it stands (its
                              file still in the DIRs, captured within --within, not dismissed nor
                              superseded), recording nothing; exit 0, or 3 when none stands
                              (JSON "standing": true).
          --no-service        Scan the folders even when a running `photometa serve` serves them
                              (by default it answers when it serves these DIRs with the same
                              --exclude, or folders above them; see docs/service.md).
          --no-index          Parse every file instead of using the index
                              ($XDG_CACHE_HOME/photometa/index.sqlite3, else ~/.cache/photometa/...).
          -h, --help          Show this help.

        EXIT STATUS:
          0   a suggestion was made
          3   nothing to suggest
          4   the photo to offer is still being written: ask again (the output says when)
          1   error (e.g. the state file is corrupt or another program's)
          64  usage error
          66  a DIR cannot be read (or, without DIR, the pictures folder does not exist)
          74  the output could not be written (the offer is then not recorded)
        """

    var folders: FolderArguments
    var options = Suggester.Options(settings: SuggestionSettings(zone: .current))
    var explain = false
    var json = false
    var thumbnail: OfferThumbnail?
    var quiet = false
    var standing = false

    init(arguments: [String]) throws(UsageError) {
        var cursor = ArgumentCursor(arguments)
        var zoneOption: TimeZone?
        var nowText: String?
        var mode: ThumbnailRequest.Mode?
        while let opt = try cursor.nextOption() {
            switch opt.name {
            case "--within":
                options.settings.within = try DurationArgument.parse(
                    try cursor.value(for: opt, example: "10s"), option: "--within")
            case "--now": nowText = try cursor.value(for: opt, example: "2024-08-08T12:08:20Z")
            case "--tz": zoneOption = try ZoneArgument.parse(try cursor.value(for: opt, example: "Asia/Shanghai"))
            case "--screenshots":
                let v = try cursor.value(for: opt, example: "exclude")
                guard let mode = SuggestionSettings.Screenshots(rawValue: v) else {
                    throw UsageError("--screenshots must be include, exclude or only (not '\(v)')")
                }
                options.settings.screenshots = mode
            case "--videos": options.settings.includeVideos = true
            case "--peek": options.record = false
            case "--wait": options.wait = try DurationArgument.parse(try cursor.value(for: opt, example: "2s"), option: "--wait")
            case "--explain": explain = true
            case "--json": json = true
            case "--state": options.statePath = try cursor.path(for: opt, example: "~/state.sqlite3")
            case "--profile": options.profile = try ProfileArgument.parse(try cursor.value(for: opt, example: "work"))
            case "--no-index": options.indexPath = nil
            case "--no-service": options.useService = false
            case "--standing": standing = true
            case "--exclude":
                options.exclude.append(try ExcludeArgument.parse(try cursor.value(for: opt, example: "'**/cache/**'")))
            case "-q", "--quiet": quiet = true
            case "--thumbnail": thumbnail = try OfferThumbnail.parse(&cursor, opt)
            case "--thumbnail-mode": mode = try OfferThumbnail.mode(try cursor.value(for: opt, example: "crop"))
            default: throw UsageError("unknown option '\(opt.name)'")
            }
        }
        thumbnail = try OfferThumbnail.with(mode: mode, thumbnail)
        guard !(standing && explain) else { throw UsageError("--explain is for a choice; --standing only reads the memory") }
        folders = FolderArguments(cursor.positionals)
        let zone = zoneOption ?? ZoneArgument.processDefault()
        options.settings.zone = zone
        options.explain = explain
        if let nowText { options.now = try InstantArgument.parse(nowText, zone: zone, option: "--now") }
    }

    func run() -> ExitCode {
        SelfConfinement.apply(
            .scanning([options.statePath, options.indexPath, thumbnail?.picturesFile], thumbnails: thumbnail != nil))
        if standing { return runStanding() }
        // Decided without recording; the offer is then made in one step under the memory's
        // write lock (`Suggester.offer`): recorded, then printed, and taken back when the print
        // fails, so an offer nobody saw (stdout on a full disk, a reader gone) is made again,
        // one that could not be recorded is not printed, and of askers racing for one photo
        // exactly one offers it.
        var deciding = options
        deciding.record = false
        let progress = ProgressLine.start(quiet: quiet)
        deciding.progress = { considered in progress?.set(done: considered) }
        var outcome: Suggester.Outcome
        do throws(SuggestError) {
            outcome = try Suggester(options: deciding).run(folders: folders.folders)
            progress?.finish()
        } catch {
            progress?.finish()
            return SuggestCommand.report(error, folders: folders)
        }
        for n in outcome.notes { Output.err("photometa: note: \(n)") }
        let picture = outcome.decision.suggestion.flatMap { s in thumbnail.map { $0.outcome(s.path) } }
        var printed = false
        if options.record, outcome.decision.suggestion != nil {
            do throws(SuggestError) {
                outcome = try Suggester(options: options).offer(outcome) {
                    printed = true
                    show(outcome, recorded: true, thumbnail: picture)
                    return Output.delivered()
                }
            } catch {
                return SuggestCommand.report(error, folders: folders)
            }
        }
        // Not offered in the lock (--peek, nothing to offer, or another asker was first).
        if !printed { show(outcome, recorded: false, thumbnail: picture) }
        let d = outcome.decision
        guard Output.delivered() else {
            // Not recorded; main reports the write error (a closed pipe quietly).
            return d.suggestion == nil ? (d.pending == nil ? .noSuggestion : .pending) : .ioError
        }
        if d.pending != nil { return .pending }
        return d.suggestion == nil ? .noSuggestion : .success
    }

    /// `--standing`: what is on offer now, recording nothing; exit 0 while an offer stands, 3
    /// when none does.
    private func runStanding() -> ExitCode {
        let outcome: Suggester.Outcome
        do throws(SuggestError) {
            outcome = try Suggester(options: options).standing(folders: folders.folders)
        } catch {
            return SuggestCommand.report(error, folders: folders)
        }
        let s = outcome.decision.suggestion
        show(outcome, recorded: false, thumbnail: s.flatMap { s in thumbnail.map { $0.outcome(s.path) } }, standing: true)
        guard Output.delivered() else { return .ioError }
        return s == nil ? .noSuggestion : .success
    }

    /// Prints the answer: JSON, or text (with the --explain table).
    private func show(
        _ outcome: Suggester.Outcome, recorded: Bool, thumbnail: ThumbnailOutcome?, standing: Bool? = nil
    ) {
        let d = outcome.decision
        var report = SuggestReport(
            d, ageSeconds: outcome.age?.seconds, recorded: recorded && d.suggestion != nil, explain: explain,
            skipped: outcome.skipped.map { SuggestReport.Skipped(path: $0.path, reason: $0.reason) },
            zone: options.settings.zone, size: d.suggestion.map { OfferSize.of($0.path) },
            thumbnail: d.suggestion == nil ? nil : thumbnail)
        report.from = outcome.servicePid == nil ? "scan" : "service"
        report.standing = standing
        if json {
            Output.out(report.json(report: AssetReport(zone: options.settings.zone)) + "\n")
        } else {
            let looked = folders.defaultSource.map { "Looked in \(TerminalText.escape(folders.folders[0])) (\($0)).\n" }
            let answered =
                outcome.servicePid.map { "Answered from the live library (photometa serve, pid \($0))." }
                ?? outcome.serviceAbsence.map { "Scanned the folders (\($0))." }
            Output.out(report.text(zone: options.settings.zone, lookedIn: looked, answered: answered))
        }
    }

    /// Errors of suggest, dismiss and forget: 66 for an unreadable folder, 1 for the state file.
    static func report(_ error: SuggestError, folders: FolderArguments) -> ExitCode {
        switch error {
        case .unreadableFolder(let folder, let e):
            Output.err("photometa: \(error.description)")
            if let source = folders.defaultSource {
                Output.err("hint: no folder was given, and the pictures folder (\(source)) cannot be read; pass DIR")
            } else if e.isPermissionDenied {
                Output.err(
                    "hint: photometa needs permission to list and read \(folder) (see: ls -ld \(folder)); nothing was recorded")
            }
            return .noInput
        case .state(let s):
            Output.err("photometa: \(s.description)")
            switch s {
            case .notADatabase, .damaged, .foreign, .newerVersion, .unsafe:
                Output.err("hint: the memory is kept in another file with --state PATH")
            default: break
            }
            return .someFailed
        }
    }
}

enum ProfileArgument {
    /// A profile name: letters, digits, `.`, `_` and `-`, at most 64 (it names a row, and shows
    /// in messages).
    static func parse(_ text: String) throws(UsageError) -> String {
        let ok =
            !text.isEmpty && text.count <= 64
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
            }
        guard ok else { throw UsageError("--profile '\(text)' must be 1 to 64 letters, digits, '.', '_' or '-'") }
        return text
    }
}
