import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaSystem

/// The live library's overflow path (issue 20): when the kernel's event queue overflowed, every
/// change it lost is found by looking at everything again, and the library equals a fresh walk.
/// The kernel's queue cannot be overflowed on purpose without changing a system-wide setting,
/// so the lost events are simulated: the changes are made without telling the library.
final class LiveLibraryTests: XCTestCase {
    func listing(_ lib: LiveLibrary, _ root: String) -> [String] {
        let request = ServiceRequest(
            recent: [.init(path: root, display: root)], exclude: [], limit: 1000, kinds: Set(MediaKind.allCases),
            zone: TimeZone(identifier: "UTC") ?? .current)
        return (lib.recent(request, exclude: []) ?? []).map { "\($0.path) \($0.kind) \($0.size)" }.sorted()
    }

    func walk(_ root: String) -> [String] {
        var all: [SuggestionCandidate] = []
        _ = FolderScan(exclude: [], indexPath: nil).run([FolderScan.Root(path: root, display: root)]) { _, list in all += list }
        return all.filter { $0.captured != nil && !$0.isLivePhotoMovie }.map { "\($0.path) \($0.kind) \($0.size)" }.sorted()
    }

    func testAnOverflowLooksAtEverythingAgain() throws {
        let dir = try TemporaryDirectory(prefix: "pm-live")
        let root = try FileSystem.canonicalFolder(dir.path)
        for name in ["IMG_20240808_120801.jpg", "a/IMG_20240808_120802.jpg", "a/b/IMG_20240808_120803.jpg"] {
            try dir.write(name, try TestPaths.bytes("mmexport1700000000000.jpg"))
        }
        let lib = LiveLibrary(roots: [root], exclude: [], indexPath: nil)
        lib.populate(entering: nil)
        XCTAssertEqual(listing(lib, root), walk(root))
        XCTAssertEqual(listing(lib, root).count, 3)
        // What inotify would have said, lost: a new file, a deletion, a rewrite, a new folder.
        try dir.write("IMG_20240808_120804.jpg", try TestPaths.bytes("mmexport1700000000000.jpg"))
        try FileManager.default.removeItem(atPath: root + "/a/IMG_20240808_120802.jpg")
        try dir.write("a/b/IMG_20240808_120803.jpg", try TestPaths.bytes("IMG_20240315_093012.jpg"))
        try dir.write("c/IMG_20240808_120805.jpg", try TestPaths.bytes("mmexport1700000000000.jpg"))
        XCTAssertFalse(lib.hasChanges)
        XCTAssertNotEqual(listing(lib, root), walk(root), "the library cannot know without events")
        lib.changedEverywhere()
        XCTAssertTrue(lib.hasChanges)
        lib.refresh(entering: nil)
        XCTAssertFalse(lib.hasChanges)
        XCTAssertEqual(listing(lib, root), walk(root), "exact again after the rescan")
        XCTAssertEqual(listing(lib, root).count, 4)
    }
}
