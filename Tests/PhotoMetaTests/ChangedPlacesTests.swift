import Foundation
import PhotoMetaTestSupport
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaSystem

/// The watcher looks again only at the entries inotify named (`ChangedPlaces`,
/// `FolderSnapshot.relist(_:names:)`): what it finds must be what listing the folder finds.
final class ChangedPlacesTests: XCTestCase {
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]

    var walker: TreeWalker {
        var w = TreeWalker(policy: .library)
        w.streamsFiles = true
        return w
    }

    func testLookingAtTheNamedEntriesFindsWhatListingFinds() throws {
        let tmp = try TemporaryDirectory(prefix: "pm-names")
        for name in ["keep.jpg", "gone.jpg", "changed.jpg", "old/x.jpg", "old/deep/y.jpg", "turns.jpg", "same/z.jpg"] {
            _ = try tmp.write("lib/" + name, jpeg)
        }
        let root = try FileSystem.canonicalFolder(tmp.path + "/lib")
        let before = FolderSnapshot.take(root, walker: walker)
        // What changes, and the names inotify gives for it (in the root's watch).
        var named: Set<String> = ["gone.jpg", "changed.jpg", "old", "turns.jpg", "new", "x.jpg.part", ".h.jpg", "in.jpg"]
        try FileManager.default.removeItem(atPath: root + "/gone.jpg")
        _ = try tmp.write("lib/changed.jpg", jpeg + jpeg)
        try FileManager.default.removeItem(atPath: root + "/old")
        try FileManager.default.removeItem(atPath: root + "/turns.jpg")
        _ = try tmp.write("lib/turns.jpg/inside.jpg", jpeg)  // a file became a folder
        _ = try tmp.write("lib/new/a/b.jpg", jpeg)
        _ = try tmp.write("lib/x.jpg.part", jpeg)
        _ = try tmp.write("lib/.h.jpg", jpeg)
        XCTAssertEqual(symlink(root + "/keep.jpg", root + "/in.jpg"), 0)
        for k in 0..<600 {
            _ = try tmp.write("lib/IMG_\(k).jpg", jpeg)
            named.insert("IMG_\(k).jpg")
        }
        let latin1 = Array(root.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8)
        let fd = open(latin1.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        named.insert(PathBytes.decode(Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)))

        var listed = before
        let touchedListing = listed.relist("", root: root, walker: walker)
        var looked = before
        let touchedLooking = looked.relist("", names: named, root: root, walker: walker)
        XCTAssertEqual(looked, listed)
        XCTAssertEqual(looked, FolderSnapshot.take(root, walker: walker))
        XCTAssertTrue(looked.files.keys.contains(PathBytes.decode(Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))))
        XCTAssertEqual(looked.files.count, 3 + 600 + 4)
        // Every path whose entry differs is touched; unchanged ones need not be.
        let differing = Set(before.files.keys).union(looked.files.keys).filter { before.files[$0] != looked.files[$0] }
        XCTAssertTrue(differing.isSubset(of: touchedLooking), "\(differing.subtracting(touchedLooking))")
        XCTAssertTrue(touchedLooking.isSubset(of: touchedListing))
        XCTAssertFalse(touchedLooking.contains("keep.jpg"))
    }

    /// Past `nameLimit` names a folder is listed whole: an entry no event named is found too.
    /// Under it only the named entries are looked at; an event on the folder itself lists it.
    func testTooManyNamesOrAnEventOnTheFolderListItWhole() throws {
        let tmp = try TemporaryDirectory(prefix: "pm-names")
        _ = try tmp.write("lib/sub/a.jpg", jpeg)
        let root = try FileSystem.canonicalFolder(tmp.path + "/lib")
        let before = FolderSnapshot.take(root, walker: walker)
        _ = try tmp.write("lib/sub/unnamed.jpg", jpeg)
        var few = ChangedPlaces()
        few.note("sub", name: "a.jpg")
        var snapshot = before
        _ = few.look(&snapshot, root: root, walker: walker)
        XCTAssertNil(snapshot.files["sub/unnamed.jpg"])
        var many = ChangedPlaces()
        for k in 0...ChangedPlaces.nameLimit { many.note("sub", name: "n\(k).jpg") }
        snapshot = before
        _ = many.look(&snapshot, root: root, walker: walker)
        XCTAssertNotNil(snapshot.files["sub/unnamed.jpg"])
        var itself = ChangedPlaces()
        itself.note("sub", name: "a.jpg")
        itself.note("sub", name: "")
        snapshot = before
        _ = itself.look(&snapshot, root: root, walker: walker)
        XCTAssertNotNil(snapshot.files["sub/unnamed.jpg"])
    }
}
