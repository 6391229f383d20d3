import XCTest

@testable import PhotoMetaCore

final class RAFReaderTests: XCTestCase {
    func testTheEmbeddedJPEGsEXIFIsRead() throws {
        let a = MediaAsset.from(try TestPaths.bytes("../formats/fuji.raf"), path: "fuji.raf")
        XCTAssertEqual(a.format, .raf)
        XCTAssertEqual(a.kind, .photo)
        XCTAssertEqual(a.make, "FUJIFILM")
        XCTAssertEqual(a.model, "X-T4")
        XCTAssertEqual(a.captured?.source, .exifDateTimeOriginal)
        XCTAssertEqual(a.width, 16)
        XCTAssertFalse(a.truncated)
        XCTAssertNil(a.error)
    }

    func testCutOrLyingHeadersAreNotedNotFatal() throws {
        let bytes = try TestPaths.bytes("../formats/fuji.raf")
        // Cut inside the JPEG: flagged.
        for cut in [100, 200, 300] {
            XCTAssertTrue(MediaAsset.from(Array(bytes.prefix(cut)), path: "cut.raf").truncated, "cut at \(cut)")
        }
        // A JPEG offset past the end, a length of 4 GiB, and an offset inside the header.
        for (at, value) in [(84, [0xFF, 0xFF, 0xFF, 0x00]), (88, [0xFF, 0xFF, 0xFF, 0xFF]), (84, [0, 0, 0, 4])] {
            var b = bytes
            b.replaceSubrange(at..<(at + 4), with: value.map(UInt8.init))
            let a = MediaAsset.from(b, path: "liar.raf")
            XCTAssertEqual(a.format, .raf)
            XCTAssertFalse(a.diagnostics.filter { $0.domain == "raf" }.isEmpty, "\(at): \(a.diagnostics)")
        }
    }
}
