import Foundation
import XCTest

/// Files a Linux desktop and an Android phone make (issue 22), through the binary: `inspect`
/// dates a WebM screen recording by its `DateUTC`, and `suggest --videos` offers it as a fresh
/// recording, while plain `suggest` turns it down as a video; a Motion Photo is offered as a
/// Live Photo is, by itself.
final class RecordingCommandTests: XCTestCase {
    var scratch: TemporaryDirectory!

    override func setUpWithError() throws { scratch = try TemporaryDirectory(prefix: "pm-rec") }
    override func tearDownWithError() throws { scratch = nil }

    func testAFreshScreencastIsOfferedWithVideos() throws {
        let folder = scratch.url.appendingPathComponent("Videos").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/Screencast.webm"
        try FileManager.default.copyItem(atPath: Photometa.fixture("../formats/screencast.webm"), toPath: path)
        // Written a while ago, so it is complete (a file just written is held until it settles).
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_732_914_905)], ofItemAtPath: path)
        let environment = ["HOME": scratch.url.path, "TZ": "UTC", "XDG_CACHE_HOME": scratch.url.path + "/cache"]

        let inspect = try Photometa.run(["inspect", "--jsonl", path], environment: environment)
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssertTrue(inspect.stdout.contains("\"format\":\"webm\",\"kind\":\"video\""), inspect.stdout)
        XCTAssertTrue(inspect.stdout.contains("\"source\":\"matroska.DateUTC\""), inspect.stdout)

        let state = scratch.url.path + "/state.sqlite3"
        let base = ["suggest", folder, "--no-index", "--peek", "--now", "2024-11-29T21:15:20Z", "--state", state]
        let plain = try Photometa.run(base, environment: environment)
        XCTAssertFalse(plain.stdout.hasPrefix("You may want to send"), plain.stdout)
        let videos = try Photometa.run(base + ["--videos"], environment: environment)
        XCTAssertEqual(videos.status, 0, videos.stderr)
        XCTAssertTrue(videos.stdout.hasPrefix("You may want to send: \(path) (video, "), videos.stdout)
    }

    func testAMotionPhotoIsOfferedAsALivePhoto() throws {
        let folder = scratch.url.appendingPathComponent("DCIM").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/PXL_20240601_110000000.MP.jpg"
        try FileManager.default.copyItem(atPath: Photometa.fixture("../formats/motion.MP.jpg"), toPath: path)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_717_239_605)], ofItemAtPath: path)
        let environment = ["HOME": scratch.url.path, "TZ": "UTC", "XDG_CACHE_HOME": scratch.url.path + "/cache"]
        let r = try Photometa.run(
            [
                "suggest", folder, "--no-index", "--peek", "--json", "--now", "2024-06-01T11:00:20Z", "--state",
                scratch.url.path + "/s",
            ],
            environment: environment)
        XCTAssertEqual(r.status, 0, r.stderr)
        let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let offer = try XCTUnwrap(obj["suggestion"] as? [String: Any], r.stdout)
        XCTAssertEqual(offer["path"] as? String, path)
        XCTAssertEqual(offer["kind"] as? String, "livePhoto")
        XCTAssertEqual(offer["livePhotoEvidence"] as? String, "motionPhoto.google")
    }
}
