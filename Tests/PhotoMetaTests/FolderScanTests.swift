import Foundation
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
}
