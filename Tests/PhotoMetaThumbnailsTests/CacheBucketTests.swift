import Foundation
import PhotoMetaTestSupport
import XCTest

@testable import PhotoMetaSystem
@testable import PhotoMetaThumbnailCache
@testable import PhotoMetaThumbnails

/// What the cache's buckets give a size asked after another (docs/thumbnails.md, "The shared
/// cache"): its own bucket's entry, stored where file managers look, at the picture's own size.
final class CacheBucketTests: XCTestCase {
    /// A file manager (or an earlier run) made `large/`; a 128 px request then makes `normal/`
    /// from it and stores it with the standard's keys, and answers with its path. (It failed:
    /// "made, but not stored", and `suggest --thumbnail` dropped its picture.)
    func testASmallerBucketIsMadeFromALargerEntryAndStored() throws {
        let scratch = try ScratchFolder()
        let cache = ThumbnailCache(root: scratch.path + "/thumbnails")
        let thumbnailer = Thumbnailer(cache: cache)
        let photo = try scratch.copy(ThumbnailFixtures.path("ifd1.jpg"))  // 640x480
        let large = try thumbnailer.thumbnail(of: photo, ThumbnailRequest(width: 256, height: 256))
        XCTAssertEqual(large.path?.contains("/large/"), true)
        let normal = try thumbnailer.thumbnail(of: photo, ThumbnailRequest(width: 128, height: 128))
        let name = ThumbnailCache.md5("file://" + (try FileSystem.canonicalPath(photo))) + ".png"
        XCTAssertEqual(normal.path, cache.root + "/normal/" + name)
        XCTAssertEqual([normal.width, normal.height], [128, 96])
        XCTAssertEqual(PNGText.chunks(normal.bytes)["Thumb::URI"], "file://" + (try FileSystem.canonicalPath(photo)))
        let stored = try [UInt8](Data(contentsOf: URL(fileURLWithPath: cache.root + "/normal/" + name)))
        XCTAssertEqual(stored, normal.bytes)
        let again = try thumbnailer.thumbnail(of: photo, ThumbnailRequest(width: 128, height: 128))
        XCTAssertEqual(again.source, .cache)
        XCTAssertEqual(again.path, normal.path)
    }

    /// A size made from a cache entry is the one the picture's own aspect gives, as without
    /// the cache: a 600x315 picture at 256 is 256x134 from its 1024 px entry (it was 255x134:
    /// the entry's rounded size fitted into the rounded box), at 333 is 333x175.
    func testASizeFromTheCacheIsThePicturesOwn() throws {
        let scratch = try ScratchFolder()
        let made = try Thumbnailer(cache: nil).thumbnail(
            of: ThumbnailFixtures.path("ifd1.jpg"), ThumbnailRequest(width: 600, height: 315, mode: .crop, format: .jpeg))
        XCTAssertEqual([made.width, made.height], [600, 315])
        let photo = scratch.path + "/wide.jpg"
        try Data(made.bytes).write(to: URL(fileURLWithPath: photo))
        let thumbnailer = Thumbnailer(cache: ThumbnailCache(root: scratch.path + "/thumbnails"))
        _ = try thumbnailer.thumbnail(of: photo, ThumbnailRequest(width: 1024, height: 1024))
        for (side, expected) in [(256, [256, 134]), (333, [333, 175]), (511, [511, 268])] {
            let t = try thumbnailer.thumbnail(of: photo, ThumbnailRequest(width: side, height: side))
            XCTAssertEqual([t.width, t.height], expected, "\(side) from the cache")
            let direct = try Thumbnailer(cache: nil).thumbnail(of: photo, ThumbnailRequest(width: side, height: side))
            XCTAssertEqual([direct.width, direct.height], expected, "\(side) without it")
        }
    }
}
