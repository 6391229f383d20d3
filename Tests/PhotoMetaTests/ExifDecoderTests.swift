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

    /// GPSLatitude, GPSLongitude and GPSTimeStamp as SRATIONALs (type 10), as HMD's Nokia phones
    /// write them: read as exiftool reads them; a negative part leaves the side ambiguous.
    func testSignedRationalGPS() throws {
        var bytes = try TestPaths.bytes("../formats/gps_only.jpg")
        // Little-endian entries [TIFF 6.0 2]: tag, type 5 (RATIONAL), count 3, then the offset.
        var offsets: [UInt8: Int] = [:]
        for tag: UInt8 in [2, 4, 7] {
            let entry: [UInt8] = [tag, 0, 5, 0, 3, 0, 0, 0]
            let at = try XCTUnwrap((0...(bytes.count - entry.count)).first { Array(bytes[$0..<$0 + entry.count]) == entry })
            bytes[at + 2] = 10  // SRATIONAL
            offsets[tag] = Int(bytes[at + 8]) | Int(bytes[at + 9]) << 8
        }
        func decode(_ b: [UInt8]) throws -> ExifRecord {
            let p = FormatDetector.readContainer(BoundedReader(MemoryByteSource(b)), format: .jpeg)
            return ExifDecoder.decode(tiff: try XCTUnwrap(p.exif))
        }
        let r = try decode(bytes)
        XCTAssertEqual(try XCTUnwrap(r.gpsLatitude), 51.5074, accuracy: 1e-4)
        XCTAssertEqual(try XCTUnwrap(r.gpsLongitude), -0.1278, accuracy: 1e-4)
        XCTAssertEqual(r.gpsTimeOfDay, 8 * 3600 + 30 * 60)
        XCTAssertEqual(r.diagnostics, [])

        // The latitude's degrees made -51: no position, and a diagnostic says why.
        let tiff = try XCTUnwrap((0...(bytes.count - 6)).first { Array(bytes[$0..<$0 + 6]) == Array("Exif\0\0".utf8) }) + 6
        let degrees = tiff + (try XCTUnwrap(offsets[2]))
        XCTAssertEqual(Array(bytes[degrees..<degrees + 8]), [51, 0, 0, 0, 1, 0, 0, 0])
        bytes.replaceSubrange(degrees..<degrees + 4, with: withUnsafeBytes(of: Int32(-51).littleEndian, Array.init))
        let negative = try decode(bytes)
        XCTAssertNil(negative.gpsLatitude)
        XCTAssertNil(negative.gpsLongitude)
        XCTAssertEqual(negative.diagnostics.map(\.message), ["GPS position out of range; ignored"])
    }

    /// DateTimeOriginal in IFD0 with its SubSecTimeOriginal and OffsetTimeOriginal beside it, as
    /// some writers put them: the three belong together.
    func testDateTagsAllInIFD0() {
        func entry(_ tag: UInt16, _ count: UInt32, _ value: [UInt8]) -> [UInt8] {
            withUnsafeBytes(of: tag.littleEndian, Array.init) + [2, 0] + withUnsafeBytes(of: count.littleEndian, Array.init)
                + value
        }
        let date = Array("2022:01:02 03:04:05".utf8) + [0]  // 20 bytes, at 50
        let offset = Array("+03:00".utf8) + [0]  // 7 bytes, at 70
        var tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 3, 0]
        tiff += entry(0x9003, 20, [50, 0, 0, 0])
        tiff += entry(0x9011, 7, [70, 0, 0, 0])
        tiff += entry(0x9291, 3, Array("25".utf8) + [0, 0])
        tiff += [0, 0, 0, 0] + date + offset
        let r = ExifDecoder.decode(tiff: tiff)
        XCTAssertEqual(r.dateTimeOriginal, "2022:01:02 03:04:05")
        XCTAssertEqual(r.offsetTimeOriginal, "+03:00")
        XCTAssertEqual(r.subSecTimeOriginal, "25")
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
