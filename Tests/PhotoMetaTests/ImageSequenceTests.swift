import XCTest

@testable import PhotoMetaCore

/// HEIF image sequences and animated AVIF [ISO 23008-12 7]: a movie inside a still format.
final class ImageSequenceTests: XCTestCase {
    func testAnimatedAVIFWithoutAPrimaryItem() throws {
        let a = MediaAsset.from(try TestPaths.bytes("../formats/animated.avif"), path: "animated.avif")
        XCTAssertEqual(a.format, .avif)
        XCTAssertEqual(a.kind, .photo)
        XCTAssertEqual(a.animated, true)
        XCTAssertEqual(a.width, 96, "size from the 'pict' track")
        XCTAssertEqual(a.height, 64)
        XCTAssertNil(a.durationSeconds, "a still format has no duration field")
        XCTAssertEqual(a.captured?.source, .quickTimeMovieHeader)
        XCTAssertFalse(a.diagnostics.contains { $0.message.contains("no 'meta'") }, "\(a.diagnostics)")
        XCTAssertNil(a.error)
    }

    func testSequenceBrandsAreRecognised() {
        XCTAssertEqual(FormatDetector.classify(brands: ["msf1", "iso8"]), .heif)
        XCTAssertEqual(FormatDetector.classify(brands: ["avis", "msf1"]), .avif)
    }

    func testStillsStayNotAnimated() throws {
        XCTAssertNil(MediaAsset.from(try TestPaths.bytes("sample.avif"), path: "sample.avif").animated)
        XCTAssertNil(MediaAsset.from(try TestPaths.bytes("IMG_0001.HEIC"), path: "IMG_0001.HEIC").animated)
    }
}
