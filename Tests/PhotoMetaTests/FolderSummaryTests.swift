import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// The index's folder summaries (issue 20): a scan passes over a folder whose files are all as
/// summarised, and whose span the caller turns down, with a stat of each file and no row read;
/// any change to the folder's files (added, removed, renamed, rewritten, touched, a sidecar)
/// lists it again.
final class FolderSummaryTests: XCTestCase {
    /// One scan: the folders handed on with their candidates, and those passed over as a count.
    func scan(_ root: String, index: String, passOver: Bool) -> (listed: [String: Int], counted: [String: Int]) {
        var listed: [String: Int] = [:]
        var counted: [String: Int] = [:]
        _ = FolderScan(exclude: [], indexPath: index).run(
            [FolderScan.Root(path: root, display: root)], passOver: { _ in passOver },
            counted: { folder, n in counted[String(folder.dropFirst(root.count))] = n },
            visit: { folder, list in listed[String(folder.dropFirst(root.count))] = list.count })
        return (listed, counted)
    }

    /// `recent` enters sub-folders last name first (`FolderScan.lastNamesFirst`); the summaries
    /// an ordinary scan (`suggest`, `serve`) wrote still hold for it, and the ones it writes
    /// still hold for them: each folder's files, and so its digest, come in path order.
    func testTheSummariesHoldWhicheverOrderTheFoldersAreWalkedIn() throws {
        let dir = try TemporaryDirectory(prefix: "pm-summary-order")
        let cache = try TemporaryDirectory(prefix: "pm-summary-order-index")
        let index = cache.path + "/index.sqlite3"
        let root = try FileSystem.canonicalFolder(dir.path)
        let photo = try TestPaths.bytes("mmexport1700000000000.jpg")
        for name in [
            "IMG_20200101_115900.jpg", "a/IMG_20200101_120000.jpg", "a/IMG_20200101_120001.jpg", "a/c/x.jpg",
            "b/IMG_20200102_120000.jpg", "b/IMG_20200102_120001.jpg",
        ] {
            try dir.write(name, photo)
        }
        func run(lastNamesFirst: Bool) -> (order: [String], counted: [String: Int]) {
            var order: [String] = []
            var counted: [String: Int] = [:]
            var scan = FolderScan(exclude: [], indexPath: index)
            scan.lastNamesFirst = lastNamesFirst
            _ = scan.run(
                [FolderScan.Root(path: root, display: root)], passOver: { _ in true },
                counted: { folder, n in
                    order.append(String(folder.dropFirst(root.count)))
                    counted[String(folder.dropFirst(root.count))] = n
                },
                visit: { folder, _ in order.append(String(folder.dropFirst(root.count))) })
            return (order, counted)
        }
        XCTAssertEqual(run(lastNamesFirst: false).order, ["/a/c", "/a", "/b", ""], "path order writes the summaries")
        let reversed = run(lastNamesFirst: true)
        XCTAssertEqual(reversed.order, ["/b", "/a/c", "/a", ""], "the last names first")
        XCTAssertEqual(reversed.counted, ["/b": 2, "/a/c": 1, "/a": 2, "": 1], "every summary holds")
        XCTAssertEqual(run(lastNamesFirst: false).counted, ["/b": 2, "/a/c": 1, "/a": 2, "": 1], "and back")
    }

