import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// The kind rules of docs/kinds.md, one by one.
final class KindClassifierTests: XCTestCase {
    func classify(_ i: KindClassifier.Input) -> (MediaKind, [String]) {
        let r = KindClassifier.classify(i)
        return (r.kind, r.evidence.map(\.description))
    }

    func testVideoFormatsAreVideos() {
        XCTAssertEqual(classify(.init(format: .mov, path: "Screenshots/Screenshot_20240101-120000.mov")).0, .video)
        XCTAssertEqual(classify(.init(format: .mp4, path: "a.mp4")).0, .video)
    }

    /// The classifier sees the file alone; the still becomes a Live Photo when the pairing rule
    /// links it to its movie (`LivePhotoPairing.link`, the one place that sets the kind).
    func testLivePhotoNeedsAPartner() {
        var still = MediaAsset.from([], path: "IMG_1.HEIC")
        still.format = .heic
        still.classify()
        XCTAssertEqual(still.kind, .photo)
        LivePhotoPairing.link(&still, partner: "IMG_1.MOV", captured: nil, evidence: .contentIdentifier, isStill: true)
        XCTAssertEqual(still.kind, .livePhoto)
        XCTAssertEqual(still.livePhotoPair, "IMG_1.MOV")
        XCTAssertEqual(classify(.init(format: .heic, path: "IMG_1.HEIC")).0, .photo)
        var movie = MediaAsset.from([], path: "IMG_1.MOV")
        movie.format = .mov
        movie.classify()
        LivePhotoPairing.link(&movie, partner: "IMG_1.HEIC", captured: nil, evidence: .contentIdentifier, isStill: false)
        XCTAssertEqual(movie.kind, .video, "the movie stays a video")
    }

    func testGIF() {
        XCTAssertEqual(classify(.init(format: .gif, path: "a.gif")).0, .gif)
    }

    func testScreenshotByUserComment() {
        let (kind, ev) = classify(.init(format: .jpeg, exifUserComment: "Screenshot", path: "IMG_0001.JPG"))
        XCTAssertEqual(kind, .screenshot)
        XCTAssertEqual(ev, ["exif.UserComment=Screenshot"])
        XCTAssertEqual(
            classify(.init(format: .heic, xmpUserComment: "screenshot", path: "a.heic")).1, ["xmp.UserComment=Screenshot"])
    }

    func testScreenshotByFileName() {
        XCTAssertEqual(
            classify(.init(format: .jpeg, path: "x/Screenshot_20240315-093012_Chrome.jpg")).1,
            ["filename:android.screenshot"])
        XCTAssertEqual(classify(.init(format: .jpeg, path: "IMG_20240315_093012.jpg")).0, .photo, "a camera name is no evidence")
    }

    func testScreenshotByFolder() {
        XCTAssertEqual(classify(.init(format: .jpeg, path: "/home/u/Pictures/Screenshots/a.jpg")).1, ["folder:Screenshots"])
        XCTAssertEqual(classify(.init(format: .jpeg, path: "/home/u/Screenshots.jpg")).0, .photo, "only folders count")
    }

    func testScreenshotBySizeOnlyForCameralessPNG() {
        XCTAssertEqual(classify(.init(format: .png, width: 1179, height: 2556, path: "a.png")).1, ["screenSize:1179x2556"])
        XCTAssertEqual(classify(.init(format: .png, width: 2556, height: 1179, path: "a.png")).0, .screenshot, "landscape")
        XCTAssertEqual(classify(.init(format: .png, make: "Apple", width: 1179, height: 2556, path: "a.png")).0, .photo)
        XCTAssertEqual(classify(.init(format: .jpeg, width: 1179, height: 2556, path: "a.jpg")).0, .photo)
        XCTAssertEqual(classify(.init(format: .png, width: 1000, height: 1000, path: "a.png")).0, .photo)
    }

    func testAllEvidenceIsListed() {
        let (kind, ev) = classify(
            .init(
                format: .png, exifUserComment: "Screenshot", width: 1170, height: 2532,
                path: "Screenshots/Screenshot_20240101-120000.png"))
        XCTAssertEqual(kind, .screenshot)
        XCTAssertEqual(
            ev,
            [
                "exif.UserComment=Screenshot", "filename:android.screenshot", "folder:Screenshots",
                "screenSize:1170x2532",
            ])
    }

    func testUnknownFormat() {
        XCTAssertEqual(classify(.init(format: .unknown, path: "Screenshot_20240101-120000.png")).0, .unknown)
    }

    func testLivePhotoPairingOnDisk() throws {
        let dir = try TemporaryDirectory()
        let still = try dir.write("IMG_0001.HEIC", try TestPaths.bytes("IMG_0001.HEIC"))
        XCTAssertEqual(FileInspector.inspect(path: still).kind, .photo, "alone it is a photo")
        let movie = try dir.write("IMG_0001.MOV", try TestPaths.bytes("IMG_0001.MOV"))
        let paired = FileInspector.inspect(path: still)
        XCTAssertEqual(paired.kind, .livePhoto)
        XCTAssertEqual(paired.livePhotoPair, movie)
        let video = FileInspector.inspect(path: movie)
        XCTAssertEqual(video.kind, .video)
        XCTAssertEqual(video.livePhotoPair, still)
    }
}
