import Foundation
import XCTest

@testable import PhotoMetaCore

/// Names as bytes: every byte string survives decode and encode, valid UTF-8 is left as it is,
/// and the report forms (escape, lossy, base64) are right.
final class PathBytesTests: XCTestCase {
    func testEveryByteStringRoundTrips() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 2, 3, 4, 7, 33, 255] {
            for _ in 0..<200 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let s = PathBytes.decode(bytes)
                XCTAssertEqual(PathBytes.encode(s), bytes, "\(bytes)")
                XCTAssertEqual(PathBytes.base64(s), Data(bytes).base64EncodedString())
                XCTAssertEqual(PathBytes.fromBase64(PathBytes.base64(s)), bytes)
            }
        }
    }

    func testValidUTF8IsPlainText() {
        for name in ["IMG_0001.HEIC", "café.jpg", "写真.png", "😀.gif", ""] {
            XCTAssertEqual(PathBytes.decode(Array(name.utf8)), name)
            XCTAssertFalse(PathBytes.hasRawBytes(name))
            XCTAssertEqual(PathBytes.encode(name), Array(name.utf8))
        }
    }

    func testReportForms() {
        let s = PathBytes.decode(Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
        XCTAssertTrue(PathBytes.hasRawBytes(s))
        XCTAssertEqual(TerminalText.escape(s), "caf\\xe9.jpg")
        XCTAssertEqual(PathBytes.lossy(s), "caf\u{FFFD}.jpg")
        var out: [UInt8] = []
        JSONWriter.appendString(s, to: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "\"caf\u{FFFD}.jpg\"")
        // Overlong and surrogate encodings are not UTF-8: kept as bytes.
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            XCTAssertEqual(PathBytes.encode(PathBytes.decode(bad)), bad)
            XCTAssertTrue(PathBytes.hasRawBytes(PathBytes.decode(bad)), "\(bad)")
        }
    }
}
