import PhotoMeta
import PhotoMetaCore
import PhotoMetaSystem
import PhotoMetaThumbnailCache

/// `--thumbnail [SIZE]` and `--thumbnail-mode fit|fill|crop` of suggest, watch and recent: the
/// offer's picture. Fit comes from the shared cache (a PNG that fits the bucket holding SIZE);
/// fill and crop are photometa's own PNGs of exactly the box (`OfferPictureSource`), cut from a
/// larger cache entry when there is one. A failure is reported and the offer stands.
struct OfferThumbnail {
    var size: Int
    var mode: ThumbnailRequest.Mode = .fit

    /// Reads the option: `--thumbnail=SIZE`, or `--thumbnail SIZE` when the next argument is a
    /// number that names no folder; else 256.
    static func parse(_ cursor: inout ArgumentCursor, _ opt: (name: String, inlineValue: String?)) throws(UsageError)
        -> OfferThumbnail
    {
        if let v = cursor.takeInline(opt) { return OfferThumbnail(size: try side(v)) }
        // A number is the size, unless a folder has that name (photos are often kept in year
        // folders: `suggest --thumbnail 2024` means the folder).
        if let next = cursor.peek(), !next.isEmpty, next.allSatisfy(\.isNumber),
            (try? FileFacts.of(next))?.type != .directory
        {
            _ = try cursor.value(for: (opt.name, nil), example: "256")
            return OfferThumbnail(size: try side(next))
        }
        return OfferThumbnail(size: 256)
    }

    /// `--thumbnail-mode MODE`.
    static func mode(_ text: String) throws(UsageError) -> ThumbnailRequest.Mode {
        guard let m = ThumbnailRequest.Mode(rawValue: text) else {
            throw UsageError("--thumbnail-mode must be fit, fill or crop (not '\(text)')")
        }
        return m
    }

    /// Applies a `--thumbnail-mode` read before or after `--thumbnail` (which it needs).
    static func with(mode: ThumbnailRequest.Mode?, _ thumbnail: OfferThumbnail?) throws(UsageError) -> OfferThumbnail? {
        guard let mode else { return thumbnail }
        guard var t = thumbnail else { throw UsageError("--thumbnail-mode needs --thumbnail [SIZE]") }
        t.mode = mode
        return t
    }

    static func side(_ text: String) throws(UsageError) -> Int {
        guard let n = Int(text), (1...ThumbnailerProcess.largestCacheSize).contains(n) else {
            throw UsageError("--thumbnail '\(text)' is not a size from 1 to 1024 (the shared cache's largest)")
        }
        return n
    }

    /// A file in the folder fill and crop pictures are written to (photometa makes the folder:
    /// its confinement must let it write there); nil for fit, which the helper writes into the
    /// shared cache.
    var picturesFile: String? {
        mode == .fit ? nil : ThumbnailCache.standard().photometaFolder + "/offers/picture.png"
    }

    /// The offer's picture as the reports print it (`OfferReport.thumbnail`): made, or why not.
    func outcome(_ path: String) -> ThumbnailOutcome {
        let (made, error) = make(path)
        return ThumbnailOutcome(made: made, error: error)
    }

    /// The thumbnail of `path`, or why there is none (also said on stderr).
    func make(_ path: String) -> (ThumbnailerProcess.Made?, String?) {
        let made = mode == .fit ? fit(path) : cut(path)
        if let e = made.1 { Output.err("photometa: \(path): thumbnail: \(e)") }
        return made
    }

    private func fit(_ path: String) -> (ThumbnailerProcess.Made?, String?) {
        var request = ThumbnailRequest(width: size, height: size)
        var made: (ThumbnailerProcess.Made?, String?) = (nil, "no answer from photometa-thumbnailer")
        if let side = ThumbnailCache.Bucket.holding(size)?.rawValue {
            request.width = side
            request.height = side
            if let hit = ThumbnailerProcess.cacheHits([path], side: side).first ?? nil { return (hit, nil) }
        }
        ThumbnailerProcess.run(files: [path], names: nil, job: ThumbnailJob(request: request)) { _, o in
            made = (o.thumbnail, o.error)
        }
        return OfferThumbnail.stored(made, side: size)
    }

    /// A picture made but with no file (the shared cache could not be written) is no
    /// thumbnail for the offer: said as the error, never dropped without a word.
    static func stored(_ made: (ThumbnailerProcess.Made?, String?), side: Int) -> (ThumbnailerProcess.Made?, String?) {
        guard let m = made.0, m.path == nil, made.1 == nil else { return made }
        return (nil, ThumbnailCommand.notStored(side: side, hint: false))
    }

    /// Fill or crop: exactly the box, in photometa's offers folder.
    private func cut(_ path: String) -> (ThumbnailerProcess.Made?, String?) {
        guard let source = OfferPictureSource.find(for: path, side: size, mode: mode.rawValue, cache: .standard())
        else { return (nil, "not a regular file") }
        do throws(PrivateFiles.Problem) {
            try PrivateFiles.ensureFolder(source.folder)
        } catch {
            return (nil, "\(source.folder): \(error)")
        }
        var request = ThumbnailRequest(width: size, height: size)
        request.mode = mode
        var made: (ThumbnailerProcess.Made?, String?) = (nil, "no answer from photometa-thumbnailer")
        let job = ThumbnailJob(request: request, out: source.folder, cache: false)
        ThumbnailerProcess.run(files: [source.input], names: [source.name], job: job) { _, o in
            made = (o.thumbnail, o.error)
        }
        if source.fromCache, var m = made.0 {
            m.source = "cache"
            made.0 = m
        }
        return made
    }

    /// The pictures of several files (`recent --thumbnail`), in order: cache hits answered
    /// here, the rest made by one run of the helper. Failures are also said on stderr.
    func outcomes(_ paths: [String]) -> [ThumbnailOutcome] {
        guard mode == .fit else { return paths.map(outcome) }
        var request = ThumbnailRequest(width: size, height: size)
        var results = [ThumbnailOutcome](
            repeating: ThumbnailOutcome(made: nil, error: "no answer from photometa-thumbnailer"), count: paths.count)
        var misses = Array(paths.indices)
        if let side = ThumbnailCache.Bucket.holding(size)?.rawValue {
            request.width = side
            request.height = side
            let hits = ThumbnailerProcess.cacheHits(paths, side: side)
            for (i, hit) in hits.enumerated() where hit != nil { results[i] = ThumbnailOutcome(made: hit, error: nil) }
            misses = paths.indices.filter { hits[$0] == nil }
        }
        ThumbnailerProcess.run(files: misses.map { paths[$0] }, names: nil, job: ThumbnailJob(request: request)) { k, o in
            let (made, error) = OfferThumbnail.stored((o.thumbnail, o.error), side: size)
            results[misses[k]] = ThumbnailOutcome(made: made, error: error)
        }
        for (i, r) in results.enumerated() {
            if let e = r.error { Output.err("photometa: \(paths[i]): thumbnail: \(e)") }
        }
        return results
    }
}
