import Foundation
import XCTest

/// The offer's life as a chat client meets it (issue 21), end to end with the binary: `watch`
/// and `suggest --standing` agree, a restarted watch gets the standing offer back, and every
/// way an offer stops standing is a `withdrawn` event. Waits are bounded and event-driven.
final class OfferLifeTests: XCTestCase {
    var scratch: TemporaryDirectory!
    var work: URL!
    var folder: String { work.appendingPathComponent("photos").path }
    /// Not beside the cache: each command's confinement must let it write where it writes.
    var state: String { work.appendingPathComponent("state/s.sqlite3").path }
    /// A private cache: the tests' thumbnails never touch the user's.
    var environment: [String: String] { ["XDG_CACHE_HOME": work.appendingPathComponent("cache").path, "TZ": "UTC"] }

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "pm-offer")
        work = scratch.url
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: work.appendingPathComponent("state").path, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { scratch = nil }

    /// A photo named as taken `secondsAgo` before now (the name is its capture date, in UTC).
    @discardableResult
    func photo(secondsAgo: Double = 0, fixture: String = TestPaths.fixture("mmexport1700000000000.jpg")) throws -> String {
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd_HHmmss"
        let ext = fixture.hasSuffix(".png") ? "png" : "jpg"
        let path = folder + "/IMG_\(f.string(from: Date(timeIntervalSinceNow: -secondsAgo))).\(ext)"
        try FileManager.default.copyItem(atPath: fixture, toPath: path)
        return path
    }

    /// A 640x480 PNG without metadata (dated by its name when copied in), made by the helper
    /// from a fixture: large enough for a 512 px cache entry and a 256 px square.
    func picture640x480() throws -> String {
        let out = work.appendingPathComponent("made").path
        let r = try Photometa.run(
            [
                "thumbnail", "--size", "640x480", "--fill", "--no-cache", "--out", out,
                TestPaths.thumbnails.appendingPathComponent("ifd1.jpg").path,
            ], environment: environment)
        XCTAssertEqual(r.status, 0, r.stderr)
        let made = try FileManager.default.contentsOfDirectory(atPath: out)
        return out + "/" + (made.first ?? "missing")
    }

    func watch(_ extra: [String] = []) throws -> RunningPhotometa {
        let w = try RunningPhotometa(
            ["watch", folder, "--jsonl", "--tz", "UTC", "--state", state] + extra, environment: environment)
        XCTAssertTrue(w.wait { w.stdout.contains(#""event":"ready""#) }, w.stdout + w.stderr)
        return w
    }

    func events(_ w: RunningPhotometa) -> [[String: Any]] {
        w.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func events(_ w: RunningPhotometa, named name: String) -> [[String: Any]] {
        events(w).filter { $0["event"] as? String == name }
    }

    /// Waits for a `withdrawn` event with `reason`, and returns it.
    func withdrawn(_ w: RunningPhotometa, _ reason: String, timeout: Double = 10) -> [String: Any]? {
        _ = w.wait(timeout: timeout) { self.events(w, named: "withdrawn").contains { $0["reason"] as? String == reason } }
        return events(w, named: "withdrawn").first { $0["reason"] as? String == reason }
    }

    func standing(_ extra: [String] = []) throws -> (status: Int32, offer: [String: Any]?) {
        let r = try Photometa.run(
            ["suggest", folder, "--standing", "--json", "--tz", "UTC", "--state", state] + extra, environment: environment)
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return (r.status, object?["suggestion"] as? [String: Any])
    }

    func stop(_ w: RunningPhotometa) {
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0, w.stderr)
    }

    /// Watch's offer is the standing offer `suggest --standing` answers with, in one shape; a
    /// restarted watch reports it once after ready.
    func testWatchAndStandingAgreeAndARestartGetsTheOfferBack() throws {
        let w = try watch()
        let path = try photo()
        XCTAssertTrue(w.wait { !self.events(w, named: "suggestion").isEmpty }, w.stdout + w.stderr)
        let offer = try XCTUnwrap(events(w, named: "suggestion").first)
        XCTAssertEqual(offer["path"] as? String, path)
        XCTAssertEqual(offer["format"] as? String, "jpeg")
        XCTAssertEqual(offer["width"] as? Int, 16)
        XCTAssertEqual(offer["height"] as? Int, 8)
        let captured = try XCTUnwrap(offer["captured"] as? [String: Any])
        let assumed = (captured["assumed"] as? [String: Any])?["utc"] as? String
        XCTAssertEqual(offer["instant"] as? String, captured["utc"] as? String ?? assumed, "the instant the rules used")
        XCTAssertEqual(offer["instantAssumed"] as? Bool, captured["utc"] as? String == nil)
        XCTAssertNil(offer["standing"], "a new offer")
        let (status, stands) = try standing()
        XCTAssertEqual(status, 0)
        for key in ["path", "format", "kind", "width", "height", "instant", "instantAssumed", "livePhotoPair"] {
            XCTAssertEqual("\(stands?[key] ?? "-")", "\(offer[key] ?? "-")", "the standing offer's \(key) is watch's")
        }
        XCTAssertEqual(try Photometa.run(["suggest", folder, "--tz", "UTC", "--state", state]).status, 3, "nothing new")
        stop(w)

        let again = try watch()
        XCTAssertTrue(again.wait { !self.events(again, named: "suggestion").isEmpty }, again.stdout + again.stderr)
        let back = try XCTUnwrap(events(again, named: "suggestion").first)
        XCTAssertEqual(back["path"] as? String, path)
        XCTAssertEqual(back["standing"] as? Bool, true)
        XCTAssertEqual(events(again).first?["event"] as? String, "ready", "after ready")
        stop(again)
        XCTAssertEqual(events(again, named: "suggestion").count, 1, "reported once")
    }

    /// Renamed: one `moved` change and a `withdrawn` moved event; the offer follows (suggest
    /// --standing finds it at its new path). Deleted: withdrawn, and nothing stands.
    func testRenameFollowsAndDeleteWithdraws() throws {
        let w = try watch()
        let path = try photo()
        XCTAssertTrue(w.wait { !self.events(w, named: "suggestion").isEmpty }, w.stdout + w.stderr)
        let renamed = folder + "/renamed.jpg"
        try FileManager.default.moveItem(atPath: path, toPath: renamed)
        let moved = try XCTUnwrap(withdrawn(w, "moved"), w.stdout)
        XCTAssertEqual(moved["path"] as? String, path)
        XCTAssertEqual(moved["to"] as? String, renamed)
        let change = try XCTUnwrap(events(w, named: "changes").last)
        XCTAssertEqual((change["moved"] as? [[String: String]])?.first, ["from": path, "to": renamed])
        XCTAssertEqual(change["removed"] as? [String], [], "a rename is not a removal")
        XCTAssertEqual((change["inserted"] as? [Any])?.count, 0, "nor an insertion")
        XCTAssertEqual(try standing().offer?["path"] as? String, renamed, "the standing offer followed the rename")
        // The new name has no date (the capture falls back to the file's times, later): still
        // the same photo, never offered again.
        XCTAssertEqual(events(w, named: "suggestion").count, 1, w.stdout)

        try FileManager.default.removeItem(atPath: renamed)
        let deleted = try XCTUnwrap(withdrawn(w, "deleted"), w.stdout)
        XCTAssertEqual(deleted["path"] as? String, renamed)
        XCTAssertEqual(try standing().status, 3)
        stop(w)
    }

    /// Renamed over a name already there (a sync tool's atomic replace: a change of that name,
    /// not a move): `moved`, found by the offer's identity, as `--standing` finds it. Then
    /// another, older photo renamed over the offer's name: the offer went (`deleted`), and
    /// nothing stands.
    func testRenamesOverNamesThatWereThere() throws {
        let w = try watch()
        let older = folder + "/older.jpg"
        try FileManager.default.copyItem(atPath: TestPaths.fixture("DSC_0001.JPG"), toPath: older)
        let existing = folder + "/x.jpg"
        try FileManager.default.copyItem(atPath: TestPaths.fixture("DSC_0001.JPG"), toPath: existing)
        let path = try photo()
        XCTAssertTrue(w.wait { !self.events(w, named: "suggestion").isEmpty }, w.stdout + w.stderr)
        XCTAssertEqual(rename(path, existing), 0)
        let moved = try XCTUnwrap(withdrawn(w, "moved"), w.stdout)
        XCTAssertEqual(moved["to"] as? String, existing)
        XCTAssertEqual(try standing().offer?["path"] as? String, existing)
        XCTAssertEqual(rename(older, existing), 0)
        let deleted = try XCTUnwrap(withdrawn(w, "deleted"), w.stdout)
        XCTAssertEqual(deleted["path"] as? String, existing)
        XCTAssertEqual(try standing().status, 3, "the photo there is not the offer")
        stop(w)
    }

    /// Moved from one watched folder to another (each folder's watcher sees only its own half,
    /// a removal and an insertion): `moved`, and the offer follows, as `suggest --standing`
    /// over both folders finds it.
    func testAMoveBetweenWatchedFoldersFollows() throws {
        let other = work.appendingPathComponent("sent").path
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let w = try RunningPhotometa(
            ["watch", folder, other, "--jsonl", "--tz", "UTC", "--state", state], environment: environment)
        XCTAssertTrue(w.wait { w.stdout.contains(#""event":"ready""#) }, w.stdout + w.stderr)
        let path = try photo()
        XCTAssertTrue(w.wait { !self.events(w, named: "suggestion").isEmpty }, w.stdout + w.stderr)
        let to = other + "/" + (path as NSString).lastPathComponent
        try FileManager.default.moveItem(atPath: path, toPath: to)
        let moved = try XCTUnwrap(withdrawn(w, "moved"), w.stdout)
        XCTAssertEqual(moved["path"] as? String, path)
        XCTAssertEqual(moved["to"] as? String, to)
        XCTAssertNil(events(w, named: "withdrawn").first { $0["reason"] as? String == "deleted" }, w.stdout)
        let r = try Photometa.run(
            ["suggest", folder, other, "--standing", "--json", "--tz", "UTC", "--state", state], environment: environment)
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        XCTAssertEqual((object?["suggestion"] as? [String: Any])?["path"] as? String, to, r.stdout)
        XCTAssertEqual(events(w, named: "suggestion").count, 1, "not offered again: \(w.stdout)")
        stop(w)
    }

    /// Moved into a folder `--exclude` leaves out: no walk sees it there, so the offer went
    /// (`deleted`, not `moved` to a path no answer lists), and `suggest --standing` with the
    /// same `--exclude` agrees; without it, the offer is found where it went.
    func testAMoveIntoAnExcludedFolderWithdraws() throws {
        let other = work.appendingPathComponent("sent").path
        try FileManager.default.createDirectory(atPath: other + "/private", withIntermediateDirectories: true)
        let exclude = ["--exclude", "private"]
        let w = try RunningPhotometa(
            ["watch", folder, other, "--jsonl", "--tz", "UTC", "--state", state] + exclude, environment: environment)
        XCTAssertTrue(w.wait { w.stdout.contains(#""event":"ready""#) }, w.stdout + w.stderr)
        let path = try photo()
        XCTAssertTrue(w.wait { !self.events(w, named: "suggestion").isEmpty }, w.stdout + w.stderr)
        let to = other + "/private/" + (path as NSString).lastPathComponent
        try FileManager.default.moveItem(atPath: path, toPath: to)
        XCTAssertNotNil(withdrawn(w, "deleted"), w.stdout)
        XCTAssertNil(events(w, named: "withdrawn").first { $0["reason"] as? String == "moved" }, w.stdout)
        stop(w)
        // The memory still names the first path; --standing looks for the file by its identity.
        let ask = ["suggest", folder, other, "--standing", "--json", "--tz", "UTC", "--state", state]
        let excluded = try Photometa.run(ask + exclude, environment: environment)
        XCTAssertEqual(excluded.status, 3, excluded.stdout + excluded.stderr)
        let found = try Photometa.run(ask, environment: environment)
        XCTAssertEqual(found.status, 0, found.stdout + found.stderr)
        XCTAssertTrue(found.stdout.contains(to), found.stdout)
    }

    /// A copy tool that sets the original's modification time after the file landed (GNOME
    /// Files copying from a phone over MTP, KDE Connect): a picture dated only by its file
    /// times is not offered as just taken before its times are still, so it never moves the
    /// memory to "now", and the photo taken a moment earlier is still offered. One whose times
    /// stay is offered once they have been still for the settle time.
    func testAFileWhoseTimesAreSetAfterItLandsIsNotOfferedAsNew() throws {
        let w = try watch()
        let staging = work.appendingPathComponent("staging").path
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let undated = TestPaths.thumbnails.appendingPathComponent("alpha.png").path
        try FileManager.default.copyItem(atPath: undated, toPath: staging + "/meme.png")
        XCTAssertEqual(rename(staging + "/meme.png", folder + "/meme.png"), 0)
        XCTAssertTrue(w.wait { w.stdout.contains(#""path":"\#(self.folder)/meme.png""#) }, w.stdout)
        var times = [timespec(tv_sec: 1_546_300_800, tv_nsec: 0), timespec(tv_sec: 1_546_300_800, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, folder + "/meme.png", &times, 0), 0)
        XCTAssertTrue(w.wait { w.stdout.contains(#""changed":[{"#) }, w.stdout)
        let path = try photo(secondsAgo: 5)
        XCTAssertTrue(w.wait { self.events(w, named: "suggestion").contains { $0["path"] as? String == path } }, w.stdout)
        XCTAssertFalse(events(w, named: "suggestion").contains { ($0["path"] as? String)?.hasSuffix("meme.png") == true })
        // A copy that took longer than the settle time (born before its last change by more):
        // still its own times, still waited for.
        let slow = folder + "/slow.png"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: undated))
        XCTAssertTrue(FileManager.default.createFile(atPath: slow, contents: bytes.prefix(100)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: slow))
        usleep(1_300_000)  // the copy's pace, not a wait for a result
        try handle.seekToEnd()
        try handle.write(contentsOf: bytes.dropFirst(100))
        try handle.close()
        XCTAssertTrue(w.wait { w.stdout.contains(#""path":"\#(slow)""#) }, w.stdout)
        XCTAssertEqual(utimensat(AT_FDCWD, slow, &times, 0), 0)
        XCTAssertTrue(w.wait { w.stdout.components(separatedBy: #""changed":[{"#).count > 2 }, w.stdout)
        XCTAssertFalse(events(w, named: "suggestion").contains { ($0["path"] as? String)?.hasSuffix("slow.png") == true })
        try FileManager.default.copyItem(atPath: undated, toPath: staging + "/kept.png")
        XCTAssertEqual(rename(staging + "/kept.png", folder + "/kept.png"), 0)
        XCTAssertTrue(
            w.wait { self.events(w, named: "suggestion").contains { $0["path"] as? String == self.folder + "/kept.png" } },
            w.stdout)
        stop(w)
    }

    /// A photo and a picture dated by its file times land together; the picture's time is set
    /// a moment later (to 2019): the photo is offered. (The picture, newest of the batch, had
    /// been kept alone for the decision, and the photo was never offered.) A picture renamed
    /// while its offer waits is offered at its new name.
    func testAPhotoBesideARetimedPictureIsOfferedAndARenameIsFollowed() throws {
        let w = try watch()
        let staging = work.appendingPathComponent("staging").path
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let undated = TestPaths.thumbnails.appendingPathComponent("alpha.png").path
        let photo = try self.photo(secondsAgo: 3)
        let name = (photo as NSString).lastPathComponent
        try FileManager.default.moveItem(atPath: photo, toPath: staging + "/" + name)
        try FileManager.default.copyItem(atPath: undated, toPath: staging + "/b.png")
        XCTAssertEqual(rename(staging + "/" + name, photo), 0)
        XCTAssertEqual(rename(staging + "/b.png", folder + "/b.png"), 0)
        XCTAssertTrue(w.wait { w.stdout.contains(#""path":"\#(self.folder)/b.png""#) }, w.stdout)
        var times = [timespec(tv_sec: 1_546_300_800, tv_nsec: 0), timespec(tv_sec: 1_546_300_800, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, folder + "/b.png", &times, 0), 0)
        XCTAssertTrue(w.wait { self.events(w, named: "suggestion").contains { $0["path"] as? String == photo } }, w.stdout)
        XCTAssertEqual(events(w, named: "suggestion").count, 1, w.stdout)
        // Renamed within the second its offer waits: offered at its new name.
        try FileManager.default.copyItem(atPath: undated, toPath: staging + "/download.png")
        XCTAssertEqual(rename(staging + "/download.png", folder + "/download.png"), 0)
        XCTAssertTrue(w.wait { w.stdout.contains(#""path":"\#(self.folder)/download.png""#) }, w.stdout)
        XCTAssertEqual(rename(folder + "/download.png", folder + "/cat.png"), 0)
        // Offered at its new name; or, on a machine slow enough that its second had passed
        // before the rename, offered at its first and then followed there.
        let cat = folder + "/cat.png"
        XCTAssertTrue(
            w.wait {
                self.events(w, named: "suggestion").contains { $0["path"] as? String == cat }
                    || self.events(w, named: "withdrawn").contains { $0["to"] as? String == cat }
            }, w.stdout)
        stop(w)
    }

    /// The offer given another modification time and renamed in one batch (not paired as a
    /// rename): the same file by its inode and size, so `moved` (it was `deleted`), and the
    /// memory follows with its identity, so `suggest --standing` finds it.
    func testTouchedAndRenamedAtOnceIsMoved() throws {
        let w = try watch()
        let path = try photo()
        XCTAssertTrue(w.wait { self.events(w, named: "suggestion").contains { $0["path"] as? String == path } }, w.stdout)
        let to = String(path.dropLast(4)) + "_2.jpg"
        var times = [timespec(tv_sec: 1_546_300_800, tv_nsec: 0), timespec(tv_sec: 1_546_300_800, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        XCTAssertEqual(rename(path, to), 0)
        let moved = try XCTUnwrap(withdrawn(w, "moved"), w.stdout)
        XCTAssertEqual(moved["to"] as? String, to)
        XCTAssertNil(events(w, named: "withdrawn").first { $0["reason"] as? String == "deleted" }, w.stdout)
        // The memory follows with the file's identity as it is now: `--standing` finds it there.
        XCTAssertEqual(try standing().offer?["path"] as? String, to)
        stop(w)
    }

    /// The offer's folder gone while another folder of the watch is left: the offer went with
    /// it (`deleted`), and the watch goes on.
    func testAnOfferInAFolderThatGoesIsWithdrawn() throws {
        let other = work.appendingPathComponent("card").path
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let w = try RunningPhotometa(
            ["watch", folder, other, "--jsonl", "--tz", "UTC", "--state", state], environment: environment)
        XCTAssertTrue(w.wait { w.stdout.contains(#""event":"ready""#) }, w.stdout + w.stderr)
        // Offered in the first folder, then moved to the card's: it stands there.
        let staged = try photo()
        let name = (staged as NSString).lastPathComponent
        let offered = other + "/" + name
        XCTAssertTrue(w.wait { self.events(w, named: "suggestion").contains { $0["path"] as? String == staged } }, w.stdout)
        XCTAssertEqual(rename(staged, offered), 0)
        XCTAssertNotNil(withdrawn(w, "moved"), w.stdout)
        try FileManager.default.removeItem(atPath: other)
        let gone = try XCTUnwrap(withdrawn(w, "deleted"), w.stdout)
        XCTAssertEqual(gone["path"] as? String, offered)
        XCTAssertTrue(w.wait { w.stderr.contains("still watching") }, w.stderr)
        stop(w)
    }

    /// Dismissed by another process: withdrawn within the memory's polling interval.
    func testDismissFromAnotherProcessWithdraws() throws {
        let w = try watch()
        let path = try photo()
        XCTAssertTrue(w.wait { !self.events(w, named: "suggestion").isEmpty }, w.stdout + w.stderr)
        XCTAssertEqual(try Photometa.run(["dismiss", folder, "--state", state]).status, 0)
        XCTAssertEqual(try XCTUnwrap(withdrawn(w, "dismissed"), w.stdout)["path"] as? String, path)
        stop(w)
    }

    /// A newer photo supersedes the offer: the withdrawal comes before the new offer.
    func testANewerOfferSupersedes() throws {
        let w = try watch()
        let first = try photo(secondsAgo: 2)
        XCTAssertTrue(w.wait { !self.events(w, named: "suggestion").isEmpty }, w.stdout + w.stderr)
        let second = try photo()
        XCTAssertEqual(try XCTUnwrap(withdrawn(w, "superseded"), w.stdout)["path"] as? String, first)
        XCTAssertTrue(w.wait { self.events(w, named: "suggestion").count == 2 }, w.stdout)
        let names = events(w).compactMap { $0["event"] as? String }.filter { $0 != "changes" }
        XCTAssertEqual(names, ["ready", "suggestion", "withdrawn", "suggestion"])
        XCTAssertEqual(events(w, named: "suggestion").last?["path"] as? String, second)
        stop(w)
    }

    /// The window closes while the offer shows: withdrawn as expired, without any file event.
    func testExpiryIsReportedWhenTheWindowCloses() throws {
        let w = try watch(["--within", "3s"])
        let path = try photo()
        XCTAssertTrue(w.wait { !self.events(w, named: "suggestion").isEmpty }, w.stdout + w.stderr)
        XCTAssertEqual(try XCTUnwrap(withdrawn(w, "expired"), w.stdout)["path"] as? String, path)
        XCTAssertEqual(try standing(["--within", "3s"]).status, 3)
        stop(w)
    }

    /// With --thumbnail the offer is printed at once and its picture follows as its own event;
    /// a crop is exactly the box.
    func testThePictureFollowsTheOffer() throws {
        let w = try watch(["--thumbnail", "256", "--thumbnail-mode", "crop"])
        let path = try photo(fixture: try picture640x480())
        XCTAssertTrue(w.wait { !self.events(w, named: "thumbnail").isEmpty }, w.stdout + w.stderr)
        let names = events(w).compactMap { $0["event"] as? String }.filter { $0 != "changes" }
        XCTAssertEqual(names, ["ready", "suggestion", "thumbnail"])
        XCTAssertNil(events(w, named: "suggestion").first?["thumbnail"], "the offer does not wait for its picture")
        let picture = try XCTUnwrap(events(w, named: "thumbnail").first)
        XCTAssertEqual(picture["path"] as? String, path)
        let made = try XCTUnwrap(picture["thumbnail"] as? [String: Any], "\(picture)")
        XCTAssertEqual(made["width"] as? Int, 256)
        XCTAssertEqual(made["height"] as? Int, 256)
        XCTAssertTrue(FileManager.default.fileExists(atPath: made["path"] as? String ?? "/nonexistent"))
        stop(w)
    }

    /// A crop is cut from a cached larger picture instead of decoding the photo again.
    func testACropComesFromALargerCacheEntry() throws {
        let path = try photo(fixture: try picture640x480())
        let cached = try Photometa.run(["thumbnail", "--size", "512", path], environment: environment)
        XCTAssertEqual(cached.status, 0, cached.stderr)
        let r = try Photometa.run(
            [
                "suggest", folder, "--json", "--tz", "UTC", "--state", state, "--wait", "3s", "--thumbnail", "256",
                "--thumbnail-mode", "crop",
            ],
            environment: environment)
        XCTAssertEqual(r.status, 0, r.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let made = try XCTUnwrap((object["suggestion"] as? [String: Any])?["thumbnail"] as? [String: Any], r.stdout)
        XCTAssertEqual(made["source"] as? String, "cache")
        XCTAssertEqual(made["width"] as? Int, 256)
        XCTAssertEqual(made["height"] as? Int, 256)
        XCTAssertTrue((made["path"] as? String ?? "").hasPrefix(work.appendingPathComponent("cache/photometa/offers/").path))
        let usage = try Photometa.run(["suggest", folder, "--thumbnail-mode", "crop"])
        XCTAssertEqual(usage.status, 64)
        XCTAssertTrue(usage.stderr.contains("--thumbnail-mode needs --thumbnail"), usage.stderr)
    }

    /// `serve --jsonl` is the live library and watch's observer in one process: the standing
    /// offer at its start, withdrawals, and suggest answered from the service meanwhile.
    func testServeReportsTheOffersLife() throws {
        var env = environment
        env["XDG_RUNTIME_DIR"] = work.appendingPathComponent("run").path
        try FileManager.default.createDirectory(
            atPath: work.appendingPathComponent("run").path, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let path = try photo()
        let first = try Photometa.run(["suggest", folder, "--tz", "UTC", "--state", state, "--wait", "3s"], environment: env)
        XCTAssertEqual(first.status, 0, first.stderr)
        let s = try RunningPhotometa(["serve", folder, "--jsonl", "--tz", "UTC", "--state", state], environment: env)
        XCTAssertTrue(
            s.wait { s.stderr.contains("photometa: serving") && !self.events(s, named: "suggestion").isEmpty },
            s.stdout + s.stderr)
        XCTAssertEqual(events(s, named: "suggestion").first?["standing"] as? Bool, true)
        XCTAssertEqual(events(s, named: "suggestion").first?["path"] as? String, path)
        let asked = try Photometa.run(
            ["suggest", folder, "--json", "--standing", "--tz", "UTC", "--state", state], environment: env)
        XCTAssertEqual(asked.status, 0, asked.stderr)
        let peek = try Photometa.run(["suggest", folder, "--json", "--peek", "--tz", "UTC", "--state", state], environment: env)
        XCTAssertTrue(peek.stdout.contains(#""from":"service""#), peek.stdout + peek.stderr)
        try FileManager.default.removeItem(atPath: path)
        XCTAssertEqual(try XCTUnwrap(withdrawn(s, "deleted"), s.stdout)["path"] as? String, path)
        // Its watch, offers and pictures run on photometa's threads: none is libdispatch's.
        XCTAssertEqual(s.dispatchThreads, [], "threads of libdispatch's pool in serve --jsonl")
        stop(s)
        let usage = try Photometa.run(["serve", folder, "--within", "3s"], environment: env)
        XCTAssertEqual(usage.status, 64)
        XCTAssertTrue(usage.stderr.contains("--within is an option of serve's events: add --jsonl"), usage.stderr)
    }

    /// Browser and editor temporary names are never offered, listed or reported, whatever
    /// asks (one list, `TemporaryNames`).
    func testTemporaryNamesAreNeverOffered() throws {
        let w = try watch()
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd_HHmmss"
        let stamp = f.string(from: Date())
        let fixture = TestPaths.fixture("mmexport1700000000000.jpg")
        for name in ["IMG_\(stamp).jpg.part", "IMG_\(stamp).jpg.crdownload", ".IMG_\(stamp).jpg", "IMG_\(stamp).jpg.tmp"] {
            try FileManager.default.copyItem(atPath: fixture, toPath: folder + "/" + name)
        }
        let marker = folder + "/marker.mp4"
        try FileManager.default.copyItem(atPath: TestPaths.fixture("clip.mp4"), toPath: marker)
        XCTAssertTrue(w.wait { w.stdout.contains(marker) }, w.stdout)
        XCTAssertFalse(w.stdout.contains(stamp), "watch reports none of them: \(w.stdout)")
        stop(w)
        let suggest = try Photometa.run(
            ["suggest", folder, "--explain", "--tz", "UTC", "--state", state, "--no-service"], environment: environment)
        XCTAssertEqual(suggest.status, 3, "neither offered nor pending: \(suggest.stdout)")
        for line in suggest.stdout.split(separator: "\n") where line.contains(stamp) {
            XCTAssertTrue(line.contains("temporary name"), "only --explain names them, as skipped: \(line)")
        }
        let recent = try Photometa.run(["recent", folder, "--tz", "UTC", "--no-service"], environment: environment)
        XCTAssertFalse(recent.stdout.contains(stamp), recent.stdout)
    }
}

/// The example chat client of docs/integration.md (Examples/chat/chat_client.py), run against
/// the binary: it shows the offer, its picture, follows a rename, answers "+" with the standing
/// offer, and takes the offer down when dismissed.
final class ExampleChatClientTests: XCTestCase {
    func testTheExampleClientFollowsTheOffersLife() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("python3 is not installed (make test installs it)")
        }
        let scratch = try TemporaryDirectory(prefix: "pm-chat")
        let folder = scratch.path + "/photos"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let client = try RunningPhotometa(
            [
                TestPaths.root.appendingPathComponent("Examples/chat/chat_client.py").path, folder,
                "--photometa", Photometa.binary.path, "--state", scratch.path + "/s.sqlite3", "--tz", "UTC",
            ], environment: ["XDG_CACHE_HOME": scratch.path + "/cache"], executable: URL(fileURLWithPath: "/usr/bin/python3"))
        XCTAssertTrue(client.wait { client.stdout.contains("READY") }, client.stdout + client.stderr)
        client.send("plus")
        XCTAssertTrue(client.wait { client.stdout.contains("PLUS NONE") }, client.stdout + client.stderr)
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd_HHmmss"
        let photo = folder + "/IMG_\(f.string(from: Date())).jpg"
        try FileManager.default.copyItem(atPath: TestPaths.fixture("mmexport1700000000000.jpg"), toPath: photo)
        XCTAssertTrue(client.wait { client.stdout.contains("SHOW \(photo)") }, client.stdout + client.stderr)
        XCTAssertTrue(client.wait { client.stdout.contains("PICTURE \(photo) ") }, client.stdout + client.stderr)
        client.send("plus")
        XCTAssertTrue(client.wait { client.stdout.contains("PLUS \(photo)") }, "+ shows what watch showed: \(client.stdout)")
        let renamed = folder + "/to-send.jpg"
        try FileManager.default.moveItem(atPath: photo, toPath: renamed)
        XCTAssertTrue(client.wait { client.stdout.contains("MOVE \(photo) \(renamed)") }, client.stdout + client.stderr)
        client.send("dismiss")
        XCTAssertTrue(client.wait { client.stdout.contains("HIDE \(renamed) dismissed") }, client.stdout + client.stderr)
        client.send("quit")
        XCTAssertTrue(client.wait { client.stdout.contains("BYE") }, client.stdout + client.stderr)
        XCTAssertEqual(client.finish(), 0)
    }
}
