import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

final class ExifDecoderTests: XCTestCase {
    func record(_ name: String) throws -> ExifRecord {
        let bytes = try TestPaths.bytes(name)
        let format = FormatDetector.detect(Array(bytes.prefix(64)))
        let p = FormatDetector.readContainer(BoundedReader(MemoryByteSource(bytes)), format: format)
        return ExifDecoder.decode(tiff: try XCTUnwrap(p.exif))
    }

    func testEveryFieldOfACameraJPEG() throws {
        let r = try record("IMG_20240315_093012.jpg")
        XCTAssertEqual(r.make, "Google")
        XCTAssertEqual(r.model, "Pixel 7")
        XCTAssertEqual(r.software, "HDR+ 1.0")
        XCTAssertEqual(r.lensModel, "Pixel 7 back camera")
        XCTAssertEqual(r.orientation, 6)
        XCTAssertEqual(r.dateTimeOriginal, "2024:03:15 09:30:12")
        XCTAssertEqual(r.dateTimeDigitized, "2024:03:15 09:30:12")
        XCTAssertEqual(r.dateTime, "2024:03:16 10:00:00")
        XCTAssertEqual(r.offsetTimeOriginal, "+08:00")
        XCTAssertEqual(r.offsetTimeDigitized, "+08:00")
        XCTAssertEqual(r.offsetTime, "+00:00")
        XCTAssertEqual(r.subSecTimeOriginal, "25")
        XCTAssertEqual(r.pixelWidth, 16)
        XCTAssertEqual(r.pixelHeight, 8)
        XCTAssertEqual(try XCTUnwrap(r.gpsLatitude), 31.2304, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(r.gpsLongitude), 121.4737, accuracy: 1e-6)
        XCTAssertEqual(r.gpsDateStamp, "2024:03:15")
        XCTAssertEqual(r.gpsTimeOfDay, 1 * 3600 + 30 * 60 + 12)
        XCTAssertEqual(r.thumbnailBytes, 191)
        XCTAssertEqual(r.diagnostics, [])
    }

    /// GPSLatitudeRef 's' and GPSLongitudeRef 'w', as some writers put them: south and west.
    func testLowerCaseGPSReferences() throws {
        var bytes = try TestPaths.bytes("../formats/gps_only.jpg")
        // The two refs are inline ASCII values [TIFF 6.0 2]: tag, type 2, count 2, 'N'/'W' and NUL.
        for (tag, upper, lower) in [(UInt8(1), UInt8(ascii: "N"), UInt8(ascii: "s")), (3, UInt8(ascii: "W"), UInt8(ascii: "w"))] {
            let entry: [UInt8] = [tag, 0, 2, 0, 2, 0, 0, 0, upper, 0]
            let at = try XCTUnwrap((0...(bytes.count - entry.count)).first { Array(bytes[$0..<$0 + entry.count]) == entry })
            bytes[at + 8] = lower
        }
        let p = FormatDetector.readContainer(BoundedReader(MemoryByteSource(bytes)), format: .jpeg)
        let r = ExifDecoder.decode(tiff: try XCTUnwrap(p.exif))
        XCTAssertEqual(try XCTUnwrap(r.gpsLatitude), -51.5074, accuracy: 1e-4)
        XCTAssertEqual(try XCTUnwrap(r.gpsLongitude), -0.1278, accuracy: 1e-4)
    }

    func testUserCommentWithCharacterCode() throws {
        XCTAssertEqual(try record("IMG_0420.PNG").userComment, "Screenshot")
    }

    func testUnrecordedTagsAreKept() throws {
        // FOLLOW_SPECIFICATION would delete the placeholder date and invent missing tags.
        let r = try record("placeholder_dates.jpg")
        XCTAssertEqual(r.dateTimeOriginal, "0000:00:00 00:00:00")
        XCTAssertNil(r.orientation, "no Orientation was invented")
    }

    func testGarbageGivesDiagnosticsNotACrash() {
        let r = ExifDecoder.decode(tiff: [0x4D, 0x4D, 0x00, 0x2A, 0xFF, 0xFF, 0xFF, 0xF0] + [UInt8](repeating: 0xFF, count: 64))
        XCTAssertNil(r.make)
        let short = ExifDecoder.decode(tiff: [0x49, 0x49])
        XCTAssertFalse(short.diagnostics.isEmpty)
    }

    func testCorruptDataIsLoggedIntoDiagnostics() throws {
        // truncated.jpg is cut inside its EXIF IFD: libexif reports the cut through its log,
        // which must reach the record's diagnostics.
        let r = try record("truncated.jpg")
        XCTAssertTrue(r.diagnostics.contains { $0.message.contains("ExifData") }, "\(r.diagnostics)")
        XCTAssertEqual(r.make, "Google", "entries before the cut survive")
    }

    /// libexif 0.6.24 recognises Apple's maker note and lists tag 0x0011 (MediaGroupUUID, the
    /// Live Photo content identifier) but returns an empty value for it; photometa must then
    /// report nothing rather than garbage, and pairs the Live Photo by name.
    func testAppleContentIdentifierFromCorpus() throws {
        guard let corpus = TestPaths.corpus else { throw XCTSkip("../shared/corpus not found") }
        let path = corpus.appendingPathComponent("exif-samples/heic/IMG_5195.HEIC").path
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("IMG_5195.HEIC not in corpus") }
        let a = FileInspector.inspect(path: path)
        XCTAssertEqual(a.make, "Apple")
        // Either libexif's value is dropped (nil) or it is the real identifier; never garbage.
        XCTAssertTrue(
            a.contentIdentifier == nil || a.contentIdentifier == "570F1469-09C7-4E50-9875-05F21D5BD166",
            "Apple maker note tag 0x0011: \(a.contentIdentifier ?? "nil")")
    }
}
