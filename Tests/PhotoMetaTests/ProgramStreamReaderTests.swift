import Foundation
import XCTest

@testable import PhotoMetaCore

/// MPEG program streams (`.MPG`, `.VOB`, `.MOD`): a video by its pack header, its size from
/// the first video sequence header or H.264 sequence parameter set (`ProgramStreamReader`).
final class ProgramStreamReaderTests: XCTestCase {
    func inspect(_ bytes: [UInt8]) -> MediaAsset { Inspector.inspect(MemoryByteSource(bytes), path: "clip.MPG") }

    /// thumbnails/clip.mpg: ffmpeg's MPEG-2 video, 64x48, in a DVD-style program stream.
    func testAnMPEG2ProgramStream() throws {
        let bytes = [UInt8](try Data(contentsOf: TestPaths.thumbnails.appendingPathComponent("clip.mpg")))
        let asset = inspect(bytes)
        XCTAssertEqual(asset.format, .mpeg)
        XCTAssertEqual(asset.kind, .video)
        XCTAssertEqual([asset.width, asset.height], [64, 48])
        XCTAssertNil(asset.captured, "no date inside, no file times here")
        XCTAssertNil(asset.error)
    }

    /// A pack header (MPEG-2's), then a PES packet of H.264 whose sequence parameter set states
    /// 1920x1080 (x264's, as in `AVCSequenceParameterSetTests`).
    func testH264InAProgramStream() {
        let pack: [UInt8] = [0, 0, 1, 0xBA, 0x44, 0, 4, 0, 4, 1, 1, 0x89, 0xC3, 0xF8]
        let sps: [UInt8] = [
            0x67, 0x64, 0x00, 0x28, 0xAC, 0xD9, 0x40, 0x78, 0x02, 0x27, 0xE5, 0xC0, 0x44, 0x00, 0x00, 0x03, 0x00, 0x04, 0x00,
            0x00, 0x03, 0x00, 0xC8, 0x3C, 0x60, 0xC6, 0x58,
        ]
        let pes: [UInt8] = [0, 0, 1, 0xE0, 0, 0, 0x80, 0, 0] + [0, 0, 0, 1, 0x09, 0xF0] + [0, 0, 0, 1] + sps + [0, 0, 1, 0x68]
        let asset = inspect(pack + pes)
        XCTAssertEqual(asset.format, .mpeg)
        XCTAssertEqual([asset.width, asset.height], [1920, 1080])
    }

    func testDetectionAndNoSize() {
        XCTAssertEqual(FormatDetector.detect([0, 0, 1, 0xBA, 0x44, 0, 4]), .mpeg)
        XCTAssertEqual(FormatDetector.detect([0, 0, 1, 0xBA, 0x21, 0, 1]), .mpeg, "MPEG-1's pack header")
        XCTAssertEqual(FormatDetector.detect([0, 0, 1, 0xBA, 0xFF, 0, 1]), .unknown)
        // A sequence header that states no size, and nothing else: a video without a size.
        let asset = inspect([0, 0, 1, 0xBA, 0x44, 0, 4, 0, 0, 1, 0xB3, 0, 0, 0])
        XCTAssertEqual(asset.kind, .video)
        XCTAssertNil(asset.width)
    }
}
