import Foundation
import XCTest

@testable import PhotoMetaCore

/// Sidecars in the pure core: which names pair (`SidecarNames`), what an XMP sidecar and a
/// Takeout JSON state, and where their dates rank (docs/dates.md, "Sidecars").
final class SidecarTests: XCTestCase {
    func names(_ name: String) -> [String] { SidecarNames.candidates(for: name).map(\.name) }

    func testXMPNamesDarktableFirst() {
        let n = names("IMG_1234.CR3")
        XCTAssertEqual(Array(n.prefix(4)), ["IMG_1234.CR3.xmp", "IMG_1234.CR3.XMP", "IMG_1234.xmp", "IMG_1234.XMP"])
        XCTAssertEqual(names("noext").filter { $0.hasSuffix("mp") || $0.hasSuffix("MP") }, ["noext.xmp", "noext.XMP"])
    }

    func testTakeoutNames() {
        XCTAssertEqual(
            names("beach.png").filter { $0.hasSuffix(".json") },
            ["beach.png.supplemental-metadata.json", "beach.png.json"])
        XCTAssertEqual(
            names("beach(1).png").filter { $0.hasSuffix(".json") },
            ["beach.png.supplemental-metadata(1).json", "beach.png(1).json"])
        XCTAssertEqual(
            names("beach-edited.png").filter { $0.hasSuffix(".json") },
            ["beach.png.supplemental-metadata.json", "beach.png.json"])
        let long = "Holiday_in_the_mountains_with_the_whole_family_2019.jpg"
        XCTAssertEqual(names(long).filter { $0.hasSuffix(".json") }, ["Holiday_in_the_mountains_with_the_whole_family.json"])
        XCTAssertEqual(
            names("IMG_20240315_093012_HDR.jpg").filter { $0.hasSuffix(".json") },
            ["IMG_20240315_093012_HDR.jpg.supplemental-metad.json", "IMG_20240315_093012_HDR.jpg.json"])
    }

    func testSidecarsHaveNoSidecars() {
        XCTAssertEqual(names("IMG_1.CR3.xmp"), [])
        XCTAssertEqual(names("beach.png.JSON"), [])
        XCTAssertTrue(SidecarNames.isSidecar("a.XMP"))
        XCTAssertFalse(SidecarNames.isSidecar("xmp"))
    }

    func xmp(_ text: String, path: String = "d/a.xmp") -> SidecarEvidence {
        SidecarEvidence.read([SidecarFile(kind: .xmp, path: path, bytes: Array(text.utf8))], pictureName: "a.jpg")
    }

