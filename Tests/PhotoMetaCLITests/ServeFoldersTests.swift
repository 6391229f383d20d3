import Foundation
import XCTest

/// Which folders `photometa serve` answers for, as a walk would: hidden folders made or renamed
/// while it runs stay out, folder names are compared by their bytes, `status` says what a plain
/// `suggest` would use and counts the folder asked, a folder deeper than `PATH_MAX` is watched,
/// and a folder that cannot be watched stops the answers only while it is there.
extension ServeCommandTests {
    func status(_ folder: String) throws -> (code: Int32, object: [String: Any]) {
        let r = try Photometa.run(["status", folder, "--json"], environment: env)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
        return (r.status, object)
    }

    /// A file manager's `.trash` made, and a folder renamed to `.Album`, while serve runs: a walk
    /// never enters them, so neither does the live library; a hidden folder asked directly is
    /// scanned (a walk of it lists it), not answered as empty.
    func testHiddenFoldersMadeOrRenamedStayOut() throws {
        try FileManager.default.createDirectory(atPath: folder + "/.h", withIntermediateDirectories: true)
        try add("IMG_20240808_120801.jpg", in: folder + "/.h")
        try startServe()
        try FileManager.default.createDirectory(atPath: folder + "/.trash", withIntermediateDirectories: true)
        try add("IMG_20240808_120819.jpg", in: folder + "/.trash")
        try FileManager.default.createDirectory(atPath: folder + "/Album", withIntermediateDirectories: true)
        try add("IMG_20240808_120818.jpg", in: folder + "/Album")
        try assertExact("a visible folder")
        XCTAssertEqual(rename(folder + "/Album", folder + "/.Album"), 0)
        try assertExact("a hidden folder made, a folder renamed to a hidden name")
        let hidden = try suggest([], asked: folder + "/.h")
        XCTAssertEqual(hidden["from_"] as? String, "scan", "the service does not hold .h")
        XCTAssertEqual(hidden["considered"] as? Int, 1)
        XCTAssertEqual(try status(folder + "/.h").code, 3)
        XCTAssertEqual(rename(folder + "/.Album", folder + "/Album2"), 0)
        try assertExact("a hidden folder renamed to a visible name")
    }

    /// `café` in one code point and in two are two folders: a service of one does not answer
    /// for the other, and a service of both holds both.
    func testServedFoldersDifferingOnlyInNormalization() throws {
        let nfc = outside + "/caf\u{E9}"
        let nfd = outside + "/cafe\u{301}"
        for f in [nfc, nfd] { try FileManager.default.createDirectory(atPath: f, withIntermediateDirectories: true) }
        try add("IMG_20240808_120801.jpg", in: nfc)
        try add("IMG_20240808_120802.jpg", in: nfd)
        let s = try RunningPhotometa(["serve", nfc], environment: env)
        serve = s
        XCTAssertTrue(s.wait { s.stderr.contains("photometa: serving") }, s.stderr)
        XCTAssertEqual(try status(nfd).code, 3, "the other spelling is not served")
        let other = try suggest([], asked: nfd)
        XCTAssertEqual(other["from_"] as? String, "scan")
        XCTAssertEqual(other["considered"] as? Int, 1)
        kill(s.process.processIdentifier, SIGTERM)
        XCTAssertEqual(s.finish(), 0)
        let both = try RunningPhotometa(["serve", nfc, nfd], environment: env)
        serve = both
        XCTAssertTrue(both.wait { both.stderr.contains("photometa: serving") }, both.stderr)
        XCTAssertTrue(both.stderr.contains("(2 files)"), both.stderr)
        let args = ["recent", nfc, nfd, "--json"]
        let live = try Photometa.run(args, environment: env)
        XCTAssertEqual(live.stdout, try Photometa.run(args + ["--no-service"], environment: env).stdout)
        XCTAssertTrue(live.stdout.contains("IMG_20240808_120802.jpg"), live.stdout)
        // The same two folders in the other order are the same service.
        let again = try Photometa.run(["serve", nfd, nfc], environment: env, timeout: 20)
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertTrue(again.stderr.contains("pid \(both.process.processIdentifier)"), again.stderr)
    }

