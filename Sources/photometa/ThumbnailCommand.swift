import Foundation
import PhotoMeta
import PhotoMetaCore
import PhotoMetaSystem
import PhotoMetaThumbnailCache
import Synchronization

/// `photometa thumbnail [--size N | --size WxH] [--fit | --fill | --crop] [--out DIR] ... FILE...`,
/// and `photometa thumbnail --output FILE --size N INPUT`, the desktop's thumbnailer
/// (DesktopThumbnail.swift).
struct ThumbnailCommand {
    typealias Format = ListFormat

    static let help = """
        USAGE: photometa thumbnail [--size N | --size WxH] [--fit | --fill | --crop] [--out DIR]
                                   [--format png|jpeg|webp] [--quality Q] [--fast] [--no-cache]
                                   [--max-pixels N] [--json | --jsonl] [--explain] FILE...
               photometa thumbnail --output FILE [--size N] INPUT

        Makes the picture to show for each photo or video, as a viewer displays it (EXIF
        orientation, HEIF irot/imir, sRGB colour; the first frame of an animation; a frame 10 %
        into a video). Sources, fastest first: a valid entry of the freedesktop thumbnail cache;
        an embedded preview (EXIF, MPF, HEIF thumbnail item, raw preview) at least as large as
        asked whose aspect matches the picture within 1 %; the picture decoded with
        shrink-on-load.

        OPTIONS:
          --size N, --size WxH  The box in pixels (default 256, meaning 256x256; at most 16384).
          --fit                 The whole picture inside the box, aspect kept (default).
          --fill                The picture covers the box, aspect kept, nothing cut. Needs --out.
          --crop                Exactly the box, cut from the centre. Needs --out.
                                No mode ever enlarges a picture beyond its own size.
          --out DIR             Write DIR/NAME.FORMAT at the requested size (NAME is the file's
                                name; DIR is created). Never the media's own folder, unless DIR is
                                written exactly as that folder appears in FILE.
                                Without --out, thumbnails go into the shared freedesktop cache,
                                $XDG_CACHE_HOME/thumbnails/{normal,large,x-large,xx-large} (128,
                                256, 512, 1024 px: the smallest that holds the box), as PNG.
          --output FILE         The desktop's thumbnailer (GNOME, Xfce: the installed
                                share/thumbnailers/photometa.thumbnailer): one PNG at FILE
                                fitted into --size N, written under a temporary name in
                                FILE's folder and renamed; no cache. On failure the status is
                                not 0 and nothing is written at FILE (a device, FIFO or socket
                                at FILE is refused). INPUT may be a file:// URI (%u); other
                                URIs are refused.
          --format F            png (default, keeps alpha), jpeg or jpg (alpha on white) or webp.
                                Needs --out.
          --quality Q           JPEG and WebP quality, 1-100 (default 80).
          --fast                Accept a matching embedded preview smaller than the box: the quick,
                                degraded picture (never stored in the cache). Needs --out.
          --no-cache            Neither read nor write the cache. Needs --out.
          --max-pixels N        Refuse files declaring more pixels (default 100000000).
          --json                One JSON array: {"path", "thumbnail": {"path", "width", "height",
                                "source", "format"} or null, "error": null or "..."}.
          --jsonl               The same objects, one per line.
          --explain             Also say how the decoder was confined (no_new_privs, Landlock,
                                seccomp, limits; docs/sandbox.md): last text lines
                                "confinement: photometa: ..." and "confinement:
                                photometa-thumbnailer: ...", or the helper's "confinement" in
                                each JSON object (null when the cache answered).
          -h, --help            Show this help.

        Text output prints "FILE -> THUMBNAIL (WxH, SOURCE)"; SOURCE is one of cache,
        embedded.exif, embedded.mpf, embedded.heif, embedded.raw, decoded, video.frame.

        EXIT STATUS:
          0   every file got a thumbnail
          1   some did not (each on stderr as "photometa: FILE: reason")
          64  usage error
          74  the output could not be written
        """

    var request = ThumbnailRequest()
    var out: String?
    /// `--output FILE` (DesktopThumbnail).
    var output: String?
    var useCache = true
    var format = Format.text
    var explain = false
    var files: [String] = []

