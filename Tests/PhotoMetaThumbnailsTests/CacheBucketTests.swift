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

    /// A 300x200 photo and a cache at `scratch`.
    func photo300x200(_ scratch: ScratchFolder) throws -> String {
        let made = try Thumbnailer(cache: nil).thumbnail(
            of: ThumbnailFixtures.path("ifd1.jpg"), ThumbnailRequest(width: 300, height: 200, mode: .crop, format: .jpeg))
        let photo = scratch.path + "/photo.jpg"
        try Data(made.bytes).write(to: URL(fileURLWithPath: photo))
        return photo
    }

    /// A size resized from the bucket's own entry is the picture's own too: a 300x200 photo's
    /// 128x85 entry gave 100x66 at 100 (the entry's rounded aspect), where the photo gives 100x67.
    func testASizeFromTheBucketsOwnEntryIsThePicturesOwn() throws {
        let scratch = try ScratchFolder()
        let photo = try photo300x200(scratch)
        let thumbnailer = Thumbnailer(cache: ThumbnailCache(root: scratch.path + "/thumbnails"))
        let entry = try thumbnailer.thumbnail(of: photo, ThumbnailRequest(width: 128, height: 128))
        XCTAssertEqual([entry.width, entry.height], [128, 85])
        let t = try thumbnailer.thumbnail(of: photo, ThumbnailRequest(width: 100, height: 100))
        XCTAssertEqual([t.width, t.height], [100, 67])
        XCTAssertEqual(t.source, .cache)
    }

    /// Another tool's entry with valid keys but smaller than its bucket (a 60x40 picture in
    /// `large/` for a 300x200 photo, say from an embedded preview) is not the answer: the photo
    /// is decoded and the entry replaced. A small picture's whole entry (a 64x48 photo) is.
    func testAnEntryTooSmallForItsBucketIsMadeAgain() throws {
        let scratch = try ScratchFolder()
        let photo = try photo300x200(scratch)
        let cache = ThumbnailCache(root: scratch.path + "/thumbnails")
        let key = try XCTUnwrap(ThumbnailCache.key(path: photo, facts: try FileFacts.of(photo)))
        let foreign = ThumbnailCache.chunks(key).filter { $0.0 != "Software" } + [("Software", "another-thumbnailer")]
        let small = try VipsCodec.thumbnail(
            path: photo,
            VipsCodec.Options(width: 60, height: 40, maxPixels: 1 << 30, format: .png, quality: 80, text: foreign))
        try cache.store(small.bytes, at: cache.entryPath(key, .large))
        XCTAssertNil(cache.validEntry(for: photo, side: 256), "photometa itself does not answer with it")
        let t = try Thumbnailer(cache: cache).thumbnail(of: photo, ThumbnailRequest(width: 256, height: 256))
        XCTAssertEqual([t.width, t.height], [256, 171])
        XCTAssertEqual(t.source, .decoded)
        XCTAssertEqual(cache.validEntry(for: photo, side: 256)?.width, 256, "replaced")
        // A 64x48 photo's entry is 64x48, and says the picture's size: used as it is.
        let tiny = try scratch.copy(ThumbnailFixtures.path("orient1.jpg"))
        _ = try Thumbnailer(cache: cache).thumbnail(of: tiny, ThumbnailRequest(width: 256, height: 256))
        XCTAssertEqual(cache.validEntry(for: tiny, side: 256)?.width, 64)
        XCTAssertEqual(
            try Thumbnailer(cache: cache).thumbnail(of: tiny, ThumbnailRequest(width: 256, height: 256)).source, .cache)
        // photometa's own entry smaller than its bucket (a raw whose only preview was that
        // small) is the best it can make: used, not made again on every request.
        let own = try VipsCodec.thumbnail(
            path: photo,
            VipsCodec.Options(
                width: 60, height: 40, maxPixels: 1 << 30, format: .png, quality: 80, text: ThumbnailCache.chunks(key)))
        try cache.store(own.bytes, at: cache.entryPath(key, .large))
        XCTAssertEqual(cache.validEntry(for: photo, side: 256)?.width, 60)
    }

    /// An entry cut while written (its keys whole, its image data not): never the answer, and
    /// replaced by the next request, which decodes the photo.
    func testACutEntryIsMadeAgain() throws {
        let scratch = try ScratchFolder()
        let photo = try photo300x200(scratch)
        let cache = ThumbnailCache(root: scratch.path + "/thumbnails")
        let first = try Thumbnailer(cache: cache).thumbnail(of: photo, ThumbnailRequest(width: 256, height: 256))
        let at = try XCTUnwrap(first.path)
        try cache.store(Array(first.bytes.prefix(first.bytes.count - 40)), at: at)
        XCTAssertNil(cache.validEntry(for: photo, side: 256))
        let again = try Thumbnailer(cache: cache).thumbnail(of: photo, ThumbnailRequest(width: 256, height: 256))
        XCTAssertEqual([again.width, again.height], [256, 171])
        XCTAssertEqual(again.source, .decoded)
        XCTAssertTrue(PNGText.isWhole(try [UInt8](Data(contentsOf: URL(fileURLWithPath: at)))))
        // A smaller size, from x-large's cut entry: decoded, not "cannot decode".
        try FileManager.default.moveItem(atPath: at, toPath: scratch.path + "/whole.png")
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.path + "/whole.png")))
        try cache.store(Array(whole.prefix(whole.count - 40)), at: at)
        let out = try Thumbnailer(cache: cache).thumbnail(of: photo, ThumbnailRequest(width: 200, height: 200, mode: .crop))
        XCTAssertEqual([out.width, out.height], [200, 200])
    }

    /// `--fill` keeps the whole picture: a 20000x10 strip would stay 20000 px wide, over the
    /// limit, and says so (it said "cannot decode: thumbnail box out of range"); crop makes it.
    func testFillOfAStripWiderThanTheLimitSaysWhy() throws {
        let strip = ThumbnailFixtures.path("panorama.png")
        XCTAssertThrowsError(
            try Thumbnailer(cache: nil).thumbnail(of: strip, ThumbnailRequest(width: 256, height: 256, mode: .fill))
        ) {
            XCTAssertTrue("\($0)".contains("over 16384 pixels a side"), "\($0)")
        }
        let crop = try Thumbnailer(cache: nil).thumbnail(of: strip, ThumbnailRequest(width: 256, height: 256, mode: .crop))
        XCTAssertEqual([crop.width, crop.height], [256, 10])
    }
}
