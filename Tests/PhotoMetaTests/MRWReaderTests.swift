import XCTest

@testable import PhotoMetaCore

final class MRWReaderTests: XCTestCase {
    func testTheTTWBlockIsTheEXIF() throws {
        let a = MediaAsset.from(try TestPaths.bytes("../formats/minolta.mrw"), path: "minolta.mrw")
        XCTAssertEqual(a.format, .mrw)
        XCTAssertEqual(a.kind, .photo)
        XCTAssertEqual(a.model, "DiMAGE A2")
        XCTAssertEqual(a.orientation, 6)
        XCTAssertEqual(a.width, 3264, "image width from PRD")
        XCTAssertEqual(a.height, 2448)
        XCTAssertEqual(a.captured?.source, .exifDateTimeOriginal)
        XCTAssertFalse(a.truncated)
    }

    func testCutsAndLyingLengthsAreFlagged() throws {
        let bytes = try TestPaths.bytes("../formats/minolta.mrw")
        for cut in stride(from: 8, to: bytes.count - 16, by: 11) {
            let a = MediaAsset.from(Array(bytes.prefix(cut)), path: "cut.mrw")
            XCTAssertEqual(a.format, .mrw)
            XCTAssertTrue(a.truncated, "cut at \(cut)")
        }
        var liar = bytes
        liar.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xF0])
        XCTAssertTrue(MediaAsset.from(liar, path: "liar.mrw").truncated)
    }
}
