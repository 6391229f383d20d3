import XCTest

@testable import PhotoMetaCore

/// Panasonic RW2 and Olympus ORF (issue 22): TIFF under another magic number, read by the TIFF
/// walker and libexif, with their own format names and picture sizes.
final class RawTIFFVariantTests: XCTestCase {
    func testRW2SizeIsTheSensorCropAndItsPreviewIsFound() throws {
        let bytes = try TestPaths.bytes("../formats/panasonic.rw2")
        let a = MediaAsset.from(bytes, path: "P1000001.RW2")
        XCTAssertEqual(a.format, .rw2)
        XCTAssertEqual(a.kind, .photo)
        XCTAssertEqual(a.make, "Panasonic")
        XCTAssertEqual(a.model, "DC-G9")
        XCTAssertEqual(a.width, 5184, "right border 5192 minus left 8")
        XCTAssertEqual(a.height, 2592, "bottom border 2596 minus top 4")
        XCTAssertEqual(a.captured?.source, .exifDateTimeOriginal)
        XCTAssertFalse(a.truncated)
        let previews = PreviewFinder.previews(MemoryByteSource(bytes))
        XCTAssertEqual(previews.map { [$0.width, $0.height] }, [[16, 8]], "JpgFromRaw (0x002E)")
        XCTAssertEqual(previews.first?.source, .raw)
    }

    func testORFSizeIsIFD0sRawImage() throws {
        let a = MediaAsset.from(try TestPaths.bytes("../formats/olympus.orf"), path: "P4050001.ORF")
        XCTAssertEqual(a.format, .orf)
        XCTAssertEqual(a.kind, .photo)
        XCTAssertEqual(a.make, "OLYMPUS IMAGING CORP.")
        XCTAssertEqual(a.orientation, 8)
        XCTAssertEqual(a.width, 4640, "IFD0's ImageWidth, as exiftool reports it, not the Exif IFD's 4608")
        XCTAssertEqual(a.height, 3472)
        XCTAssertEqual(a.captured?.source, .exifDateTimeOriginal)
    }

    func testMagicNumbers() {
        XCTAssertEqual(FormatDetector.detect(Array("IIU\0".utf8) + [8, 0, 0, 0]), .rw2)
        for magic in ["IIRO", "IIRS", "MMOR"] {
            XCTAssertEqual(FormatDetector.detect(Array(magic.utf8) + [0, 0, 0, 8]), .orf, magic)
        }
    }

    /// Borders that make no picture (right before left) leave the size to EXIF; a cut at every
    /// byte gives an answer in the same format, never a crash.
    func testLyingBordersAndCuts() throws {
        var bytes = try TestPaths.bytes("../formats/panasonic.rw2")
        for cut in 0..<bytes.count {
            let a = MediaAsset.from(Array(bytes.prefix(cut)), path: "cut.rw2")
            XCTAssertTrue(a.format == .rw2 || a.error != nil, "cut at \(cut)")
        }
        // The left border (tag 5) set past the right one.
        let entry = try XCTUnwrap(find([0x05, 0x00, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00], in: bytes))
        bytes[entry + 8] = 0xFF
        bytes[entry + 9] = 0xFF
        let a = MediaAsset.from(bytes, path: "liar.rw2")
        XCTAssertNil(a.width)
        XCTAssertEqual(a.make, "Panasonic")
    }

    func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
