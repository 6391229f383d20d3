import PhotoMetaCore
import PhotoMetaThumbnailCache

extension OfferThumbnail {
    /// The offer's picture as the reports print it (`OfferReport.thumbnail`): made, or why not.
    func outcome(_ path: String) -> ThumbnailOutcome {
        let (made, error) = make(path)
        return ThumbnailOutcome(made: made, error: error)
    }

    /// The pictures of several files (`recent --thumbnail`), in order: cache hits answered
    /// here, the rest made by one run of the helper. Failures are also said on stderr.
    func outcomes(_ paths: [String]) -> [ThumbnailOutcome] {
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
            results[misses[k]] = ThumbnailOutcome(made: o.thumbnail, error: o.error)
        }
        for (i, r) in results.enumerated() {
            if let e = r.error { Output.err("photometa: \(paths[i]): thumbnail: \(e)") }
        }
        return results
    }
}
