import Foundation
import XCTest

/// `suggest` in the situations real users create (issue 10), each with the binary, in a
/// temporary HOME: slow writers, copies of old photos, screenshots named in another zone,
/// several folders, profiles, the pictures folder of user-dirs.dirs, and the migration of a
/// state file written by the version before profiles.
final class SuggestSituationsTests: XCTestCase {
    /// The test's own folder (removed with it).
    var scratch: TemporaryDirectory!
    var home: URL!
    var photos: String { home.appendingPathComponent("photos").path }
    var state: String { home.appendingPathComponent("state/state.sqlite3").path }

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "pm-situ")
        home = scratch.url
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { scratch = nil }

    var environment: [String: String] {
        ["HOME": home.path, "TZ": "UTC", "XDG_CACHE_HOME": home.appendingPathComponent("cache").path, "XDG_CONFIG_HOME": ""]
    }

    /// `suggest FOLDERS ARGS --state STATE` (FOLDERS: the photos folder unless given).
    func suggest(_ args: [String], folders: [String]? = nil) throws -> CommandResult {
        try Photometa.run(["suggest"] + (folders ?? [photos]) + args + ["--state", state], environment: environment)
    }

    /// A writer that holds the file open and writes it in two halves, `pause` seconds apart.
    func slowWriter(_ fixture: String, to path: String, pause: Double = 2.5) throws -> Process {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Photometa.fixture(fixture)))
        let half = bytes.count / 2
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = [
            "-c", "( head -c \(half) \"$0\"; sleep \(pause); tail -c +\(half + 1) \"$0\" ) > \"$1\"",
            Photometa.fixture(fixture), path,
        ]
        try p.run()
        // The first half is there before we look (bounded: the writer starts at once).
        let deadline = Date().addingTimeInterval(10)
        while (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 < half, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        return p
    }

    func testAHalfWrittenPhotoIsPendingNotOffered() throws {
        // (The HEIC's own date is in its second half: while cut, its date is the file time, now;
        // once whole it is 2024-05-01T08:20:30Z, so the last look is made as of then.)
        // (The MP4's date is in its moov, at its start: both looks are made as of its capture.)
        let clip = ["--videos", "--now", "2023-09-10T15:00:05Z"]
        for (fixture, name, extra, doneExtra) in [
            ("mmexport1700000000000.jpg", "slow.jpg", [String](), [String]()),
            ("Screenshot_20240101-120000.png", "slow.png", [], []),
            ("IMG_0001.HEIC", "slow.heic", [], ["--now", "2024-05-01T08:20:40Z"]),
            ("clip.mp4", "slow.mp4", clip, clip),
        ] {
            let path = photos + "/" + name
            // Each its own memory: the one offered before would otherwise count as newer.
            try? FileManager.default.removeItem(atPath: home.appendingPathComponent("state").path)
            let writer = try slowWriter(fixture, to: path)
            let r = try suggest(["--no-index"] + extra)
            XCTAssertEqual(r.status, 4, "\(name): \(r.stdout) \(r.stderr)")
            XCTAssertTrue(r.stdout.hasPrefix("A photo is still being written: \(path) (ask again in "), r.stdout)
            let json = try suggest(["--no-index", "--json"] + extra)
            let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            XCTAssertEqual((obj["pending"] as? [String: Any])?["path"] as? String, path)
            XCTAssertTrue(obj["suggestion"] is NSNull)
            let inspect = try Photometa.run(["inspect", "--jsonl", path])
            XCTAssertTrue(inspect.stdout.contains("\"truncated\":true"), "\(name): \(inspect.stdout)")
            writer.waitUntilExit()
            // Complete: offered on the next run (with --wait, settling is waited for).
            let done = try suggest(["--no-index", "--wait", "5s"] + doneExtra)
            XCTAssertEqual(done.status, 0, "\(name): \(done.stdout) \(done.stderr)")
            XCTAssertTrue(done.stdout.hasPrefix("You may want to send: \(path) ("), done.stdout)
            try FileManager.default.removeItem(atPath: path)
        }
    }

    func testWaitReturnsThePhotoOnceItsWriterFinishes() throws {
        let path = photos + "/IMG_now.jpg"
        let writer = try slowWriter("mmexport1700000000000.jpg", to: path, pause: 1.5)
        let r = try suggest(["--no-index", "--wait", "10s"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("You may want to send: \(path) ("), r.stdout)
        writer.waitUntilExit()
        XCTAssertEqual(try suggest(["--no-index"]).status, 3, "recorded: not offered twice")
    }

    func testACopyOfAnOldPhotoKeepsItsAge() throws {
        let old = home.appendingPathComponent("old.jpg").path
        try FileManager.default.copyItem(atPath: Photometa.fixture("mmexport1700000000000.jpg"), toPath: old)
        let touch = Process()
        touch.executableURL = URL(fileURLWithPath: "/usr/bin/touch")
        touch.arguments = ["-d", "2019-06-01", old]
        try touch.run()
        touch.waitUntilExit()
        let cp = Process()
        cp.executableURL = URL(fileURLWithPath: "/bin/cp")
        cp.arguments = ["-p", old, photos + "/"]
        try cp.run()
        cp.waitUntilExit()
        let r = try suggest(["--no-index", "--explain"])
        XCTAssertEqual(r.status, 3, r.stdout)
        XCTAssertTrue(r.stdout.contains("recency: captured"), r.stdout)
        let inspect = try Photometa.run(["inspect", "--jsonl", photos + "/old.jpg"])
        XCTAssertTrue(inspect.stdout.contains("\"source\":\"file.mtime\""), inspect.stdout)
        XCTAssertTrue(inspect.stdout.contains("2019-06-01"), inspect.stdout)
    }

    /// The index lets a scan pass over a folder whose files it summarised as far too old; every
    /// change to such a folder's files is still seen: the answer with the index is the answer
    /// without it, at each step.
    func testAFolderOfOldPhotosIsStillWatchedForAnOldNameRewritten() throws {
        let old = photos + "/2020"
        try FileManager.default.createDirectory(atPath: old, withIntermediateDirectories: true)
        for s in 0..<5 {
            try FileManager.default.copyItem(
                atPath: Photometa.fixture("mmexport1700000000000.jpg"), toPath: old + "/IMG_20200101_12000\(s).jpg")
        }
        // As of a moment a day after the fixture's own date (2024-03-15T01:30:12Z), with --within 7d.
        let asOf = ["--peek", "--json", "--now", "2024-03-16T01:30:12Z", "--within", "7d"]
        func answer(_ extra: [String]) throws -> String {
            let r = try suggest(asOf + extra)
            let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stderr)
            let offered = (obj["suggestion"] as? [String: Any])?["path"] as? String ?? "-"
            return "\(offered) considered \(obj["considered"] ?? "?")"
        }
        XCTAssertEqual(try answer([]), "- considered 5")
        XCTAssertEqual(try answer([]), try answer(["--no-index"]))
        // An old name rewritten in place with a photo taken yesterday (`cp new.jpg old-name.jpg`).
        let target = old + "/IMG_20200101_120003.jpg"
        try Data(contentsOf: URL(fileURLWithPath: Photometa.fixture("IMG_20240315_093012.jpg"))).write(
            to: URL(fileURLWithPath: target))
        // (Its time as a copy that keeps times leaves it: a file just written is still settling.)
        let settled: [FileAttributeKey: Any] = [.modificationDate: Date(timeIntervalSince1970: 1_710_469_800)]
        try FileManager.default.setAttributes(settled, ofItemAtPath: target)
        XCTAssertEqual(try answer([]), "\(target) considered 5")
        XCTAssertEqual(try answer([]), try answer(["--no-index"]))
        // Written back with an old photo: nothing again; then a new name beside the old ones.
        try FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: Photometa.fixture("mmexport1700000000000.jpg"), toPath: target)
        XCTAssertEqual(try answer([]), "- considered 5")
        try FileManager.default.copyItem(atPath: Photometa.fixture("IMG_20240315_093012.jpg"), toPath: old + "/new.jpg")
        try FileManager.default.setAttributes(settled, ofItemAtPath: old + "/new.jpg")
        XCTAssertEqual(try answer([]), "\(old)/new.jpg considered 6")
        XCTAssertEqual(try answer([]), try answer(["--no-index"]))
    }

    func testAScreenshotNamedInAnotherZoneIsOffered() throws {
        // Named in Asia/Shanghai local time, written now; read with TZ set to UTC.
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "Asia/Shanghai")
        f.dateFormat = "yyyy-MM-dd HH-mm-ss"
        let path = photos + "/Screenshot from \(f.string(from: Date())).png"
        try FileManager.default.copyItem(atPath: Photometa.fixture("Screenshot_20240101-120000.png"), toPath: path)
        let r = try suggest(["--no-index", "--wait", "3s"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("(screenshot, taken "), r.stdout)
        XCTAssertFalse(r.stdout.contains("zone assumed"), "the offset came from the file time: \(r.stdout)")
    }

    func copyNow(_ name: String, into folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        try FileManager.default.copyItem(atPath: Photometa.fixture("mmexport1700000000000.jpg"), toPath: path)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -5)], ofItemAtPath: path)
        return path
    }

    func testSeveralFoldersOneDecisionOneMemory() throws {
        let camera = photos + "/Camera"
        _ = try copyNow("a.jpg", into: camera)
        let downloads = home.appendingPathComponent("downloads").path
        _ = try copyNow("b.jpg", into: downloads)
        // The same photo through the parent and the child folder: offered once.
        let first = try suggest(["--no-index"], folders: [photos, camera, downloads])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try suggest(["--no-index"], folders: [camera]).status, 3, "the profile remembers it, whatever folder")
        XCTAssertEqual(try suggest(["--no-index"], folders: [photos]).status, 3)
        // Another profile has its own memory.
        let other = try suggest(["--no-index", "--profile", "other-app"], folders: [camera, downloads])
        XCTAssertEqual(other.status, 0, other.stderr)
        let considered = try suggest(["--no-index", "--peek", "--explain", "--profile", "third"], folders: [photos, camera])
        XCTAssertTrue(
            considered.stdout.contains("Considered 1 file"), "a folder inside another is walked once: \(considered.stdout)")
    }

    func testThePicturesFolderOfUserDirsIsTheDefault() throws {
        let config = home.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("# written by xdg-user-dirs-update\nXDG_PICTURES_DIR=\"$HOME/photos\"\n".utf8)
            .write(to: config.appendingPathComponent("user-dirs.dirs"))
        let photo = try copyNow("c.jpg", into: photos)
        var env = environment
        env["XDG_CONFIG_HOME"] = config.path
        let r = try Photometa.run(["suggest", "--no-index", "--peek", "--explain", "--state", state], environment: env)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("You may want to send: \(photo) ("), r.stdout)
        XCTAssertTrue(r.stdout.contains("Looked in \(photos) (XDG_PICTURES_DIR in \(config.path)/user-dirs.dirs)"), r.stdout)
    }

    func testAStateFileOfTheVersionBeforeProfilesIsMigrated() throws {
        // Written by photometa before profiles: /tmp/v1a dismissed to 12:00:00Z, /tmp/v1b to
        // 12:05:00Z (2024-08-08). The latest becomes the default profile's instant.
        try FileManager.default.createDirectory(
            atPath: (state as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Photometa.root.appendingPathComponent("Fixtures/state/state-v1.sqlite3").path, toPath: state)
        let photo = try copyNow("IMG_20240808_120400.jpg", into: photos)
        let before = try suggest(["--no-index", "--now", "2024-08-08T12:04:30Z", "--explain"])
        XCTAssertEqual(before.status, 3, "12:04:00 is before the migrated 12:05:00: \(before.stdout) \(before.stderr)")
        XCTAssertTrue(before.stdout.contains("memory: already offered or dismissed"), before.stdout)
        try FileManager.default.removeItem(atPath: photo)
        _ = try copyNow("IMG_20240808_120600.jpg", into: photos)
        XCTAssertEqual(try suggest(["--no-index", "--now", "2024-08-08T12:06:30Z"]).status, 0)
    }

    /// A camera shooting RAW+JPEG writes both under one name: the JPEG is offered and `recent`
    /// lists it, never the raw beside it (with the index and without); a raw alone is a
    /// picture like any other.
    func testTheRawOfARawPlusJPEGShotIsNotOffered() throws {
        let camera = photos + "/DCIM/100CANON"
        try FileManager.default.createDirectory(atPath: camera, withIntermediateDirectories: true)
        // canon.cr3 was taken at 2018-02-21T13:08:56.21+01:00; the JPEG has no date of its own
        // and is dated by its modification time, 0.21 s earlier.
        let taken = Date(timeIntervalSince1970: 1_519_214_936)
        for (name, fixture) in [
            ("IMG_0001.CR3", "../formats/canon.cr3"), ("IMG_0001.JPG", "../thumbnails/srgb.jpg"),
            ("IMG_0002.CR3", "../formats/canon.cr3"),
        ] {
            try FileManager.default.copyItem(atPath: Photometa.fixture(fixture), toPath: camera + "/" + name)
            try FileManager.default.setAttributes([.modificationDate: taken], ofItemAtPath: camera + "/" + name)
        }
        let now = "2018-02-21T12:09:10Z"
        for index in [["--no-index"], []] {
            let r = try suggest(["--now", now, "--tz", "UTC", "--peek", "--explain"] + index)
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
            XCTAssertTrue(r.stdout.contains("media: raw original of a developed picture beside it"), r.stdout)
            XCTAssertTrue(r.stdout.hasPrefix("You may want to send: \(camera)/IMG_0002.CR3"), "a raw alone: \(r.stdout)")
        }
        try FileManager.default.removeItem(atPath: camera + "/IMG_0002.CR3")
        let r = try suggest(["--now", now, "--tz", "UTC", "--peek"])
        XCTAssertTrue(r.stdout.hasPrefix("You may want to send: \(camera)/IMG_0001.JPG"), r.stdout)
        let recent = try Photometa.run(["recent", photos, "--tz", "UTC"], environment: environment)
        XCTAssertEqual(recent.status, 0, recent.stderr)
        XCTAssertTrue(recent.stdout.contains("IMG_0001.JPG"), recent.stdout)
        XCTAssertFalse(recent.stdout.contains("IMG_0001.CR3"), recent.stdout)
    }

    /// A copy in name order (rsync, Syncthing, a camera's Wi-Fi transfer) lands the raw first:
    /// it is offered alone, then its JPEG takes its place once it lands, then nothing is new;
    /// `--standing` follows.
    func testARawOfferedAloneGivesWayToItsPicture() throws {
        let camera = photos + "/DCIM"
        try FileManager.default.createDirectory(atPath: camera, withIntermediateDirectories: true)
        let taken = Date(timeIntervalSince1970: 1_519_214_936)  // canon.cr3's instant, less 0.21 s
        func land(_ name: String, _ fixture: String) throws {
            try FileManager.default.copyItem(atPath: Photometa.fixture(fixture), toPath: camera + "/" + name)
            try FileManager.default.setAttributes([.modificationDate: taken], ofItemAtPath: camera + "/" + name)
        }
        let args = ["--now", "2018-02-21T12:09:10Z", "--tz", "UTC"]
        try land("IMG_0003.CR3", "../formats/canon.cr3")
        XCTAssertTrue(try suggest(args).stdout.hasPrefix("You may want to send: \(camera)/IMG_0003.CR3"))
        try land("IMG_0003.JPG", "../thumbnails/srgb.jpg")
        let replaced = try suggest(args)
        XCTAssertTrue(replaced.stdout.hasPrefix("You may want to send: \(camera)/IMG_0003.JPG"), replaced.stdout)
        XCTAssertEqual(try suggest(args).status, 3, "nothing new after it")
        let standing = try suggest(["--standing"] + args)
        XCTAssertTrue(standing.stdout.contains("IMG_0003.JPG"), standing.stdout)
    }

    func testExcludedFoldersAreNeverOffered() throws {
        let shots = photos + "/Screenshots"
        _ = try copyNow("shot.jpg", into: shots)
        _ = try copyNow("cached.jpg", into: photos + "/app/cache")
        let r = try suggest(["--no-index", "--peek", "--explain", "--exclude", "Screenshots", "--exclude", "**/cache/**"])
        XCTAssertEqual(r.status, 3, r.stdout)
        XCTAssertTrue(r.stdout.contains("Considered 0 files"), r.stdout)
        XCTAssertEqual(try suggest(["--no-index", "--peek"]).status, 0, "offered without --exclude")
        let inspect = try Photometa.run(["inspect", "-r", "--jsonl", "--exclude", "Screenshots", photos])
        XCTAssertEqual(inspect.stdout.split(separator: "\n").count, 1, inspect.stdout)
        XCTAssertEqual(try Photometa.run(["suggest", photos, "--exclude", ""]).status, 64)
    }
}