    func testXMPSidecarDatesAndPosition() throws {
        let e = xmp(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:ns1="http://ns.adobe.com/exif/1.0/" ns1:DateTimeOriginal="2024:11:29 22:15:00"
             ns1:GPSLatitude="33,51,54.5S" ns1:GPSLongitude="151,12.75E"/></rdf:RDF></x:xmpmeta>
            """)
        XCTAssertEqual(e.clues.map(\.source), [.sidecarXMP])
        XCTAssertEqual(e.clues.first?.origin, "d/a.xmp")
        let gps = try XCTUnwrap(e.location)
        XCTAssertEqual(gps.latitude, -(33 + 51.0 / 60 + 54.5 / 3600), accuracy: 1e-9)
        XCTAssertEqual(gps.longitude, 151.2125, accuracy: 1e-9)
    }

    func testNotXMPIsSaid() {
        let e = xmp("{\"photoTakenTime\": 1}")
        XCTAssertEqual(e.clues, [])
        XCTAssertEqual(e.diagnostics.map(\.description), ["sidecar: d/a.xmp is not an XMP packet; skipped"])
        XCTAssertEqual(xmp("<x:xmpmeta></x:xmpmeta>").diagnostics.map(\.message), ["d/a.xmp states no date and no position"])
    }

    func testCoordinates() {
        XCTAssertEqual(XMPCoordinate.degrees("48,51.504N", latitude: true) ?? 0, 48.8584, accuracy: 1e-9)
        XCTAssertNil(XMPCoordinate.degrees("48,51.504E", latitude: true), "E is not a latitude")
        XCTAssertNil(XMPCoordinate.degrees("91,0N", latitude: true))
        XCTAssertNil(XMPCoordinate.degrees("10,61N", latitude: true))
        XCTAssertNil(XMPCoordinate.degrees("N", latitude: true))
        XCTAssertNil(XMPCoordinate.degrees("a,b,cN", latitude: true))
    }

    func takeout(_ json: String, picture: String = "beach.png") -> SidecarEvidence {
        SidecarEvidence.read([SidecarFile(kind: .takeout, path: "t.json", bytes: Array(json.utf8))], pictureName: picture)
    }

    func testTakeoutInstantAndPosition() throws {
        let e = takeout(
            #"{"title":"beach.png","photoTakenTime":{"timestamp":"1690000000"},"geoData":{"latitude":43.5,"longitude":7.0}}"#)
        XCTAssertEqual(
            e.clues,
            [
                DateClue(
                    .sidecarTakeout, .instant(utc: LocalDateTime(secondsAsIfUTC: 1_690_000_000)!, caveat: nil), origin: "t.json")
            ])
        XCTAssertEqual(e.location, MediaAsset.GPS(latitude: 43.5, longitude: 7.0))
        let numeric = takeout(#"{"photoTakenTime":{"timestamp":1690000000},"geoData":{"latitude":0,"longitude":0}}"#)
        XCTAssertEqual(numeric.clues.count, 1, "a number is read as well as a string")
        XCTAssertNil(numeric.location, "all zeros is no position")
    }

    func testTakeoutRefusals() {
        let cases: [(String, String)] = [
            ("{not json", "not a JSON object"),
            ("[1,2]", "not a JSON object"),
            (#"{"theme":"dark"}"#, "no photoTakenTime: not a Google Takeout sidecar"),
            (#"{"title":"other.png","photoTakenTime":{"timestamp":"1690000000"}}"#, "its title is 'other.png', not beach.png"),
            (#"{"photoTakenTime":{"timestamp":"soon"}}"#, "photoTakenTime.timestamp is not a time"),
            (#"{"photoTakenTime":{"timestamp":"0"}}"#, "photoTakenTime.timestamp is not a time"),
            (#"{"photoTakenTime":{"timestamp":"99999999999999999999"}}"#, "photoTakenTime.timestamp is not a time"),
        ]
        for (json, why) in cases {
            let e = takeout(json)
            XCTAssertEqual(e.clues, [], json)
            XCTAssertEqual(e.diagnostics.map(\.message), ["t.json: \(why); skipped"], json)
        }
    }

    /// Hostile JSON within the size limit: deep nesting, a huge string, many keys.
    func testHostileJSON() {
        let deep = String(repeating: "[", count: 500_000)
        let deepObject = String(repeating: #"{"a":"#, count: 100_000)
        let wide = "{" + (0..<20_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        let long = #"{"photoTakenTime":{"timestamp":""# + String(repeating: "9", count: 500_000) + #""}}"#
        for json in [deep, deepObject, wide, long] {
            let e = takeout(json)
            XCTAssertEqual(e.clues, [])
            XCTAssertEqual(e.diagnostics.count, 1)
        }
    }

    func testTakeoutTitlesOfCopies() {
        for picture in ["beach(1).png", "beach-edited.png", "BEACH.PNG"] {
            XCTAssertEqual(
                takeout(#"{"title":"beach.png","photoTakenTime":{"timestamp":"1"}}"#, picture: picture).clues.count, 1, picture)
        }
    }

    func testSidecarsRankBelowTheFileAndAboveItsName() {
        let sidecar = DateClue(.sidecarXMP, .text("2020-01-01T00:00:00", .iso8601), origin: "x.xmp")
        let takeout = DateClue(
            .sidecarTakeout, .instant(utc: LocalDateTime(secondsAsIfUTC: 1_600_000_000)!, caveat: nil), origin: "x.json")
        var xmp = XMPRecord()
        xmp.createDate = "2019-05-05T05:05:05"
        let embedded = CaptureDateResolver.resolve(
            DateEvidence(xmp: xmp, clues: [sidecar, takeout], fileName: "IMG_20240315_093012.jpg"))
        XCTAssertEqual(embedded.date?.source, .xmpCreateDate)
        XCTAssertNil(embedded.date?.sidecar)
        let fromXMP = CaptureDateResolver.resolve(DateEvidence(clues: [takeout, sidecar], fileName: "IMG_20240315_093012.jpg"))
        XCTAssertEqual(fromXMP.date?.source, .sidecarXMP)
        XCTAssertEqual(fromXMP.date?.sidecar, "x.xmp")
        let fromTakeout = CaptureDateResolver.resolve(DateEvidence(clues: [takeout], fileName: "IMG_20240315_093012.jpg"))
        XCTAssertEqual(fromTakeout.date?.source, .sidecarTakeout)
        XCTAssertEqual(fromTakeout.date?.sidecar, "x.json")
    }
}
