import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

final class SuggestionMemoryTests: XCTestCase {
    func testAdvanceOnlyMovesForwardAndForgetClears() throws {
        let dir = try TemporaryDirectory()
        let m = try SuggestionMemory(path: dir.path + "/sub/state.sqlite3")
        XCTAssertNil(try m.remembered(profile: "a"))
        XCTAssertEqual(try m.advance(profile: "a", to: 100, offered: "x", now: 1), 100)
        XCTAssertEqual(try m.advance(profile: "a", to: 50, offered: nil, now: 2), 100, "never back")
        XCTAssertEqual(try m.advance(profile: "a", to: 150, offered: nil, now: 3), 150)
        XCTAssertNil(try m.remembered(profile: "b"), "per profile")
        XCTAssertTrue(try m.forget(profile: "a"))
        XCTAssertFalse(try m.forget(profile: "a"))
        XCTAssertNil(try m.remembered(profile: "a"))
    }

    /// A memory on a file system mounted read-only (a live system, a locked-down home): SQLite
    /// cannot make the WAL's `-wal` and `-shm` there, so it was "cannot open: no such file or
    /// directory" even for `--peek`. Read, it is read as it is; written, the plain error.
    func testAMemoryOnAReadOnlyFileSystemIsReadAndNotWritten() throws {
        let dir = try TemporaryDirectory()
        let mountPoint = dir.path + "/m"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        guard TemporaryMount.tmpfs(at: mountPoint) else { throw XCTSkip("cannot mount a tmpfs here (needs root)") }
        defer { TemporaryMount.unmount(mountPoint) }
        try FileManager.default.createDirectory(
            atPath: mountPoint + "/state", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let path = mountPoint + "/state/state.sqlite3"
        do {
            let m = try SuggestionMemory(path: path)
            XCTAssertEqual(try m.advance(profile: "a", to: 100, offered: "x", now: 1), 100)
        }
        XCTAssertTrue(TemporaryMount.remount(mountPoint, readOnly: true))
        let reader = try SuggestionMemory(path: path, readOnly: true)
        XCTAssertEqual(try reader.remembered(profile: "a"), 100)
        XCTAssertThrowsError(try SuggestionMemory(path: path).advance(profile: "a", to: 200, offered: nil, now: 2)) {
            XCTAssertEqual($0 as? StateFileError, .readOnlyFileSystem(path: path))
        }
        XCTAssertTrue(TemporaryMount.remount(mountPoint, readOnly: false))
        XCTAssertEqual(try SuggestionMemory(path: path).remembered(profile: "a"), 100, "nothing changed")
        // A name with a query's or a fragment's characters stays one path.
        XCTAssertEqual(SQLiteDatabase.immutableURI("/a b/c?d#e%f/é"), "file:///a%20b/c%3Fd%23e%25f/%C3%A9?immutable=1")
        XCTAssertEqual(SQLiteDatabase.immutableURI("//srv/s.db"), "file:////srv/s.db?immutable=1", "no host")
        XCTAssertEqual(SQLiteDatabase.immutableURI("s.db"), "file:s.db?immutable=1")
    }

    /// One step under the write lock: an offer already reached by the memory is not delivered;
    /// one that was not delivered is not recorded; one delivered is.
    func testOfferOnce() throws {
        let dir = try TemporaryDirectory()
        let m = try SuggestionMemory(path: dir.path + "/state.sqlite3")
        var delivered = 0
        XCTAssertEqual(
            try m.offerOnce(profile: "p", instant: 100, offered: "a.jpg", now: 1) { false }, .notDelivered)
        XCTAssertNil(try m.remembered(profile: "p"), "not delivered: nothing recorded")
        XCTAssertEqual(
            try m.offerOnce(profile: "p", instant: 100, offered: "a.jpg", now: 1) {
                delivered += 1
                return true
            }, .recorded)
        XCTAssertEqual(try m.remembered(profile: "p"), 100)
        XCTAssertEqual(
            try m.offerOnce(profile: "p", instant: 100, offered: "a.jpg", now: 2) {
                delivered += 1
                return true
            }, .alreadySeen(remembered: 100))
        XCTAssertEqual(delivered, 1, "a second asker is never handed the offer")
        try m.advance(profile: "p", to: 500, offered: nil, now: 3)
        XCTAssertEqual(
            try m.offerOnce(profile: "p", instant: 400, offered: "b.jpg", now: 4) { true }, .alreadySeen(remembered: 500))
        XCTAssertEqual(try m.offerOnce(profile: "p", instant: 600, offered: "c.jpg", now: 5) { true }, .recorded)
        XCTAssertEqual(try m.remembered(profile: "p"), 600)
    }

    /// Recorded before delivered, taken back when the delivery fails: the row is what it was
    /// before (none, or the earlier offer), unless another process wrote it meanwhile.
    func testAnUndeliveredOfferIsTakenBack() throws {
        let dir = try TemporaryDirectory()
        let m = try SuggestionMemory(path: dir.path + "/state.sqlite3")
        XCTAssertEqual(
            try m.offerOnce(profile: "p", instant: 100, offered: "a.jpg", now: 1) {
                XCTAssertEqual(try? m.remembered(profile: "p"), 100, "recorded when delivered")
                return false
            }, .notDelivered)
        XCTAssertNil(try m.remembered(profile: "p"), "no row, as before")
        XCTAssertEqual(
            try m.offerOnce(profile: "p", instant: 100, offered: "a.jpg", file: "/p/a.jpg", now: 2) { true }, .recorded)
        let standing = try m.standingOffer(profile: "p")
        XCTAssertEqual(
            try m.offerOnce(profile: "p", instant: 200, offered: "b.jpg", file: "/p/b.jpg", now: 3) { false }, .notDelivered)
        XCTAssertEqual(try m.remembered(profile: "p"), 100, "the earlier offer again")
        XCTAssertEqual(try m.standingOffer(profile: "p"), standing)
        // Another writer between the offer and its failed delivery: its write stays.
        XCTAssertEqual(
            try m.offerOnce(profile: "p", instant: 300, offered: "c.jpg", now: 4) {
                (try? m.advance(profile: "p", to: 400, offered: nil, now: 5)) != nil && false
            }, .notDelivered)
        XCTAssertEqual(try m.remembered(profile: "p"), 400)
    }

    func testPersistsAcrossOpens() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/state.sqlite3"
        try SuggestionMemory(path: path).advance(profile: "a", to: 42, offered: nil, now: 1)
        XCTAssertEqual(try SuggestionMemory(path: path).remembered(profile: "a"), 42)
    }

