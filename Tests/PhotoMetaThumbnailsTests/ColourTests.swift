import Foundation
import PhotoMetaTestSupport
import Synchronization
import XCTest

@testable import PhotoMetaThumbnails

/// Thumbnails are sRGB whatever profile the photo embeds (docs/thumbnails.md, "Colour"): a
/// Display P3 photo's values are converted, an sRGB one's are left as they are, and the
/// transforms kept across files (CVipsColour.c) give every file, on every thread, its own
/// profile's conversion. Fixtures: p3.jpg, p3_alpha.png, srgb.jpg (Fixtures/README.md), one
/// green stored as the values (100, 180, 60); as Display P3 that green is sRGB (65, 182, 25).
final class ColourTests: XCTestCase {
    let noCache = Thumbnailer(cache: nil)
    let box = ThumbnailRequest(width: 32, height: 32)

    /// The centre pixel of the thumbnail of `name` (32x24).
    func centre(_ name: String) throws -> [Double] {
        let t = try noCache.thumbnail(of: ThumbnailFixtures.path(name), box)
        XCTAssertEqual([t.width, t.height], [32, 24], name)
        XCTAssertEqual(t.source, .decoded, name)
        return try XCTUnwrap(VipsCodec.pixel(t.bytes, x: 16, y: 12), name)
    }

    func assertNear(_ pixel: [Double], _ expected: [Double], _ tolerance: Double, _ what: String) {
        XCTAssertEqual(pixel.count, expected.count, what)
        for (got, want) in zip(pixel, expected) {
            XCTAssertLessThanOrEqual(abs(got - want), tolerance, "\(what): \(pixel), expected about \(expected)")
        }
    }

    func testADisplayP3PhotoIsConvertedToSRGB() throws {
        assertNear(try centre("p3.jpg"), [65, 182, 25], 3, "p3.jpg")
        assertNear(try centre("p3_alpha.png"), [65, 182, 27, 200], 3, "p3_alpha.png (alpha kept)")
    }

    /// A HEIC's profile: libvips 8.14's HEIF loader attaches libheif's buffer without a copy,
    /// freed once the loader lets go, so the thumbnail's own profile is garbage and an iPhone
    /// photo stayed Display P3 in most runs. The profile copied from the header converts it
    /// every time (ten runs: the garbage was read differently from run to run).
    func testADisplayP3HEICIsConvertedEveryTime() throws {
        for run in 0..<10 { assertNear(try centre("p3.heic"), [65, 182, 25], 4, "p3.heic, run \(run)") }
    }

    func testAnSRGBProfileLeavesTheValuesAsTheyAre() throws {
        assertNear(try centre("srgb.jpg"), [100, 180, 60], 2, "srgb.jpg")
    }

    /// A greyscale photo that carries an RGB profile (of another colour space than its
    /// pixels'): libvips cannot import the pixels through it, and the thumbnail shows them as
    /// they are instead of failing, as a viewer does.
    func testAGreyscalePhotoWithAnRGBProfileIsShownAsItIs() throws {
        assertNear(try centre("grey_rgb_profile.jpg"), [120, 120, 120], 2, "grey_rgb_profile.jpg")
    }

    /// The same files again and in turns, from several threads at once: each keeps its own
    /// profile's conversion (a transform kept for one profile never serves another).
    func testKeptTransformsServeTheirOwnProfileOnly() throws {
        let names = ["p3.jpg", "srgb.jpg", "p3_alpha.png", "orient1.jpg"]
        let first = try names.map(centre)
        let results = Mutex<[[Double]?]>(Array(repeating: nil, count: 24))
        let (thumbnailer, request, paths) = (noCache, box, names.map(ThumbnailFixtures.path))
        DispatchQueue.concurrentPerform(iterations: 24) { i in
            let t = try? thumbnailer.thumbnail(of: paths[i % paths.count], request)
            let pixel = t.flatMap { VipsCodec.pixel($0.bytes, x: 16, y: 12) }
            results.withLock { $0[i] = pixel }
        }
        for (i, pixel) in results.withLock({ $0 }).enumerated() {
            XCTAssertEqual(pixel, first[i % names.count], "\(names[i % names.count]), run \(i)")
        }
    }
}
