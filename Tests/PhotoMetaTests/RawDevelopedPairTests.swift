import XCTest

@testable import PhotoMetaCore

final class RawDevelopedPairTests: XCTestCase {
    func testShotKeysOfCamerasAndPhones() {
        XCTAssertEqual(RawDevelopedPair.rawKey("DCIM/100CANON/IMG_0001.CR3"), "img_0001")
        XCTAssertEqual(RawDevelopedPair.developedKey("DCIM/100CANON/IMG_0001.JPG"), "img_0001")
        XCTAssertEqual(RawDevelopedPair.rawKey("_DSC0001.ARW"), "_dsc0001")
        XCTAssertEqual(RawDevelopedPair.rawKey("GOPR0001.GPR"), "gopr0001")
        XCTAssertEqual(RawDevelopedPair.rawKey("pxl_20240101_120000123.raw-02.original.dng"), "pxl_20240101_120000123")
        XCTAssertEqual(RawDevelopedPair.rawKey("20240101_120000.dng"), "20240101_120000")
        XCTAssertEqual(RawDevelopedPair.developedKey("20240101_120000.heic"), "20240101_120000")
        // A Pixel's RAW+JPEG: one shot under two names.
        XCTAssertEqual(RawDevelopedPair.rawKey("PXL_20240101_120000123.RAW-02.ORIGINAL.dng"), "pxl_20240101_120000123")
        XCTAssertEqual(RawDevelopedPair.developedKey("PXL_20240101_120000123.RAW-01.MP.COVER.jpg"), "pxl_20240101_120000123")
        XCTAssertEqual(RawDevelopedPair.developedKey("PXL_20240101_120000123.RAW-01.COVER.jpg"), "pxl_20240101_120000123")
        // Not a raw, not a developed picture, no base name.
        XCTAssertNil(RawDevelopedPair.rawKey("IMG_0001.JPG"))
        XCTAssertNil(RawDevelopedPair.developedKey("IMG_0001.CR3"))
        XCTAssertNil(RawDevelopedPair.developedKey("clip.mp4"))
        XCTAssertNil(RawDevelopedPair.rawKey(".dng"))
        XCTAssertNil(RawDevelopedPair.rawKey("dir.dng/file"))
    }

    /// The scan marks a raw whose shot the folder's listing has a developed picture of, in any
    /// part of the folder, whatever the order the parts arrive in; a raw alone stays a picture.
    func testFolderPairingMarksTheRawOfADevelopedShot() {
        func candidate(_ path: String, format: MediaFormat) -> SuggestionCandidate {
            SuggestionCandidate(path: path, format: format, kind: .photo, captured: nil, modified: 0, size: 1)
        }
        for holdsAll in [false, true] {
            var pairing = FolderPairing(movieNames: [], holdsAll: holdsAll, developedShots: ["img_0001"])
            var out = pairing.take(
                [candidate("d/IMG_0001.CR3", format: .cr3), candidate("d/IMG_0002.CR3", format: .cr3)], positions: [0, 2],
                lastMovies: true)
            out += pairing.take([candidate("d/IMG_0001.JPG", format: .jpeg)], positions: [1], lastMovies: true)
            out += pairing.finish()
            let marked = Dictionary(uniqueKeysWithValues: out.map { ($0.path, $0.hasDevelopedPicture) })
            XCTAssertEqual(marked, ["d/IMG_0001.CR3": true, "d/IMG_0002.CR3": false, "d/IMG_0001.JPG": false], "\(holdsAll)")
        }
        let rule = MediaRule()
        var raw = candidate("d/IMG_0001.CR3", format: .cr3)
        let context = SuggestionContext(now: 0, realNow: 0, remembered: nil, settings: SuggestionSettings(zone: .gmt))
        XCTAssertNil(rule.reject(raw, in: context))
        raw.hasDevelopedPicture = true
        XCTAssertEqual(rule.reject(raw, in: context), "raw original of a developed picture beside it (the picture is offered)")
    }
}
