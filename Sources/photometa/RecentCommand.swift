import Foundation
import PhotoMeta
import PhotoMetaCore
import PhotoMetaThumbnailCache

/// `photometa recent [DIR...] ...`: the newest photos, the picker that opens after "+".
struct RecentCommand {
    static let help = """
        USAGE: photometa recent [DIR...] [-n N] [--kind KIND]... [--json | --jsonl] [--tz ZONE]
                                [--exclude GLOB]... [--no-index] [--no-service] [--thumbnail [SIZE]]
                                [--thumbnail-mode fit|fill|crop] [-q]

        Lists the newest N assets in the DIRs (recursively; by default the pictures folder,
        XDG_PICTURES_DIR of user-dirs.dirs, else ~/Pictures) by capture instant, newest first;
        equal instants in path byte order: the photo picker a chat app opens after "+". The
        files are those suggest considers (images and videos, the movie of a Live Photo folded
        into its still, unreadable and non-media files left out), with no recency window and no
        memory: nothing is recorded. A file under several names (links) is listed once. Files
        without a capture date are left out. A file still being written is listed (this is a
        listing, not an offer).

        OPTIONS:
          -n N                How many to list (default 20, at most 1000000).
          --kind KIND         List only this kind (repeatable): photo, screenshot, livePhoto,
                              gif, video. Default: every still kind (photo, screenshot,
                              livePhoto, gif); videos only with --kind video.
          --json              One JSON array of the inspect rows of the listed files, in order
                              (docs/json.md).
          --jsonl             One inspect row per line.
          --tz ZONE           Zone for capture dates without a UTC offset, and for showing
                              instants (default: TZ / local zone).
          --exclude GLOB      Leave out paths below DIR that match (repeatable), as for suggest.
          --no-service        Scan even when a running `photometa serve` serves these DIRs
                              (by default it lists them at once; docs/service.md).
          --no-index          Parse every file instead of using the index
                              ($XDG_CACHE_HOME/photometa/index.sqlite3, else ~/.cache/photometa/...).
          --thumbnail [SIZE]  Also make each listed file's thumbnail (default 256 px, at most
                              1024) in the shared freedesktop cache: a fourth column (- when
                              none), or JSON thumbnailFile and thumbnailError. Failures are
                              reported on stderr and the listing stands.
          --thumbnail-mode M  fit (default), fill or crop, as for suggest.
          -q, --quiet         No progress line and no "nothing to list" line on stderr.
          -h, --help          Show this help.

        OUTPUT: one line per asset, CAPTURED  KIND  PATH, CAPTURED being the capture instant
        in ISO 8601 in the --tz zone (2024-08-08T20:08:20+08:00); names are shown with control
        characters escaped.

        EXIT STATUS:
          0   something was listed
          3   nothing to list
          64  usage error
          66  a DIR cannot be read (or, without DIR, the pictures folder does not exist)
          74  the output could not be written
        """

    /// The largest `-n`: the listing is kept in memory.
    static let largestLimit = 1_000_000

    var folders: FolderArguments
    var options = PhotoLibrary.Options(zone: .current)
    var limit = PhotoLibrary.defaultLimit
    var kinds: Set<MediaKind> = []
    var format = ListFormat.text
    var thumbnail: OfferThumbnail?
    var quiet = false

    init(arguments: [String]) throws(UsageError) {
        var cursor = ArgumentCursor(arguments)
        var zoneOption: TimeZone?
        var mode: ThumbnailRequest.Mode?
        while let opt = try cursor.nextOption() {
            switch opt.name {
            case "-n": limit = try RecentCommand.count(try cursor.value(for: opt, example: "50"))
            case "--kind": kinds.insert(try RecentCommand.kind(try cursor.value(for: opt, example: "screenshot")))
            case "--json", "--jsonl": format = try ListFormat.choose(opt.name, over: format)
            case "--tz": zoneOption = try ZoneArgument.parse(try cursor.value(for: opt, example: "Asia/Shanghai"))
            case "--exclude":
                options.exclude.append(try ExcludeArgument.parse(try cursor.value(for: opt, example: "'**/cache/**'")))
            case "--no-index": options.indexPath = nil
            case "--no-service": options.useService = false
            case "--thumbnail": thumbnail = try OfferThumbnail.parse(&cursor, opt)
            case "--thumbnail-mode": mode = try OfferThumbnail.mode(try cursor.value(for: opt, example: "crop"))
            case "-q", "--quiet": quiet = true
            default: throw UsageError("unknown option '\(opt.name)'")
            }
            if opt.inlineValue != nil, !["--kind", "--tz", "--exclude", "--thumbnail", "--thumbnail-mode"].contains(opt.name) {
                throw UsageError("\(opt.name) takes no value")
            }
        }
        thumbnail = try OfferThumbnail.with(mode: mode, thumbnail)
        folders = FolderArguments(cursor.positionals)
        options.zone = zoneOption ?? ZoneArgument.processDefault()
        if kinds.isEmpty { kinds = PhotoLibrary.stillKinds }
    }

    /// `-n`: a whole number from 1 to `largestLimit`.
    static func count(_ text: String) throws(UsageError) -> Int {
        guard let n = Int(text), (1...largestLimit).contains(n) else {
            throw UsageError("-n '\(text)' is not a number from 1 to \(largestLimit)")
        }
        return n
    }

    /// `--kind`: one of the kinds a photo picker shows (any case).
    static func kind(_ text: String) throws(UsageError) -> MediaKind {
        let known: [MediaKind] = [.photo, .screenshot, .livePhoto, .gif, .video]
        guard let k = known.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
            throw UsageError("--kind must be photo, screenshot, livePhoto, gif or video (not '\(text)')")
        }
        return k
    }

    func run() -> ExitCode {
        SelfConfinement.apply(.scanning([self.options.indexPath, thumbnail?.picturesFile], thumbnails: thumbnail != nil))
        var options = self.options
        let progress = ProgressLine.start(quiet: quiet)
        options.progress = { considered in progress?.set(done: considered) }
        let listing: PhotoLibrary.Recent
        do throws(SuggestError) {
            listing = try PhotoLibrary(folders: folders.folders, options: options).recent(limit: limit, kinds: kinds)
            progress?.finish()
        } catch {
            progress?.finish()
            return SuggestCommand.report(error, folders: folders)
        }
        for n in listing.notes { Output.err("photometa: note: \(n)") }
        let pictures = thumbnail?.outcomes(listing.assets.map(\.path))
        show(listing.assets, pictures: pictures)
        if listing.assets.isEmpty {
            if !quiet {
                let named = folders.folders.joined(separator: ", ")
                Output.err("photometa: nothing to list in \(named) (no \(kindNames) with a capture date)")
            }
            return .noSuggestion
        }
        return .success
    }

    /// The asked kinds, for people.
    private var kindNames: String {
        kinds.map(\.rawValue).sorted().joined(separator: ", ")
    }

    /// Prints the listing in the chosen format.
    private func show(_ assets: [MediaAsset], pictures: [ThumbnailOutcome]?) {
        let report = RecentReport(zone: options.zone)
        switch format {
        case .text:
            for (i, a) in assets.enumerated() { Output.out(report.text(a, thumbnail: pictures?[i])) }
        case .json:
            let rows = assets.enumerated().map { i, a in report.json(a, thumbnail: pictures?[i]) }
            Output.out(rows.isEmpty ? "[]\n" : "[\n" + rows.joined(separator: ",\n") + "\n]\n")
        case .jsonl:
            for (i, a) in assets.enumerated() { Output.out(report.json(a, thumbnail: pictures?[i]) + "\n") }
        }
    }
}
