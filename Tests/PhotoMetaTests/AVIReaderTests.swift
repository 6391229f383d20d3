import XCTest

@testable import PhotoMetaCore

final class AVIReaderTests: XCTestCase {
    func testAVIHeaderDateAndSizeWhateverTheName() throws {
        let a = MediaAsset.from(try TestPaths.bytes("../formats/avi_named.mp4"), path: "avi_named.mp4")
        XCTAssertEqual(a.format, .avi)
        XCTAssertEqual(a.kind, .video)
        XCTAssertEqual(a.width, 640)
        XCTAssertEqual(a.height, 480)
        XCTAssertEqual(a.durationSeconds ?? 0, 3.0, accuracy: 0.001)
        XCTAssertEqual(a.captured?.source, .riffDateTimeOriginal)
        XCTAssertEqual(
            a.captured?.clock,
            .wall(LocalDateTime(year: 2012, month: 3, day: 17, hour: 9, minute: 15, second: 42)!, offset: nil, offsetSource: nil))
        XCTAssertFalse(a.truncated)
    }

    func testAVICutShortOrLyingIsFlaggedNotFatal() throws {
        let bytes = try TestPaths.bytes("../formats/avi_named.mp4")
        for cut in stride(from: 12, to: bytes.count, by: 7) {
            let a = MediaAsset.from(Array(bytes.prefix(cut)), path: "cut.avi")
            XCTAssertEqual(a.format, .avi)
            XCTAssertTrue(a.truncated, "cut at \(cut)")
        }
        // A chunk claiming 4 GiB inside a small file: noted, nothing allocated for it.
        var liar = bytes
        liar.replaceSubrange(16..<20, with: [0xF0, 0xFF, 0xFF, 0xFF])
        let a = MediaAsset.from(liar, path: "liar.avi")
        XCTAssertTrue(a.truncated)
        XCTAssertNil(a.error)
    }
}
