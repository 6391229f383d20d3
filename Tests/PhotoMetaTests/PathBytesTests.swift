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

    /// The last "/" or "." of a path is found in its bytes: after a name that is not UTF-8, in
    /// a substring, and where a combining mark follows it (one character, two scalars).
    func testLastASCIIByte() {
        let raw = PathBytes.decode([0x61, 0xE9, 0x2F, 0x62, 0xFF, 0x2E, 0x6A, 0x70, 0x67])  // "a\xE9/b\xFF.jpg"
        let slash = raw.lastIndex(ofASCII: UInt8(ascii: "/"))
        XCTAssertEqual(
            slash.map { PathBytes.encode(String(raw[raw.utf8.index(after: $0)...])) }, [0x62, 0xFF, 0x2E, 0x6A, 0x70, 0x67])
        let combining = "dir/\u{301}x.jpg"
        let s = combining.lastIndex(ofASCII: UInt8(ascii: "/"))
        XCTAssertEqual(s.map { String(combining[combining.utf8.index(after: $0)...]) }, "\u{301}x.jpg")
        let sub = "a/b.c/d.e"[...].dropLast(2)
        XCTAssertEqual(sub.lastIndex(ofASCII: UInt8(ascii: ".")).map { sub.utf8.distance(from: sub.startIndex, to: $0) }, 3)
        XCTAssertNil("none".lastIndex(ofASCII: UInt8(ascii: "/")))
        XCTAssertNil("".lastIndex(ofASCII: UInt8(ascii: "/")))
    }

    /// A four-character code as text: printable ASCII as it is, any other byte as "?", so a
    /// report never carries a control byte from a box type.
    func testFourCCText() {
        XCTAssertEqual(FourCC.string(Array("ftyp".utf8)), "ftyp")
        XCTAssertEqual(FourCC.string([0xA9, 0x78, 0x79, 0x7A]), "?xyz")
        XCTAssertEqual(FourCC.string([0x00, 0x1B, 0x7F, 0x20]), "??? ")
        XCTAssertEqual(FourCC.string([]), "")
        for b in UInt8.min...UInt8.max {
            let text = FourCC.string([b])
            XCTAssertEqual(text, (0x20..<0x7F).contains(b) ? String(UnicodeScalar(b)) : "?")
        }
    }
}
