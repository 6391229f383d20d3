import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaSystem

/// The watcher's completeness and change rules, driven by values: the tree's keys, the events,
/// and `now` moved by the test. Nothing here waits for time to pass.
final class SettleTrackerTests: XCTestCase {
    /// A key whose modification time is `mtime` seconds since 1970.
    func key(size: Int64 = 100, mtime: Double, inode: Int64 = 1, ctime: Double? = nil) -> FileKey {
        FileKey(
            size: size, mtime: Int64(mtime * 1e9), ctime: Int64((ctime ?? mtime) * 1e9), inode: inode, device: 1)
    }

    func testFilesPresentAtTheStartAreNotNews() {
        var t = SettleTracker(initial: ["old.jpg": key(mtime: 10)], settleTime: 1)
        let s = t.settle(["old.jpg"], current: ["old.jpg": key(mtime: 10)], now: 100)
        XCTAssertEqual(s, SettleTracker.Settled())
    }

    func testAClosedFileIsReadyAtOnce() {
        var t = SettleTracker(initial: [:], settleTime: 1)
        t.note("a.jpg", written: true, closed: false)
        t.note("a.jpg", written: false, closed: true)
        let s = t.settle(["a.jpg"], current: ["a.jpg": key(mtime: 100)], now: 100)
        XCTAssertEqual(s.ready.map(\.path), ["a.jpg"])
        XCTAssertEqual(s.ready.map(\.inserted), [true])
        XCTAssertEqual(t.trackedNames, 0, "nothing kept once reported")
    }

    /// A write after the close (one batch of events) means the file is being written again.
    func testAWriteAfterTheCloseIsNotComplete() {
        var t = SettleTracker(initial: [:], settleTime: 1)
        t.note("a.jpg", written: false, closed: true)
        t.note("a.jpg", written: true, closed: false)
        let s = t.settle(["a.jpg"], current: ["a.jpg": key(mtime: 100)], now: 100)
        XCTAssertEqual(s.ready.count, 0)
        XCTAssertEqual(t.nextCheck(after: 100), 100.5, "looked at again after half the settle time")
    }

    /// Without a close event (a copy over NFS, a polled folder): complete once unchanged between
    /// two looks and as old as the settle time.
    func testUnchangedForTheSettleTimeIsComplete() {
        var t = SettleTracker(initial: [:], settleTime: 1)
        let k = key(mtime: 100)
        XCTAssertEqual(t.settle(["a.jpg"], current: ["a.jpg": k], now: 100.2).ready.count, 0, "first seen")
        XCTAssertEqual(t.settle([], current: ["a.jpg": k], now: 100.6).ready.count, 0, "younger than 1 s")
        let grown = key(size: 200, mtime: 100.7)
        XCTAssertEqual(t.settle(["a.jpg"], current: ["a.jpg": grown], now: 101.8).ready.count, 0, "it changed")
        XCTAssertEqual(t.settle([], current: ["a.jpg": grown], now: 101.8).ready.map(\.path), ["a.jpg"])
        XCTAssertNil(t.nextCheck(after: 101.8))
    }

    /// A browser creates the file empty and renames its download over it later: the empty
    /// file never counts as complete, however long it waits (the test moves an hour).
    func testAnEmptyFileIsNeverComplete() {
        var t = SettleTracker(initial: [:], settleTime: 1)
        let empty = key(size: 0, mtime: 100)
        t.note("ff.jpg", written: true, closed: true)
        XCTAssertEqual(t.settle(["ff.jpg"], current: ["ff.jpg": empty], now: 100).ready.count, 0)
        XCTAssertEqual(t.settle([], current: ["ff.jpg": empty], now: 3700).ready.count, 0, "an hour later")
        XCTAssertNil(t.nextCheck(after: 3700), "nothing to look at again before it is written: no wake-up")
        t.note("ff.jpg", written: false, closed: true)  // the rename over it
        let s = t.settle(["ff.jpg"], current: ["ff.jpg": key(mtime: 3700, inode: 2)], now: 3700)
        XCTAssertEqual(s.ready.map(\.path), ["ff.jpg"])
        XCTAssertEqual(s.ready.map(\.inserted), [true], "one insertion, never a change")
    }

    func testChmodAloneIsNotAChange() {
        var t = SettleTracker(initial: ["a.jpg": key(mtime: 10)], settleTime: 1)
        let s = t.settle(["a.jpg"], current: ["a.jpg": key(mtime: 10, ctime: 50)], now: 100)
        XCTAssertEqual(s, SettleTracker.Settled())
    }

    func testRemovalOfMediaOnlyIsNews() {
        var t = SettleTracker(initial: [:], settleTime: 1)
        for name in ["a.jpg", "notes.txt"] { t.note(name, written: true, closed: true) }
        let current = ["a.jpg": key(mtime: 10), "notes.txt": key(mtime: 10, inode: 2)]
        XCTAssertEqual(t.settle(["a.jpg", "notes.txt"], current: current, now: 100).ready.count, 2)
        t.inspected("a.jpg", isMedia: true)
        t.inspected("notes.txt", isMedia: false)
        XCTAssertEqual(t.trackedNames, 1, "the not-media name is kept while it exists")
        let s = t.settle(["a.jpg", "notes.txt"], current: [:], now: 101)
        XCTAssertEqual(s.removed, ["a.jpg"], "the removal of a file that was never news is not news")
        XCTAssertEqual(t.trackedNames, 0)
    }

    /// Names that came and went before they settled leave nothing behind.
    func testChurnKeepsNothing() {
        var t = SettleTracker(initial: [:], settleTime: 1)
        for i in 0..<100 { t.note("churn-\(i).jpg", written: true, closed: false) }
        let touched = Set((0..<100).map { "churn-\($0).jpg" })
        let s = t.settle(touched, current: [:], now: 100)
        XCTAssertEqual(s, SettleTracker.Settled())
        XCTAssertEqual(t.trackedNames, 0)
    }

    func testAModifiedFileIsAChange() {
        var t = SettleTracker(initial: ["a.jpg": key(mtime: 10)], settleTime: 1)
        t.note("a.jpg", written: true, closed: true)
        let s = t.settle(["a.jpg"], current: ["a.jpg": key(size: 300, mtime: 99)], now: 100)
        XCTAssertEqual(s.ready.map(\.path), ["a.jpg"])
        XCTAssertEqual(s.ready.map(\.inserted), [false])
    }

    /// A burst is reported in parts of at most `chunk` files, every file once (ready files,
    /// then renames: a folder of 50,000 renamed is 50,000 renames), removals with the first
    /// part; never all inspected at once.
    func testABurstIsCutInParts() {
        var settled = SettleTracker.Settled()
        settled.ready = (0..<600).map { (path: "f\($0).jpg", inserted: true) }
        settled.removed = ["gone.jpg"]
        settled.moved = (0..<300).map { (from: "a\($0).jpg", to: "b\($0).jpg") }
        let parts = settled.chunked(256)
        XCTAssertEqual(parts.map(\.ready.count), [256, 256, 88, 0, 0])
        XCTAssertEqual(parts.map(\.moved.count), [0, 0, 0, 256, 44])
        XCTAssertEqual(parts.flatMap(\.ready).map(\.path), settled.ready.map(\.path))
        XCTAssertEqual(parts.flatMap(\.moved).map(\.to), settled.moved.map(\.to))
        XCTAssertEqual(parts.map(\.removed), [["gone.jpg"], [], [], [], []])
        XCTAssertEqual(SettleTracker.Settled().chunked(256).count, 1, "an empty batch is one empty part")
    }
}
