import Foundation
import XCTest

/// `photometa watch` as a process in the situations of issue 11: each test waits for the ready
/// event, then for the expected event, with bounded waits.
final class WatchSituationsTests: XCTestCase {
    /// The test's own folder (removed with it).
    var scratch: TemporaryDirectory!
    var work: URL!
    var folder: String { work.appendingPathComponent("photos").path }

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "pm-wsit")
        work = scratch.url
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { scratch = nil }

    func start(_ extra: [String] = []) throws -> WatchCommandTests.RunningWatch {
        let w = try WatchCommandTests.RunningWatch(
            ["watch", folder, "--jsonl", "--no-suggest", "--state", work.appendingPathComponent("s.sqlite3").path] + extra)
        XCTAssertTrue(w.wait { w.stdout.contains(#""event":"ready""#) }, w.stdout + w.stderr)
        return w
    }

    func photo(_ name: String) throws {
        let path = folder + "/" + name
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Photometa.fixture("clip.mp4"), toPath: path)
    }

    /// The events so far, decoded.
    func events(_ w: WatchCommandTests.RunningWatch) -> [[String: Any]] {
        w.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func inserted(_ w: WatchCommandTests.RunningWatch) -> [String] {
        events(w).flatMap { ($0["inserted"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String } }
    }

    func changed(_ w: WatchCommandTests.RunningWatch) -> [String] {
        events(w).flatMap { ($0["changed"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String } }
    }

    func removed(_ w: WatchCommandTests.RunningWatch) -> [String] {
        events(w).flatMap { $0["removed"] as? [String] ?? [] }
    }

    /// Writes a marker photo and waits for it: everything written before has been dealt with.
    func drain(_ w: WatchCommandTests.RunningWatch, _ n: Int) throws {
        try photo("marker-\(n).mp4")
        XCTAssertTrue(w.wait { self.inserted(w).contains(self.folder + "/marker-\(n).mp4") }, w.stdout)
    }

    func testRenameThenDeleteOfASubfolderKeepsWatching() throws {
        let w = try start()
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try drain(w, 1)
        try FileManager.default.moveItem(atPath: folder + "/sub", toPath: folder + "/sub2")
        try drain(w, 2)
        try FileManager.default.removeItem(atPath: folder + "/sub2")
        try drain(w, 3)
        XCTAssertTrue(w.process.isRunning, "still watching: \(w.stderr)")
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
    }

    func testTheFolderMovedAwayExits1() throws {
        let w = try start()
        try FileManager.default.moveItem(atPath: folder, toPath: work.appendingPathComponent("elsewhere").path)
        XCTAssertEqual(w.finish(timeout: 10), 1)
        XCTAssertTrue(w.stderr.contains("disappeared"), w.stderr)
    }

    func testOnlyMediaAndNoChmodChanges() throws {
        try photo("old.mp4")
        let w = try start()
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        XCTAssertEqual(chmod(folder + "/old.mp4", 0o600), 0)
        try drain(w, 1)
        XCTAssertEqual(inserted(w), [folder + "/marker-1.mp4"], "notes.txt is not media")
        XCTAssertEqual(changed(w), [], "a chmod alone is not a change")
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
    }

    func testABrowserDownloadIsOneInsertion() throws {
        let w = try start()
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/ff.mp4", contents: Data()))
        try FileManager.default.copyItem(atPath: Photometa.fixture("clip.mp4"), toPath: folder + "/ff.mp4.part")
        Thread.sleep(forTimeInterval: 1.3)  // the browser's pace: longer than the settle time
        XCTAssertEqual(rename(folder + "/ff.mp4.part", folder + "/ff.mp4"), 0)
        XCTAssertTrue(w.wait { self.inserted(w).contains(self.folder + "/ff.mp4") }, w.stdout)
        try drain(w, 1)
        XCTAssertEqual(inserted(w), [folder + "/ff.mp4", folder + "/marker-1.mp4"])
        XCTAssertEqual(changed(w), [])
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
    }

    func testASubfolderReplacedByAFile() throws {
        try photo("x/inner.mp4")
        let w = try start()
        try FileManager.default.removeItem(atPath: folder + "/x")
        try photo("x")
        XCTAssertTrue(w.wait { self.inserted(w).contains(self.folder + "/x") }, w.stdout)
        XCTAssertTrue(removed(w).contains(folder + "/x/inner.mp4"), w.stdout)
        XCTAssertTrue(w.process.isRunning)
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
    }
}