    /// `status` names a service only when it answers a plain `suggest` (one with `--exclude`
    /// does not), and counts the files of the folder asked.
    func testStatusIsWhatAPlainSuggestUses() throws {
        let s = try RunningPhotometa(["serve", folder, "--exclude", "Screens"], environment: env)
        serve = s
        XCTAssertTrue(s.wait { s.stderr.contains("photometa: serving") }, s.stderr)
        XCTAssertEqual(try status(folder).code, 3, "a plain suggest scans")
        XCTAssertEqual(try suggest([])["from_"] as? String, "scan")
        kill(s.process.processIdentifier, SIGTERM)
        XCTAssertEqual(s.finish(), 0)
        try FileManager.default.createDirectory(atPath: folder + "/Sub", withIntermediateDirectories: true)
        try add("IMG_20240808_120801.jpg", in: folder + "/Sub")
        try startServe()
        XCTAssertEqual(try status(folder).object["files"] as? Int, 7)
        let sub = try status(folder + "/Sub")
        XCTAssertEqual(sub.code, 0)
        XCTAssertEqual(sub.object["files"] as? Int, 1, "the folder asked, as suggest considers it")
        // A folder given twice, or inside another given one, counts once, as suggest walks it once.
        let twice = try Photometa.run(["status", folder, folder, folder + "/Sub", "--json"], environment: env)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(twice.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["files"] as? Int, 7, twice.stdout)
        // Served roots one inside the other: the inner one's files are its own too.
        kill(try XCTUnwrap(serve).process.processIdentifier, SIGTERM)
        XCTAssertEqual(serve?.finish(), 0)
        let nested = try RunningPhotometa(["serve", folder, folder + "/Sub"], environment: env)
        serve = nested
        XCTAssertTrue(nested.wait { nested.stderr.contains("photometa: serving") }, nested.stderr)
        XCTAssertEqual(try status(folder + "/Sub").object["files"] as? Int, 1)
    }

    /// A tree deeper than PATH_MAX is watched like any other (through a descriptor of each deep
    /// folder, which `inotify_add_watch` cannot take by its path): serve keeps answering, and a
    /// photo written in the deepest folder is in its next answer.
    func testAFolderDeeperThanPathMaxIsWatched() throws {
        try startServe()
        let name = String(repeating: "d", count: 200)
        // 22 folders of 200 bytes, each made relative to the one above (no path is that long).
        var fd = open(folder, O_RDONLY | O_DIRECTORY)
        for _ in 0..<22 {
            XCTAssertEqual(mkdirat(fd, name, 0o755), 0)
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
        }
        defer { close(fd) }
        let before = try status(folder)
        XCTAssertEqual(before.code, 0, "\(before.object)")
        let files = try XCTUnwrap(before.object["files"] as? Int)
        // A photo taken now, written in the deepest folder.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("mmexport1700000000000.jpg")))
        let photo = openat(fd, "IMG_20240808_120815.jpg", O_WRONLY | O_CREAT | O_EXCL, 0o644)
        XCTAssertGreaterThanOrEqual(photo, 0)
        XCTAssertEqual(bytes.withUnsafeBytes { write(photo, $0.baseAddress, $0.count) }, bytes.count)
        // Modified an hour ago, as `add` leaves a file: settled, so both answers offer it.
        let hourAgo = timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)
        XCTAssertEqual(futimens(photo, [hourAgo, hourAgo]), 0)
        close(photo)
        let after = try status(folder)
        XCTAssertEqual(after.code, 0, "\(after.object)")
        XCTAssertEqual(after.object["files"] as? Int, files + 1, "the deep photo seen: \(after.object)")
        let s = try XCTUnwrap(serve)
        XCTAssertFalse(s.stderr.contains("cannot watch"), s.stderr)
        try assertExact("a photo in a folder deeper than PATH_MAX")
    }

    /// A folder that cannot be watched (here the watch limit, set low in a test build) stops
    /// the answers: serve says so on stderr, clients scan, and once the folder is gone it
    /// answers again.
    func testAFolderThatCannotBeWatchedStopsAnswersWhileItIsThere() throws {
        // The served folder and two sub-folders may be watched.
        extraEnvironment["PHOTOMETA_WATCH_LIMIT"] = "3"
        try startServe()
        XCTAssertEqual(try status(folder).code, 0)
        for sub in ["a", "b", "c"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        let refused = try status(folder)
        XCTAssertEqual(refused.code, 3)
        XCTAssertTrue((refused.object["reason"] as? String)?.contains("watch limit") == true, "\(refused.object)")
        let s = try XCTUnwrap(serve)
        XCTAssertTrue(s.wait { s.stderr.contains("clients will scan until it is gone") }, s.stderr)
        XCTAssertEqual(try suggest([])["from_"] as? String, "scan")
        // Which of the three went unwatched depends on the order the service met them.
        for sub in ["a", "b", "c"] { try FileManager.default.removeItem(atPath: folder + "/" + sub) }
        XCTAssertEqual(try status(folder).code, 0)
        XCTAssertTrue(s.wait { s.stderr.contains("every folder is watched again") }, s.stderr)
        try assertExact("the folder it could not watch gone")
    }
}
