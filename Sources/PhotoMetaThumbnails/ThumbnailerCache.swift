import PhotoMetaCore
import PhotoMetaSystem
import PhotoMetaThumbnailCache

/// The thumbnailer's side of the shared cache (docs/thumbnails.md, "The freedesktop cache"):
/// an entry is used only when it is whole, valid for the file and large enough for its bucket
/// (`ThumbnailCache.isLargeEnough`); any other is made again from the file and replaced.
extension Thumbnailer {
    /// The request through the cache: the bucket's entry (or one made from a larger bucket's,
    /// or from the file, then stored), and the request derived from it. Nil without a cache or
    /// past the largest bucket (made directly).
    func throughCache(
        _ s: Subject, _ request: ThumbnailRequest, needed: (width: Int, height: Int), picture: (width: Int, height: Int)?
    ) throws(ThumbnailError) -> Thumbnail? {
        guard let cache, let key = s.key else { return nil }
        let failure = cache.failurePath(key)
        if cache.validEntry(at: failure, for: key) != nil { throw .failedBefore(failure) }
        // The bucket that holds the box (file managers look there for that size), or more
        // when filling the box needs a larger picture.
        var side = max(request.width, request.height, needed.width, needed.height)
        // A video's shown size is known only once decoded: fill and crop take a bucket four
        // times the box, as the direct path does.
        if s.shown == nil, request.mode != .fit { side = 4 * side }
        if let bucket = ThumbnailCache.Bucket.holding(side) {
            for b in ThumbnailCache.Bucket.allCases where b >= bucket {
                let at = cache.entryPath(key, b)
                // Large enough for the bucket (another tool's may be smaller, with valid
                // keys), and decodable: else the next, and in the end the file itself,
                // whose entry replaces it.
                guard let entry = cache.validEntry(at: at, for: key), let size = pngSize(entry),
                    ThumbnailCache.isLargeEnough(
                        size.width, size.height, side: bucket.rawValue, text: PNGText.chunks(entry), picture: picture)
                else { continue }
                if b == bucket, let hit = try? derive(from: entry, at: at, source: .cache, shown: s.shown, request) {
                    return hit
                }
                // A larger bucket's entry (a file manager's, an earlier run's): the bucket's
                // own is made from it and stored, where this size is looked for.
                var entryRequest = ThumbnailRequest(width: bucket.rawValue, height: bucket.rawValue)
                entryRequest.maxPixels = request.maxPixels
                guard b != bucket,
                    let made = try? derive(
                        from: entry, at: nil, source: .cache, shown: s.shown, entryRequest,
                        chunks: ThumbnailCache.chunks(key, picture: picture))
                else { continue }
                let bucketAt = cache.entryPath(key, bucket)
                let stored = (try? cache.store(made.bytes, at: bucketAt)) != nil
                return try derive(from: made.bytes, at: stored ? bucketAt : nil, source: .cache, shown: s.shown, request)
            }
            // None: make the bucket's entry, store it, and derive the request from it.
            var entryRequest = ThumbnailRequest(width: bucket.rawValue, height: bucket.rawValue)
            entryRequest.maxPixels = request.maxPixels
            entryRequest.delivery = request.delivery
            let made: (VipsCodec.Encoded, Thumbnail.Source, Bool)
            do throws(ThumbnailError) {
                made = try produce(s, entryRequest, chunks: ThumbnailCache.chunks(key, picture: picture))
            } catch {
                recordFailure(key, error)
                throw error
            }
            let (encoded, source, degraded) = made
            if degraded {
                // The quick picture is smaller than the bucket: never put it in the shared cache.
                return try derive(from: encoded.bytes, at: nil, source: source, shown: s.shown, request, degraded: true)
            }
            let at = cache.entryPath(key, bucket)
            // A cache that cannot be written still gives the thumbnail.
            let stored = (try? cache.store(encoded.bytes, at: at)) != nil
            return try derive(from: encoded.bytes, at: stored ? at : nil, source: source, shown: s.shown, request)
        }
        return nil
    }

    /// A fit request answered from the cache without reading the file: its bucket follows
    /// from the box alone, and the entry's own size gives the picture's aspect. (Fill and crop
    /// need the picture's size to choose the bucket, so they take the full path.)
    func cached(_ path: String, _ request: ThumbnailRequest) throws(ThumbnailError) -> Thumbnail? {
        guard request.mode == .fit, let cache,
            let bucket = ThumbnailCache.Bucket.holding(max(request.width, request.height)),
            let facts = try? FileFacts.of(path), facts.type == .regular,
            let key = ThumbnailCache.key(path: path, facts: facts)
        else { return nil }
        let failure = cache.failurePath(key)
        if cache.validEntry(at: failure, for: key) != nil { throw .failedBefore(failure) }
        // The bucket's own entry only: derived from a larger one, the answer would be a picture
        // without a file, where the cache should then hold the bucket's entry. And only when the
        // entry is the answer as it is: resized, the picture's own aspect is needed (the
        // entry's was rounded once: a 300x200 photo's 128x85 entry gave 100x66, not 100x67),
        // which the full path reads; a smaller entry than the bucket's may be another tool's
        // picture made too small, which only the picture's size tells.
        let at = cache.entryPath(key, bucket)
        guard let entry = cache.validEntry(at: at, for: key), let size = pngSize(entry),
            ThumbnailCache.isLargeEnough(size.width, size.height, side: bucket.rawValue, text: PNGText.chunks(entry)),
            request.format == .png, size == request.outputSize(forPicture: size.width, size.height)
        else { return nil }
        return try? derive(from: entry, at: at, source: .cache, shown: size, request)
    }

    /// Fill keeps the whole picture and never enlarges it: a strip wider than a thumbnail may
    /// be stays as it is, and cannot be made (it said "cannot decode: thumbnail box out of range").
    static func checkFill(_ request: ThumbnailRequest, shown: (width: Int, height: Int), needed: (width: Int, height: Int))
        throws(ThumbnailError)
    {
        guard request.mode == .fill, max(needed.width, needed.height) > ThumbnailRequest.maximumSide else { return }
        throw .tooManyPixels(
            "--fill keeps the whole \(shown.width)x\(shown.height) picture at \(needed.width)x\(needed.height), over \(ThumbnailRequest.maximumSide) pixels a side; --crop or --fit make a picture of it"
        )
    }
}
