import Foundation
import Synchronization
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaSystem

/// `FolderScan` parses a few folders' new files while the walk lists the next ones
/// (`ParseJob`, up to `foldersInFlight`): the folders must still be handed on one at a time, in
/// the walk's order, each with every one of its candidates, whether it was parsed, read from
/// the index or passed over.
final class FolderScanTests: XCTestCase {
    /// What a scan handed on, in order: "listed FOLDER N" or "counted FOLDER N" (relative
    /// folders, short in a failure message), and each listed folder's candidates.
    private struct Scanned {
        var handed: [String] = []
        var candidates: [String: [String]] = [:]
    }

    private func scan(_ root: String, index: String?, passOver: ((Int) -> Bool)? = nil)
        -> (scanned: Scanned, skipped: [String], parsed: Int)
    {
        var scanned = Scanned()
        var asked = 0
        let accept: ((ClosedRange<Double>?) -> Bool)? = passOver.map { decide in
            { _ in
                asked += 1
                return decide(asked)
            }
        }
        let summary = FolderScan(exclude: [], indexPath: index).run(
            [FolderScan.Root(path: root, display: root)], passOver: accept,
            counted: { folder, n in scanned.handed.append("counted \(folder.dropFirst(root.count)) \(n)") },
            visit: { folder, list in
                scanned.handed.append("listed \(folder.dropFirst(root.count)) \(list.count)")
                scanned.candidates[folder] = list.map(\.path).sorted()
            })
        return (scanned, summary.skipped.map(\.path), summary.parsed)
    }

    func testFoldersAreHandedOnInTheWalksOrderWithAllTheirCandidates() throws {
        let dir = try TemporaryDirectory(prefix: "pm-scan-order")
        let cache = try TemporaryDirectory(prefix: "pm-scan-order-index")
        let root = try FileSystem.canonicalFolder(dir.path)
        let photo = try TestPaths.bytes("mmexport1700000000000.jpg")
        // Folders of 0 to 30 files (runs of 8 and their remainders), nested, with temporary
        // names between the photos.
        var expected: [String: [String]] = [:]
        for f in 0..<14 {
            let folder = f % 3 == 2 ? "d\(f / 3)/n\(f)" : "d\(f)"
            let count = (f * 7) % 31
            var names: [String] = []
            for i in 0..<count {
                let name = "\(folder)/IMG_2020\(String(format: "%02d", f % 12 + 1))01_1200\(String(format: "%02d", i)).jpg"
                try dir.write(name, photo)
                names.append(root + "/" + name)
            }
            try dir.write("\(folder)/download\(f).jpg.part", photo)
            expected[root + "/" + folder] = names.sorted()
        }
        // The walk's own order, the one the scan must keep.
        var order: [String] = []
        TreeWalker(policy: .library, exclude: []).walk(root) { event in
            if case .folderDone(let folder) = event { order.append(folder.path) }
        }
        let walkSkipped = order.compactMap { folder -> String? in
            guard expected[folder] != nil, let f = Int(folder.split(separator: "/").last?.dropFirst() ?? "") else { return nil }
            return folder + "/download\(f).jpg.part"
        }
        XCTAssertEqual(Set(order), Set(expected.keys).union([root, root + "/d2"]))  // d2 only holds n8

        for index in [nil, cache.path + "/index.sqlite3"] {
            let first = scan(root, index: index)
            XCTAssertEqual(
                first.scanned.handed, order.map { "listed \($0.dropFirst(root.count)) \(expected[$0]?.count ?? 0)" },
                "index: \(index ?? "none")")
            XCTAssertEqual(first.scanned.candidates.filter { !$0.value.isEmpty }, expected.filter { !$0.value.isEmpty })
            XCTAssertEqual(first.skipped, walkSkipped)
            XCTAssertEqual(first.parsed, expected.values.map(\.count).reduce(0, +))
        }
        // From the index, every other folder passed over: still in order, nothing parsed.
        let again = scan(root, index: cache.path + "/index.sqlite3", passOver: { $0 % 2 == 0 })
        XCTAssertEqual(
            again.scanned.handed,
            order.enumerated().map { i, folder in
                "\(i % 2 == 1 ? "counted" : "listed") \(folder.dropFirst(root.count)) \(expected[folder]?.count ?? 0)"
            })
        for (folder, names) in again.scanned.candidates { XCTAssertEqual(names, expected[folder] ?? [], folder) }
        XCTAssertEqual(again.parsed, 0)
    }

