import XCTest

@testable import PhotoMetaCore

final class ISO6709LocationTests: XCTestCase {
    func point(_ s: String) -> (Double, Double)? { ISO6709Location(s).map { ($0.latitude, $0.longitude) } }

    func assertPoint(_ s: String, _ lat: Double, _ lon: Double, file: StaticString = #filePath, line: UInt = #line) {
        guard let p = point(s) else { return XCTFail("\(s) not read", file: file, line: line) }
        XCTAssertEqual(p.0, lat, accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(p.1, lon, accuracy: 1e-9, file: file, line: line)
    }

    func testDecimalDegreesAsPhonesWriteThem() {
        assertPoint("+37.3318-122.0312+012.345/", 37.3318, -122.0312)  // Apple, with altitude
        assertPoint("-33.8568+151.2153/", -33.8568, 151.2153)  // Android MPEG4Writer
        assertPoint("+48.8584+002.2945", 48.8584, 2.2945)  // no closing solidus
        assertPoint("+35.6895+139.6917+040.000CRSWGS_84/", 35.6895, 139.6917)
        assertPoint("+5.5-0.25/", 5.5, -0.25)  // not zero-padded
    }

    func testMinutesAndSecondsForms() {
        assertPoint("+4051.5-07357.5/", 40 + 51.5 / 60, -(73 + 57.5 / 60))  // ±DDMM.M ±DDDMM.M
        assertPoint("+405130-0735730/", 40 + 51.0 / 60 + 30.0 / 3600, -(73 + 57.0 / 60 + 30.0 / 3600))
    }

    func testOutOfRangeAndJunkGiveNothing() {
        XCTAssertNil(point("+91.0000+000.0000/"))  // latitude past the pole
        XCTAssertNil(point("+10.0000+181.0000/"))
        XCTAssertNil(point("+4071.0-07357.0/"))  // 71 minutes
        XCTAssertNil(point("+123.0+010.0/"))  // a three-digit latitude
        XCTAssertNil(point("37.3318,-122.0312"))  // no signs: not ISO 6709
        XCTAssertNil(point("+37.3318"))
        XCTAssertNil(point(""))
        XCTAssertNil(point("+-/"))
        XCTAssertNil(point("+" + String(repeating: "9", count: 10_000)))
    }

    func testMovieLocationsReachTheAsset() throws {
        let mov = MediaAsset.from(try TestPaths.bytes("IMG_0001.MOV"), path: "IMG_0001.MOV")
        XCTAssertEqual(mov.gps?.latitude ?? 0, 48.8584, accuracy: 1e-9)
        XCTAssertEqual(mov.gps?.longitude ?? 0, 2.2945, accuracy: 1e-9)
        let mp4 = MediaAsset.from(try TestPaths.bytes("clip.mp4"), path: "clip.mp4")
        XCTAssertEqual(mp4.gps?.latitude ?? 0, -33.8568, accuracy: 1e-9)
        XCTAssertEqual(mp4.gps?.longitude ?? 0, 151.2153, accuracy: 1e-9)
    }
}
