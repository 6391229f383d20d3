import PhotoMetaSystem

/// Where an offer's cropped or filled picture (`--thumbnail-mode crop|fill`) comes from and
/// goes. The shared cache holds only pictures that fit its sizes [Thumbnail Managing Standard
/// 0.9, "Thumbnail Size"], so a square button's picture is photometa's own file, kept in
/// `$XDG_CACHE_HOME/photometa/offers/` under the cache's name for the file (the MD5 of its
/// URI) with the size and mode. It is cut from a valid cache entry whose short side covers the
/// box when there is one (a 512 px entry gives a 256 px square without decoding the photo
/// again), else made from the file.
package struct OfferPictureSource: Sendable, Equatable {
    /// The file the helper reads: a cache entry, or the photo itself.
    package var input: String
    /// True when `input` is a cache entry.
    package var fromCache: Bool
    /// The folder the picture is written to, and its name there.
    package var folder: String
    package var name: String

    /// The source for `path`'s picture of `side` in `mode` (`crop` or `fill`), with the user's
    /// `cache`; nil when the file cannot be named (not a regular file, no canonical path).
    package static func find(for path: String, side: Int, mode: String, cache: ThumbnailCache) -> OfferPictureSource? {
        guard let facts = try? FileFacts.of(path), facts.type == .regular,
            let key = ThumbnailCache.key(path: path, facts: facts)
        else { return nil }
        let folder = cache.photometaFolder + "/offers"
        let name = "\(key.hash)-\(side)-\(mode).png"
        for bucket in ThumbnailCache.Bucket.allCases where bucket.rawValue >= side {
            if let entry = cache.validEntry(for: path, side: bucket.rawValue), min(entry.width, entry.height) >= side {
                return OfferPictureSource(input: entry.path, fromCache: true, folder: folder, name: name)
            }
        }
        return OfferPictureSource(input: path, fromCache: false, folder: folder, name: name)
    }
}

extension ThumbnailCache {
    /// `$XDG_CACHE_HOME/photometa` beside the shared cache's `thumbnails` folder.
    package var photometaFolder: String {
        let parent = root.lastIndex(of: "/").map { String(root[..<$0]) } ?? root
        return parent + "/photometa"
    }
}