    /// Two names that differ only in Unicode normalization (`café` composed and decomposed) are
    /// two files on Linux, though Swift's `String` calls them equal: each is matched with its
    /// own index row, so the second scan parses neither and each keeps its own facts.
    func testNamesEqualOnlyUnderUnicodeNormalizationKeepTheirOwnRows() throws {
        let dir = try TemporaryDirectory(prefix: "pm-scan-normalization")
        let cache = try TemporaryDirectory(prefix: "pm-scan-normalization-index")
        let root = try FileSystem.canonicalFolder(dir.path)
        let composed = "caf\u{E9}.jpg"
        let decomposed = "cafe\u{301}.jpg"
        XCTAssertEqual(composed, decomposed)  // as Swift sees them
        XCTAssertNotEqual(Array(composed.utf8), Array(decomposed.utf8))
        try dir.write(composed, try TestPaths.bytes("mmexport1700000000000.jpg"))
        try dir.write(decomposed, try TestPaths.bytes("IMG_20240315_093012.jpg"))
        let index = cache.path + "/index.sqlite3"
        var seen: [[UInt8]: (size: Int64, captured: CaptureDate?)] = [:]
        for pass in 0..<2 {
            var got: [[UInt8]: (size: Int64, captured: CaptureDate?)] = [:]
            let summary = FolderScan(exclude: [], indexPath: index).run([FolderScan.Root(path: root, display: root)]) {
                _, list in
                for c in list { got[Array(c.path.utf8)] = (c.size, c.captured) }
            }
            XCTAssertEqual(got.count, 2, "pass \(pass)")
            XCTAssertEqual(summary.parsed, pass == 0 ? 2 : 0, "pass \(pass): parsed")
            for name in [composed, decomposed] {
                let path = Array((root + "/" + name).utf8)
                let facts = try FileFacts.of(root + "/" + name)
                XCTAssertEqual(got[path]?.size, facts.size, "pass \(pass): \(path)")
                if pass == 1 { XCTAssertEqual(got[path]?.captured, seen[path]?.captured, "pass \(pass): \(path)") }
            }
            seen = got
        }
        XCTAssertNotEqual(
            seen[Array((root + "/" + composed).utf8)]?.captured, seen[Array((root + "/" + decomposed).utf8)]?.captured)
    }

