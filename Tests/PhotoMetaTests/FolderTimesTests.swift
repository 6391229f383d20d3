import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaSystem

/// What a rescan that looks at folders first lists again (`FolderTimes`), and when it looks at
/// every file (`RescanSchedule`).
final class FolderTimesTests: XCTestCase {
    func testTheFoldersWhoseTimesChangedAndThoseThatChangedLastTime() throws {
        let dir = try TemporaryDirectory(prefix: "pm-folder-times")
        try dir.write("a/one.jpg", [1])
        try dir.write("b/two.jpg", [2])
        let folders = ["", "a", "b"]
        func path(_ f: String) -> String { f.isEmpty ? dir.path : dir.path + "/" + f }
        var digests = ["": 0, "a": 1, "b": 2]
        var times = FolderTimes()
        func look(_ list: [String] = folders) -> [String] {
            let listed = times.toList(.changedFolders, list, path: path, digest: { digests[$0] }).sorted()
            times.listed(digest: { digests[$0] })
            return listed
        }
        XCTAssertEqual(look(), ["", "a", "b"], "the first look knows no folder's times")
        XCTAssertEqual(look(), [], "nothing changed")
        try dir.write("a/three.jpg", [3])
        XCTAssertEqual(look(), ["a"], "a name added")
        XCTAssertEqual(look(), [], "listed, and its files did not change")
        // A folder whose files changed when it was listed is listed at the next look too.
        try dir.write("b/four.jpg", [4])
        _ = times.toList(.changedFolders, folders, path: path, digest: { digests[$0] })
        digests["b"] = 22
        times.listed(digest: { digests[$0] })
        // A listing for anything else between the looks (inotify's events, a pending file's
        // check) keeps it so.
        times.listed(digest: { _ in 99 })
        XCTAssertEqual(look(), ["b"], "its files changed at the last look")
        XCTAssertEqual(look(), [])
        try FileManager.default.moveItem(atPath: path("a") + "/one.jpg", toPath: path("a") + "/five.jpg")
        XCTAssertEqual(look(), ["a"], "a rename")
        try FileManager.default.removeItem(atPath: path("b"))
        XCTAssertEqual(look(), ["", "b"], "b cannot be examined, and its parent changed")
        try dir.write("c/seven.jpg", [7])
        digests["c"] = 7
        XCTAssertEqual(look(["", "a", "c"]), ["", "c"], "a folder not known before, and its parent changed")
        // A look at every file lists none itself, and remembers the times; a folder whose files
        // it found changed is listed at the next look too.
        try dir.write("a/six.jpg", [6])
        XCTAssertEqual(times.toList(.everyFile, ["", "a", "c"], path: path, digest: { digests[$0] }), [])
        digests["a"] = 16
        times.listed(digest: { digests[$0] })
        XCTAssertEqual(look(["", "a", "c"]), ["a"], "its files changed at the look at every file")
        XCTAssertEqual(look(["", "a", "c"]), [])
    }

    func testWhenEveryFileIsLookedAt() throws {
        let dir = try TemporaryDirectory(prefix: "pm-rescan-schedule")
        let folders = [(path: dir.path, display: dir.path)]
        XCTAssertNil(RescanSchedule.make(folders: folders, asked: nil, now: 0), "a local disk: no looks")
        XCTAssertNil(RescanSchedule.make(folders: folders, asked: .zero, now: 0))
        // A local disk asked to look: every file, every look.
        var local = try XCTUnwrap(RescanSchedule.make(folders: folders, asked: .seconds(30), now: 0))
        XCTAssertEqual(local.note, "looking at every file again every 30 s")
        XCTAssertNil(local.0.look(at: 29))
        XCTAssertEqual(local.0.look(at: 30), .everyFile)
        XCTAssertEqual(local.0.look(at: 60), .everyFile)
        // Folders first (as on NFS): every third look at every file.
        var shared = try XCTUnwrap(RescanSchedule.make(folders: folders, asked: .seconds(30), wholeEvery: 3, now: 0))
        XCTAssertEqual(shared.note, "looking at its folders again every 30 s and at every file every 90 s")
        XCTAssertEqual(shared.0.due, 30)
        let looks = [30.0, 60, 90, 120, 150, 180].map { shared.0.look(at: $0) }
        XCTAssertEqual(looks, [.changedFolders, .changedFolders, .everyFile, .changedFolders, .changedFolders, .everyFile])
        XCTAssertEqual(shared.0.last, 180)
    }
}
