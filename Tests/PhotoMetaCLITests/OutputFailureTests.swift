import Foundation
import XCTest

/// Output that cannot be written is a failure (exit 74, EX_IOERR, one message), and `suggest`
/// remembers no offer it could not print. Issue 13, item 7.
final class OutputFailureTests: XCTestCase {
    func full() throws -> FileHandle {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { throw XCTSkip("/dev/full not available") }
        return try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
    }

    func testInspectToAFullDiskExits74() throws {
        let r = try Photometa.run(
            ["inspect", "-r", Photometa.root.appendingPathComponent("Fixtures/library").path], stdout: try full())
        XCTAssertEqual(r.status, 74, r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "cannot write to standard output").count - 1, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("no space left on device"), r.stderr)
    }

    func testAnOfferThatCouldNotBePrintedIsNotRecorded() throws {
        let scratch = try TemporaryDirectory(prefix: "pm-full")
        let work = scratch.url
        let folder = work.appendingPathComponent("photos").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let photo = folder + "/IMG_20240808_120810.jpg"
        try FileManager.default.copyItem(atPath: Photometa.fixture("mmexport1700000000000.jpg"), toPath: photo)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: photo)
        let state = work.appendingPathComponent("state.sqlite3").path
        let args = ["suggest", folder, "--now", "2024-08-08T12:08:20Z", "--tz", "UTC", "--state", state, "--no-index"]
        let lost = try Photometa.run(args, stdout: try full())
        XCTAssertEqual(lost.status, 74, lost.stderr)
        let again = try Photometa.run(args)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("IMG_20240808_120810.jpg"), "offered again: \(again.stdout)")
        let third = try Photometa.run(args)
        XCTAssertEqual(third.status, 3, "recorded once printed: \(third.stdout)")
    }

    /// Started with stdout closed (`>&-`), the helper launcher's socket used to take number 1:
    /// `--thumbnail` printed the offer into it, exited 0 and recorded an offer no one saw. Now
    /// the closed stdout stays closed to photometa's writes: 74, and the offer taken back.
    func testAClosedStdoutStaysClosedWhenAHelperIsStarted() throws {
        let scratch = try TemporaryDirectory(prefix: "pm-closed")
        let folder = scratch.path + "/photos"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let photo = folder + "/IMG_20240808_120810.jpg"
        try FileManager.default.copyItem(atPath: Photometa.fixture("mmexport1700000000000.jpg"), toPath: photo)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: photo)
        let args = [
            "suggest", folder, "--now", "2024-08-08T12:08:20Z", "--tz", "UTC", "--state", scratch.path + "/state.sqlite3",
            "--no-index",
        ]
        let env = ["TZ": "UTC", "XDG_CACHE_HOME": scratch.path + "/cache", "XDG_RUNTIME_DIR": ""]
        let closed = try Photometa.run(
            ["-c", #"exec "$0" "$@" >&-"#, Photometa.binary.path] + args + ["--thumbnail", "64"], environment: env,
            executable: "/bin/sh")
        XCTAssertEqual(closed.status, 74, closed.stderr)
        let again = try Photometa.run(args, environment: env)
        XCTAssertEqual(again.status, 0, "not recorded: offered again. \(again.stderr)")
    }
}