    func testAnUnchangedFolderIsPassedOverAndAnyChangeListsItAgain() throws {
        let dir = try TemporaryDirectory(prefix: "pm-summary")
        let cache = try TemporaryDirectory(prefix: "pm-summary-index")
        let index = cache.path + "/index.sqlite3"
        let root = try FileSystem.canonicalFolder(dir.path)
        let photo = try TestPaths.bytes("mmexport1700000000000.jpg")
        for name in ["a/IMG_20200101_120000.jpg", "a/IMG_20200101_120001.jpg", "b/IMG_20200102_120000.jpg"] {
            try dir.write(name, photo)
        }
        // A Live Photo pair: counted as a listing hands it on (the movie marked, not dropped).
        try dir.write("b/IMG_0001.HEIC", try TestPaths.bytes("IMG_0001.HEIC"))
        try dir.write("b/IMG_0001.MOV", try TestPaths.bytes("IMG_0001.MOV"))
        // The first scan writes the summaries; nothing can be passed over yet.
        let first = scan(root, index: index, passOver: true)
        XCTAssertEqual(first.listed, ["": 0, "/a": 2, "/b": 3])
        XCTAssertEqual(first.counted, [:])
        // Unchanged: both passed over, with the counts a listing gives.
        XCTAssertEqual(scan(root, index: index, passOver: true).counted, ["": 0, "/a": 2, "/b": 3])
        // The caller turns the span down only when it may: otherwise listed as before.
        XCTAssertEqual(scan(root, index: index, passOver: false).listed, ["": 0, "/a": 2, "/b": 3])
        // Each change below lists `a` again (and only `a`), once; then it is passed over again.
        let changes: [(String, () throws -> Void)] = [
            (
                "rewritten in place",
                { try dir.write("a/IMG_20200101_120000.jpg", try TestPaths.bytes("IMG_20240315_093012.jpg")) }
            ),
            ("touched", { try self.touch(root + "/a/IMG_20200101_120001.jpg", seconds: 1_600_000_000) }),
            ("added", { try dir.write("a/IMG_20200101_120002.jpg", photo) }),
            (
                "renamed",
                {
                    try FileManager.default.moveItem(
                        atPath: root + "/a/IMG_20200101_120002.jpg", toPath: root + "/a/IMG_20200101_120003.jpg")
                }
            ),
            ("a sidecar written", { try dir.write("a/IMG_20200101_120003.jpg.xmp", Array("<x/>".utf8)) }),
            ("removed", { try FileManager.default.removeItem(atPath: root + "/a/IMG_20200101_120003.jpg") }),
        ]
        for (what, change) in changes {
            try change()
            let after = scan(root, index: index, passOver: true)
            XCTAssertNotNil(after.listed["/a"], what)
            XCTAssertEqual(after.counted["/b"], 3, what)
            let again = scan(root, index: index, passOver: true)
            XCTAssertEqual(again.listed, [:], what)
            XCTAssertEqual(again.counted["/a"], after.listed["/a"], what)
        }
    }

    func testTheDigestIsStableAndTellsListingsApart() {
        let key = FileKey(size: 10, mtime: 1, ctime: 2, inode: 3, device: 4)
        func digest(_ names: [String], _ keys: [FileKey]? = nil) -> Int64 {
            var d = FolderDigest()
            for (i, n) in names.enumerated() { d.add(name: n.utf8, key: keys?[i] ?? key) }
            return d.stored
        }
        // The same listing gives the same digest in every process (stored across runs).
        XCTAssertEqual(digest(["a.jpg"]), digest(["a.jpg"]))
        XCTAssertEqual(digest([]), Int64(bitPattern: 0xcbf2_9ce4_8422_2325))
        // The stored form, pinned (FNV-1a over each name's length, its bytes and the key's five
        // values, 8 bytes each, least significant first): a change of it would make every
        // summary in every index look stale.
        let pinned = FileKey(size: 10, mtime: 1, ctime: 2, inode: 3, device: -4)
        XCTAssertEqual(digest(["a.jpg", "IMG_0001.HEIC"], [pinned, pinned]), 7_066_109_013_076_374_535)
        XCTAssertNotEqual(digest(["ab", "c"]), digest(["a", "bc"]))
        XCTAssertNotEqual(digest(["a.jpg", "b.jpg"]), digest(["b.jpg", "a.jpg"]))
        var other = key
        other.ctimeNanoseconds += 1
        XCTAssertNotEqual(digest(["a.jpg"]), digest(["a.jpg"], [other]))
    }

    func touch(_ path: String, seconds: Int) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: Double(seconds))], ofItemAtPath: path)
    }
}