    init(arguments: [String]) throws(UsageError) {
        var cursor = ArgumentCursor(arguments)
        var mode: ThumbnailRequest.Mode?
        var explicitFormat = false
        var qualityGiven = false
        while let opt = try cursor.nextOption() {
            var takesValue = false
            switch opt.name {
            case "--size":
                takesValue = true
                (request.width, request.height) = try Self.size(try cursor.value(for: opt, example: "256"))
            case "--fit", "--fill", "--crop":
                let m = ThumbnailRequest.Mode(rawValue: String(opt.name.dropFirst(2)))
                guard mode == nil || mode == m else { throw UsageError("choose one of --fit, --fill and --crop") }
                mode = m
            case "--out":
                takesValue = true
                out = try cursor.value(for: opt, example: "thumbs")
                guard out?.isEmpty == false else { throw UsageError("--out needs a folder") }
            case "--output":
                takesValue = true
                output = try cursor.value(for: opt, example: "thumbnail.png")
                guard output?.isEmpty == false else { throw UsageError("--output needs a file") }
            case "--format":
                takesValue = true
                let v = try cursor.value(for: opt, example: "png")
                let f = v.lowercased() == "jpg" ? "jpeg" : v.lowercased()
                guard let f = ThumbnailFormat(rawValue: f) else { throw UsageError("--format '\(v)' is not png, jpeg or webp") }
                request.format = f
                explicitFormat = true
            case "--quality":
                takesValue = true
                let v = try cursor.value(for: opt, example: "80")
                guard let q = Int(v), (1...100).contains(q) else { throw UsageError("--quality '\(v)' is not 1 to 100") }
                request.quality = q
                qualityGiven = true
            case "--fast": request.delivery = .fast
            case "--no-cache": useCache = false
            case "--max-pixels":
                takesValue = true
                let v = try cursor.value(for: opt, example: "100000000")
                guard let n = Int(v), n > 0 else { throw UsageError("--max-pixels '\(v)' is not a positive number") }
                request.maxPixels = n
            case "--json", "--jsonl": format = try ListFormat.choose(opt.name, over: format)
            case "--explain": explain = true
            default: throw UsageError("unknown option '\(opt.name)'")
            }
            if opt.inlineValue != nil, !takesValue { throw UsageError("\(opt.name) takes no value") }
        }
        request.mode = mode ?? .fit
        files = cursor.positionals
        guard !files.isEmpty else { throw UsageError("thumbnail needs at least one FILE") }
        if output != nil {
            try DesktopThumbnail.check(&self, explicitFormat: explicitFormat)
        } else if out == nil {
            // The shared cache holds PNGs that fit its four sizes, made from the best picture.
            let needsOut: [(Bool, String)] = [
                (request.mode != .fit, "--\(request.mode.rawValue)"), (explicitFormat && request.format != .png, "--format"),
                (request.delivery == .fast, "--fast"), (!useCache, "--no-cache"),
            ]
            if let (_, name) = needsOut.first(where: { $0.0 }) {
                throw UsageError(
                    "\(name) needs --out DIR: without it thumbnails go into the shared cache, which holds PNGs that fit 128, 256, 512 or 1024 px, never a quick smaller picture"
                )
            }
            guard let bucket = ThumbnailCache.Bucket.holding(max(request.width, request.height)) else {
                throw UsageError("a box over 1024 px needs --out DIR (the shared cache's largest size is 1024)")
            }
            // The answer is the cache's entry for the bucket that holds the box.
            request.width = bucket.rawValue
            request.height = bucket.rawValue
        }
        guard !qualityGiven || request.format != .png else {
            throw UsageError("--quality is for --format jpeg or webp (a PNG is lossless)")
        }
    }

