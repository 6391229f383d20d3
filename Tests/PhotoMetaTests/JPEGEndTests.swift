import Foundation
import XCTest

@testable import PhotoMetaCore

/// A JPEG is complete when its image data ends with EOI; phones' trailers after EOI are
/// allowed (issue 10: a half-written photo was offered and reported `truncated: false`).
final class JPEGEndTests: XCTestCase {
    func photo() throws -> [UInt8] {
        let b = try TestPaths.bytes("IMG_20240315_093012.jpg")
        XCTAssertEqual(Array(b.suffix(2)), [0xFF, 0xD9])
        return b
    }

    func inspect(_ b: [UInt8]) -> MediaAsset { Inspector.inspect(bytes: b, path: "x.jpg") }

    /// A larger JPEG: the fixture's scan data padded with stuffed bytes (0xFF 0x00), as real
    /// entropy-coded data is, so a cut in it is far from any EOI.
    func bigPhoto() throws -> [UInt8] {
        var b = try photo()
        b.removeLast(2)
        for i in 0..<100_000 { b += i % 50 == 0 ? [0xFF, 0x00] : [UInt8(truncatingIfNeeded: i * 7 | 1)] }
        return b + [0xFF, 0xD9]
    }

    func testCompleteAndCut() throws {
        let b = try bigPhoto()
        XCTAssertFalse(inspect(b).truncated)
        for cut in [b.count - 1, b.count - 2, b.count / 2, b.count - 30_000] {
            let a = inspect(Array(b.prefix(cut)))
            XCTAssertTrue(a.truncated, "cut at \(cut) of \(b.count)")
            XCTAssertTrue(a.diagnostics.contains { $0.message.contains("no end of image (EOI)") }, "\(a.diagnostics)")
        }
    }

    func testPaddingAfterEOI() throws {
        XCTAssertFalse(inspect(try photo() + [UInt8](repeating: 0, count: 1000)).truncated)
        XCTAssertFalse(inspect(try photo() + [0xFF, 0xFF, 0xFF]).truncated)
    }

    /// The end is looked at in the last page first, then in the last 16 KiB (issue 24): what is
    /// found past the first page is found as before, and what lies past 16 KiB is not.
    func testEndPastTheLastPage() throws {
        let zeros = inspect(try bigPhoto() + [UInt8](repeating: 0, count: 6_000))
        XCTAssertFalse(zeros.truncated, "\(zeros.diagnostics)")
        XCTAssertEqual(zeros.diagnostics, [])
        let trailer = inspect(try bigPhoto() + [UInt8](repeating: 0x41, count: 6_000))
        XCTAssertFalse(trailer.truncated)
        XCTAssertTrue(
            trailer.diagnostics.contains { $0.message == "6000 bytes after the end of image (EOI); an unknown trailer" },
            "\(trailer.diagnostics)")
        let far = inspect(try bigPhoto() + [UInt8](repeating: 0x41, count: 20_000))
        XCTAssertTrue(far.truncated, "an EOI more than 16 KiB before the end is not looked for")
    }

    func testSamsungTrailer() throws {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        // A 40 KB data block (past the tail read), then its SEFH directory: one entry of type
        // 0x0001 that points back to it.
        let name = Array("Image_UTC_Data".utf8)
        let block = [0, 0, 0x01, 0x00] + le32(name.count) + name + [UInt8](repeating: 0x41, count: 40_000)
        let directory = Array("SEFH".utf8) + le32(107) + le32(1) + [0, 0, 0x01, 0x00] + le32(block.count) + le32(block.count)
        let trailer = block + directory + le32(directory.count) + Array("SEFT".utf8)
        let a = inspect(try bigPhoto() + trailer)
        XCTAssertFalse(a.truncated, "\(a.diagnostics)")
        XCTAssertFalse(a.diagnostics.contains { $0.message.contains("trailer") }, "\(a.diagnostics)")
        XCTAssertNil(a.motionPhoto, "no MotionPhoto_Data block")
        // A directory that lists more entries than it holds: noted; the JPEG still ends before it.
        let broken = Array("SEFH".utf8) + [UInt8](repeating: 0x41, count: 40_000)
        let b = inspect(try bigPhoto() + broken + le32(broken.count) + Array("SEFT".utf8))
        XCTAssertFalse(b.truncated, "\(b.diagnostics)")
        XCTAssertTrue(b.diagnostics.contains { $0.message.contains("Samsung trailer directory") }, "\(b.diagnostics)")
    }

    func testMotionPhotoMovieAfterEOI() throws {
        // The XMP says how long the appended movie is; the movie is larger than the tail read.
        let movie = [0, 0, 0, 24] + Array("ftypmp42".utf8) + [UInt8](repeating: 0x11, count: 200_000)
        var b = try bigPhoto()
        let xmp =
            Array("http://ns.adobe.com/xap/1.0/\0".utf8)
            + Array(
                "<x:xmpmeta><rdf:Description GCamera:MicroVideo=\"1\" GCamera:MicroVideoOffset=\"\(movie.count)\"/></x:xmpmeta>"
                    .utf8)
        let app1 = [0xFF, 0xE1, UInt8((xmp.count + 2) >> 8), UInt8((xmp.count + 2) & 0xFF)] + xmp
        b.insert(contentsOf: app1, at: 2)
        XCTAssertFalse(inspect(b + movie).truncated, "\(inspect(b + movie).diagnostics)")
        // The same movie, cut: the image does not end where the XMP says.
        XCTAssertTrue(inspect(b + movie.prefix(100_000)).truncated)
    }

    func testAnUnknownShortTrailerIsANoteNotACut() throws {
        let a = inspect(try photo() + Array("SOME VENDOR TRAILER".utf8))
        XCTAssertFalse(a.truncated)
        XCTAssertTrue(a.diagnostics.contains { $0.message.contains("unknown trailer") }, "\(a.diagnostics)")
    }
}