    /// A folder larger than a piece (`handsOnInParts`, as `suggest` and `recent` scan): handed
    /// on in parts no larger than a piece, with the same candidates, kinds and Live Photo pairs
    /// as a scan that hands each folder on whole, on a first scan and from the index.
    func testALargeFolderIsHandedOnInPartsPairedAsAWhole() throws {
        let dir = try TemporaryDirectory(prefix: "pm-scan-parts")
        let cache = try TemporaryDirectory(prefix: "pm-scan-parts-index")
        let root = try FileSystem.canonicalFolder(dir.path)
        let photo = try TestPaths.bytes("mmexport1700000000000.jpg")
        let n = FolderScan.pieceLength * 2 + 40
        for i in 0..<n { try dir.write("Camera/IMG_20200101_12\(String(format: "%04d", i)).jpg", photo) }
        // Live Photos by identifier (one under a name of its own) and by name and time; the
        // movies sort after most stills, so they are parsed in a later run than their stills.
        for (from, to) in [
            ("pairing/IMG_0007.JPG", "IMG_0007.JPG"), ("pairing/IMG_0007(1).MOV", "zz_IMG_0007.MOV"),
            ("library/IMG_0001.HEIC", "IMG_0001.HEIC"), ("library/IMG_0001.MOV", "IMG_0001.MOV"),
            ("pairing/walk.jpg", "walk.jpg"), ("pairing/walk.mov", "walk.mov"),
            ("pairing/fixture.jpg", "fixture.jpg"), ("pairing/fixture.mov", "fixture.mov"),
        ] {
            try dir.write("Camera/" + to, try Array(Data(contentsOf: TestPaths.fixtures.appendingPathComponent(from))))
        }
        func run(parts: Bool, index: String?) -> (visits: [Int], candidates: [SuggestionCandidate]) {
            var folderScan = FolderScan(exclude: [], indexPath: index)
            folderScan.handsOnInParts = parts
            var visits: [Int] = []
            var all: [SuggestionCandidate] = []
            _ = folderScan.run([FolderScan.Root(path: root, display: root)]) { _, list in
                visits.append(list.count)
                all += list
            }
            return (visits, all.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) })
        }
        let whole = run(parts: false, index: nil)
        XCTAssertEqual(whole.visits.count, 2, "the root and Camera, once each")
        XCTAssertEqual(whole.candidates.count, n + 8)
        let paired = whole.candidates.filter { $0.livePhotoPair != nil }.map { $0.path.dropFirst(root.count + 8) }
        XCTAssertEqual(
            paired, ["IMG_0001.HEIC", "IMG_0001.MOV", "IMG_0007.JPG", "walk.jpg", "walk.mov", "zz_IMG_0007.MOV"])
        // No index, a new index (every file parsed), then from the index (the folder's rows
        // come whole, as the index reads a folder's rows at once).
        for (round, index) in [nil, cache.path + "/index.sqlite3", cache.path + "/index.sqlite3"].enumerated() {
            let inParts = run(parts: true, index: index)
            XCTAssertEqual(inParts.candidates, whole.candidates, "round \(round)")
            if round < 2 {
                XCTAssertGreaterThan(inParts.visits.count, 3, "Camera in parts: \(inParts.visits)")
                XCTAssertLessThanOrEqual(inParts.visits.max() ?? 0, FolderScan.pieceLength, "\(inParts.visits)")
            }
        }
    }

    /// Every thread of the pool busy (a watch's inspections, a stalled disk): the scan parses
    /// its folders itself instead of waiting for a pool thread (`ParseJob.wait`). The pool's
    /// threads are held until the scan returns; one that had to give up waiting means the
    /// scan waited for them.
    func testAScanFinishesWhileEveryPoolThreadIsBusy() throws {
        let dir = try TemporaryDirectory(prefix: "pm-scan-busy-pool")
        let root = try FileSystem.canonicalFolder(dir.path)
        let photo = try TestPaths.bytes("mmexport1700000000000.jpg")
        for f in 0..<4 {
            for i in 0..<10 { try dir.write("d\(f)/IMG_20200101_1200\(String(format: "%02d", i)).jpg", photo) }
        }
        let release = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        let gaveUp = Mutex(0)
        let width = WorkerPool.shared.width
        for _ in 0..<width {
            WorkerPool.shared.async {
                holding.signal()
                if release.wait(timeout: .now() + 60) == .timedOut { gaveUp.withLock { $0 += 1 } }
            }
        }
        for _ in 0..<width { XCTAssertEqual(holding.wait(timeout: .now() + 30), .success, "a pool thread took its job") }
        let result = scan(root, index: nil)
        for _ in 0..<width { release.signal() }
        XCTAssertEqual(result.parsed, 40)
        XCTAssertEqual(result.scanned.candidates.values.map(\.count).reduce(0, +), 40)
        // Every holder returns by itself now; none had given up.
        let drained = expectation(description: "the pool runs again")
        WorkerPool.shared.async { drained.fulfill() }
        wait(for: [drained], timeout: 60)
        XCTAssertEqual(gaveUp.withLock { $0 }, 0, "the scan waited for the busy pool")
    }
}