    /// "256" or "320x240".
    static func size(_ text: String) throws(UsageError) -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        let values = parts.compactMap { Int($0) }
        guard values.count == parts.count, (1...2).contains(values.count),
            values.allSatisfy({ (1...ThumbnailRequest.maximumSide).contains($0) })
        else {
            throw UsageError("--size '\(text)' is not N or WxH (1 to \(ThumbnailRequest.maximumSide) pixels)")
        }
        return (values[0], values.count == 2 ? values[1] : values[0])
    }

    typealias Outcome = ThumbnailerProcess.Outcome

    /// The folder the helper writes and each file's name in it: `--output`'s folder and name,
    /// or `--out` (made now) and a name per file; nil (the problem said) when it cannot be.
    func destination() -> (out: String?, names: [String]?)? {
        // A folder that cannot be written is refused here, before any work (exit 74, as for a
        // folder that is not there), not found out file by file.
        if let output {
            switch DesktopThumbnail.target(output, input: files[0]) {
            case .success(let target):
                if let why = FileSystem.writeRefusal(target.folder) {
                    Output.err("photometa: --output \(output): its folder cannot be written (\(why))")
                    return nil
                }
                return (target.folder, [target.name])
            case .failure(let problem):
                Output.err("photometa: " + problem.message)
                return nil
            }
        }
        guard let out else { return (nil, nil) }
        do throws(PrivateFiles.Problem) {
            try OutputFolder.make(out)
        } catch {
            Output.err("photometa: cannot use --out \(out): \(error)")
            return nil
        }
        if let why = FileSystem.writeRefusal(out) {
            Output.err("photometa: cannot use --out \(out): it cannot be written (\(why))")
            return nil
        }
        return (out, OutputFolder.names(files, extension: request.format.fileExtension))
    }

    func run() -> ExitCode {
        let request = self.request
        let files = self.files
        guard let (out, names) = destination() else { return .ioError }
        // It reads the cache and the files' names; the helper, started by the spawner, decodes.
        let own = SelfConfinement.apply(.init(unixSockets: true, thumbnails: true))
        var failed = 0
        if format == .json { Output.out("[") }
        // Files refused here (the media's own folder) never reach the helper; their places
        // in the order are kept.
        var refused: [Int: String] = [:]
        var answered: [Int: Outcome] = [:]
        if let out, output == nil {
            for (i, f) in files.enumerated() {
                if let why = OutputFolder.refusal(out, for: f) { refused[i] = why }
            }
        }
        // Cache hits are answered here, without starting the thumbnailer (and libvips).
        if out == nil, useCache {
            for (i, hit) in ThumbnailerProcess.cacheHits(files, side: request.width).enumerated() {
                if let hit { answered[i] = Outcome(file: files[i], thumbnail: hit, error: nil) }
            }
        }
        let sent = files.indices.filter { refused[$0] == nil && answered[$0] == nil }
        var next = 0
        let format = self.format
        let explain = self.explain
        var confinement: Confinement?
        let keptInCache = out == nil && output == nil
        func print(_ i: Int, _ o: Outcome) {
            var o = o
            // Without --out or --output the product is the cache's file: one made but not
            // stored there (a cache folder that cannot be written) reached nobody.
            if keptInCache, o.error == nil, let t = o.thumbnail, t.path == nil {
                o.error = Self.notStored(side: max(request.width, request.height))
                o.thumbnail = nil
            }
            confinement = o.confinement ?? confinement
            if let e = o.error {
                failed += 1
                Output.err("photometa: \(o.file): \(e)")
            }
            switch format {
            case .text:
                if let t = o.thumbnail {
                    Output.out(TerminalText.escape("\(o.file) -> \(t.path ?? "-") (\(t.width)x\(t.height), \(t.source))") + "\n")
                }
            case .json: Output.out((i == 0 ? "\n" : ",\n") + Self.json(o, explain: explain))
            case .jsonl: Output.out(Self.json(o, explain: explain) + "\n")
            }
            Output.flush()  // each answer as it comes: progress, and a reader gone is known at once
        }
        func flushRefused(upTo limit: Int) {
            while next < limit {
                if let why = refused[next] { print(next, Outcome(file: files[next], thumbnail: nil, error: why)) }
                if let o = answered[next] { print(next, o) }
                next += 1
            }
        }
        let readerGone = { Output.stdoutFailure != nil }  // `| head` quit, a full disk: the batch ends
        ThumbnailerProcess.run(
            files: sent.map { files[$0] }, names: names.map { n in sent.map { n[$0] } },
            job: ThumbnailJob(request: request, out: out, cache: useCache), shouldStop: readerGone
        ) { k, o in
            let i = sent[k]
            flushRefused(upTo: i)
            print(i, o)
            next = i + 1
        }
        if Output.stdoutFailure == nil { flushRefused(upTo: files.count) }
        if explain, format == .text {
            Output.out("confinement: photometa: " + own.summary + "\n")
            let said = confinement.map { "photometa-thumbnailer: " + $0.summary } ?? "no decoder ran"
            Output.out("confinement: " + said + "\n")
        }
        if format == .json { Output.out(files.isEmpty ? "]\n" : "\n]\n") }
        return failed > 0 ? .someFailed : .success
    }

    static func json(_ o: Outcome, explain: Bool = false) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("path", o.file)
        if PathBytes.hasRawBytes(o.file) { w.field("pathBytes", PathBytes.base64(o.file)) }
        w.key("thumbnail")
        if let t = o.thumbnail {
            t.write(to: &w)
        } else {
            w.null()
        }
        w.field("error", o.error)
        if explain {
            w.key("confinement")
            if let c = o.confinement { c.write(to: &w) } else { w.null() }
        }
        w.endObject()
        return w.output
    }
}

extension ThumbnailCommand {
    /// Why a picture made for the shared cache has no file there: what is wrong with the
    /// bucket's folders (`ThumbnailCache.storeRefusal`), so the user knows what to fix.
    /// One home for `thumbnail` and `suggest --thumbnail` (which adds no hint: it has no --out).
    static func notStored(side: Int, hint: Bool = true) -> String {
        let cache = ThumbnailCache.standard()
        let why = ThumbnailCache.Bucket.holding(side).flatMap(cache.storeRefusal)
        return "made, but not stored: \(why ?? cache.root + " cannot be written")"
            + (hint ? " (give --out DIR)" : "")
    }
}
