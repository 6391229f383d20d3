import Foundation
import PhotoMetaTestSupport
import XCTest

@testable import PhotoMetaThumbnails

/// Full-size decodes share a budget counted in pixels times bytes a sample (Thumbnailer's
/// `heavyDecodes`): two 8-bit 12 MP pictures fit together, a 16-bit one takes it all. The
/// fixtures only declare their size (Fixtures/README.md); nothing is decoded here.
final class DecodeBudgetTests: XCTestCase {
    let noCache = Thumbnailer(cache: nil)

    func weight(_ name: String) throws -> Int? {
        try noCache.heavyPixels(noCache.subject(ThumbnailFixtures.path(name)))
    }

    func testAPictureWeighsItsPixelsTimesBytesASample() throws {
        XCTAssertEqual(try weight("declared12mp.png"), 12_000_000)
        XCTAssertEqual(try weight("declared12mp16.png"), 24_000_000)
        XCTAssertEqual(Thumbnailer.heavyDecodes.limit, 24_000_000, "two 8-bit 12 MP decodes, or one 16-bit")
    }

    func testSmallPicturesAndShrinkOnLoadFormatsTakeNothing() throws {
        XCTAssertNil(try weight("plain.heic"), "64x48")
        XCTAssertNil(try weight("orient1.jpg"), "JPEG shrinks while decoding")
    }
}