    func testCorruptFileIsRefusedAndLeftUntouched() throws {
        let dir = try TemporaryDirectory()
        let garbage = Array(repeating: UInt8(0x42), count: 4096)
        let path = try dir.write("state.sqlite3", garbage)
        XCTAssertThrowsError(try SuggestionMemory(path: path)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(path), text)
            XCTAssertTrue(text.contains("left untouched"), text)
        }
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), garbage)
    }

    func testTruncatedDatabaseIsRefused() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/state.sqlite3"
        try SuggestionMemory(path: path).advance(profile: "a", to: 42, offered: nil, now: 1)
        // Checkpoint happened on close; cut the file in the middle of its pages.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        try Data(bytes.prefix(100)).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try SuggestionMemory(path: path).remembered(profile: "a"))
    }

    func testForeignDatabaseIsRefusedAndLeftUntouched() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/other.sqlite3"
        let other = try SQLiteDatabase(path: path)
        try other.execute("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada');")
        XCTAssertThrowsError(try SuggestionMemory(path: path)) { error in
            guard case StateFileError.foreign(_, let tables) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(tables, ["contacts"])
        }
        XCTAssertEqual(try other.query("SELECT name FROM contacts").first?.first?.string, "Ada")
        XCTAssertEqual(try other.identity().tables, ["contacts"])
    }

    func testNewerSchemaIsRefused() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/state.sqlite3"
        _ = try SuggestionMemory(path: path)
        try SQLiteDatabase(path: path).setUserVersion(99)
        XCTAssertThrowsError(try SuggestionMemory(path: path)) { error in
            guard case StateFileError.newerVersion(_, 99) = error else { return XCTFail("\(error)") }
        }
    }

    func testIndexAndMemoryAreNotInterchangeable() throws {
        // Both are photometa files, but the index's schema is not the memory's: opening one as
        // the other must not silently mix them. (Same application id, different tables.)
        let dir = try TemporaryDirectory()
        let path = dir.path + "/x.sqlite3"
        _ = try AssetIndex(path: path)
        XCTAssertThrowsError(try SuggestionMemory(path: path).remembered(profile: "a"))
    }

    func testALockHeldTooLongIsAClearErrorAndNothingIsLost() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/state.sqlite3"
        try SuggestionMemory(path: path).advance(profile: "a", to: 42, offered: nil, now: 1)
        let holder = try SQLiteDatabase(path: path)
        try holder.execute("BEGIN EXCLUSIVE")
        let m = try SuggestionMemory(path: path, busyTimeoutMilliseconds: 200)
        XCTAssertThrowsError(try m.advance(profile: "a", to: 99, offered: nil, now: 2)) { error in
            XCTAssertTrue("\(error)".contains(path), "\(error)")
            XCTAssertTrue("\(error)".contains("locked"), "\(error)")
        }
        try holder.execute("ROLLBACK")
        XCTAssertEqual(try SuggestionMemory(path: path).remembered(profile: "a"), 42, "the memory is intact")
        XCTAssertEqual(try m.advance(profile: "a", to: 99, offered: nil, now: 3), 99, "and usable once the lock is gone")
    }

    func testConcurrentWritersLoseNothing() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/state.sqlite3"
        _ = try SuggestionMemory(path: path)
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            do {
                let m = try SuggestionMemory(path: path)
                for k in 0..<10 { try m.advance(profile: "a", to: Double(i * 10 + k), offered: nil, now: 0) }
            } catch {
                failures.add("\(error)")
            }
        }
        XCTAssertEqual(failures.values, [])
        XCTAssertEqual(try SuggestionMemory(path: path).remembered(profile: "a"), 159)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var values: [String] = []
    func add(_ s: String) {
        lock.lock()
        values.append(s)
        lock.unlock()
    }
}
