import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore

/// IPTC IIM dates in a JPEG's Photoshop APP13 segment: the walk over resource blocks and
/// datasets, the date text, and the rule's place in the precedence table.
final class PhotoshopResourcesTests: XCTestCase {
    /// An APP13 payload: "Photoshop 3.0\0", then resource blocks.
    func app13(_ blocks: [[UInt8]]) -> [UInt8] { PhotoshopResources.identifier + blocks.flatMap { $0 } }

    func block(id: UInt16, name: [UInt8] = [], data: [UInt8]) -> [UInt8] {
        var pascal = [UInt8(name.count)] + name
        if pascal.count % 2 == 1 { pascal.append(0) }
        var b = Array("8BIM".utf8) + [UInt8(id >> 8), UInt8(id & 0xFF)] + pascal
        b += withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init) + data
        if data.count % 2 == 1 { b.append(0) }
        return b
    }

    func dataset(_ record: UInt8, _ number: UInt8, _ text: String) -> [UInt8] {
        let v = Array(text.utf8)
        return [0x1C, record, number, UInt8(v.count >> 8), UInt8(v.count & 0xFF)] + v
    }

    func testTheFixtureIsDatedByIPTC() {
        let asset = FileInspector.inspect(path: TestPaths.fixtures.path + "/formats/iptc.jpg")
        XCTAssertNil(asset.error)
        XCTAssertEqual(asset.captured?.source, .iptcDateCreated)
        let r = asset.captured?.rendered(in: utcZone)
        XCTAssertEqual(r?.local, "2005-12-23T14:30:00")
        XCTAssertEqual(r?.offset, "+02:00")
        XCTAssertEqual(r?.utc, "2005-12-23T12:30:00Z")
    }

    func testBlocksAreSteppedOverWhateverTheirNamesAndPadding() {
        let iim = dataset(2, 120, "odd") + dataset(2, 55, "20240315") + dataset(2, 60, "093012-0500")
        for name in [[], [0x41], [0x41, 0x42]] as [[UInt8]] {
            let payload = app13([block(id: 0x03ED, name: name, data: [1, 2, 3]), block(id: 0x0404, name: name, data: iim)])
            let clue = PhotoshopResources.iptcDate(app13: payload)
            XCTAssertEqual(clue, DateClue(.iptcDateCreated, .text("20240315 093012-0500", .iptc)), "name \(name)")
        }
    }

    func testWhatIsNotADateGivesNone() {
        let date = dataset(2, 55, "20240315")
        XCTAssertNil(PhotoshopResources.iptcDate(app13: Array("Photoshop 2.5\0".utf8) + block(id: 0x0404, data: date)))
        XCTAssertNil(PhotoshopResources.iptcDate(app13: app13([block(id: 0x0405, data: date)])), "another resource")
        XCTAssertNil(PhotoshopResources.iptcDate(app13: app13([block(id: 0x0404, data: dataset(1, 55, "20240315"))])))
        // A block that claims more than there is ends the walk; so does an extended length.
        let cut = Array(app13([block(id: 0x0404, data: date)]).dropLast(4))
        XCTAssertNil(PhotoshopResources.iptcDate(app13: cut))
        let extended: [UInt8] = [0x1C, 2, 120, 0x80, 0x04, 0, 0, 0, 1, 0x41] + date
        XCTAssertNil(PhotoshopResources.iptcDate(app13: app13([block(id: 0x0404, data: extended)])))
        // Only the time: no date.
        XCTAssertNil(PhotoshopResources.iptcDate(app13: app13([block(id: 0x0404, data: dataset(2, 60, "093012+0000"))])))
    }

    func testTheDateText() throws {
        let dateOnly = try DateTextParser.iptc("20051223").get()
        XCTAssertFalse(dateOnly.local.hasTime)
        XCTAssertEqual(dateOnly.local.iso8601, "2005-12-23")
        let noZone = try DateTextParser.iptc("20051223 143000").get()
        XCTAssertEqual(noZone.local.iso8601, "2005-12-23T14:30:00")
        XCTAssertNil(noZone.offset)
        XCTAssertEqual(try DateTextParser.iptc("20051223 143000-0330").get().offset?.seconds, -(3 * 3600 + 1800))
        XCTAssertEqual(DateTextParser.iptc("00000000"), .failure(.placeholder))
        XCTAssertEqual(DateTextParser.iptc("20051323"), .failure(.impossible))
        for text in ["2005122", "2005-12-23", "20051223 1430", "20051223 143000 0200", "20051223T143000+0200"] {
            XCTAssertEqual(DateTextParser.iptc(text), .failure(.malformed), text)
        }
    }

    /// IPTC's date alone yields to a timestamp of the file on that day (DateTime, or the GPS
    /// fix's): it says the time as well. On another day, or with TimeCreated, IPTC's wins.
    func testADateAloneYieldsToATimestampOfThatDay() {
        var exif = ExifRecord()
        exif.dateTime = "2004:07:13 21:23:44"
        func source(_ text: String) -> DateSource? {
            let clue = DateClue(.iptcDateCreated, .text(text, .iptc))
            return CaptureDateResolver.resolve(DateEvidence(exif: exif, clues: [clue], fileName: "x.jpg")).date?.source
        }
        XCTAssertEqual(source("20040713"), .exifDateTime)
        XCTAssertEqual(source("20040712"), .iptcDateCreated)
        XCTAssertEqual(source("20040713 080000+0000"), .iptcDateCreated)
        exif.dateTime = nil
        exif.gpsDateStamp = "2004:07:13"
        exif.gpsTimeOfDay = 3600
        XCTAssertEqual(source("20040713"), .exifGPSDateTime)
    }

    /// Below the XMP dates (Photoshop mirrors IPTC's into `photoshop:DateCreated`), above the
    /// PNG text, the GPS time and EXIF DateTime.
    func testItsPlaceInThePrecedenceTable() {
        let iptc = DateClue(.iptcDateCreated, .text("20051223 143000+0200", .iptc))
        var xmp = XMPRecord()
        xmp.createDate = "2006-01-01T00:00:00"
        XCTAssertEqual(
            CaptureDateResolver.resolve(DateEvidence(xmp: xmp, clues: [iptc], fileName: "x.jpg")).date?.source, .xmpCreateDate)
        var exif = ExifRecord()
        exif.dateTime = "2007:01:01 00:00:00"
        exif.gpsDateStamp = "2005:12:23"
        exif.gpsTimeOfDay = 12 * 3600 + 30 * 60
        let d = CaptureDateResolver.resolve(DateEvidence(exif: exif, clues: [iptc], fileName: "x.jpg")).date
        XCTAssertEqual(d?.source, .iptcDateCreated)
    }
}
