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
        lib.rescan(.everyFile)
        XCTAssertTrue(lib.hasChanges)
        lib.refresh(entering: nil)
        XCTAssertFalse(lib.hasChanges)
        XCTAssertEqual(listing(lib, root), walk(root), "exact again after the rescan")
        XCTAssertEqual(listing(lib, root).count, 4)
    }

    /// A rescan on a network file system looks at folders first (`RescanSchedule.Look
    /// .changedFolders`): the folders whose times changed are listed again, and those whose
    /// files changed stay listed at the next look; a file rewritten in place (its folder's
    /// times unchanged) in a quiet folder waits for the look at every file. The changes are made
    /// without telling the library, as another computer's are.
    func testALookAtFoldersListsTheFoldersThatChanged() throws {
        let dir = try TemporaryDirectory(prefix: "pm-live-folders")
        let root = try FileSystem.canonicalFolder(dir.path)
        let photo = try TestPaths.bytes("mmexport1700000000000.jpg")
        let other = try TestPaths.bytes("IMG_20240315_093012.jpg")
        XCTAssertNotEqual(photo.count, other.count)
        for name in ["IMG_20240808_120801.jpg", "a/IMG_20240808_120802.jpg", "b/IMG_20240808_120803.jpg"] {
            try dir.write(name, photo)
        }
        let old = Date(timeIntervalSinceNow: -86_400)
        func rewriteInPlace(_ name: String) throws {
            // Same name, new content, the old time: neither the folder's times nor the file's
            // modification time say so.
            let h = try XCTUnwrap(FileHandle(forWritingAtPath: root + "/" + name))
            h.truncateFile(atOffset: 0)
            h.write(Data(other))
            h.closeFile()
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: root + "/" + name)
        }
        let lib = LiveLibrary(roots: [root], exclude: [], indexPath: nil)
        lib.populate(entering: nil)
        // The first look knows no folder's times: it lists every folder.
        lib.rescan(.changedFolders)
        lib.refresh(entering: nil)
        XCTAssertEqual(listing(lib, root), walk(root))
        // A new file in a: its folder's times changed. A rewrite in b: they did not.
        try dir.write("a/IMG_20240808_120804.jpg", photo)
        try rewriteInPlace("b/IMG_20240808_120803.jpg")
        lib.rescan(.changedFolders)
        lib.refresh(entering: nil)
        let listed = listing(lib, root)
        XCTAssertTrue(listed.contains(root + "/a/IMG_20240808_120804.jpg photo \(photo.count)"), "\(listed)")
        XCTAssertTrue(listed.contains(root + "/b/IMG_20240808_120803.jpg photo \(photo.count)"), "not seen yet: \(listed)")
        // a changed at that look, so the next lists it again: a file still being written there
        // (rewritten, its folder's times as they were) is seen.
        try rewriteInPlace("a/IMG_20240808_120804.jpg")
        lib.rescan(.changedFolders)
        lib.refresh(entering: nil)
        XCTAssertTrue(listing(lib, root).contains(root + "/a/IMG_20240808_120804.jpg photo \(other.count)"))
        // A new folder is a change of its parent's; a folder gone is found by its own look.
        try dir.write("c/IMG_20240808_120805.jpg", photo)
        try FileManager.default.removeItem(atPath: root + "/a")
        lib.rescan(.changedFolders)
        lib.refresh(entering: nil)
        XCTAssertNotEqual(listing(lib, root), walk(root), "b's rewrite is still unseen")
        XCTAssertTrue(listing(lib, root).contains(root + "/c/IMG_20240808_120805.jpg photo \(photo.count)"))
        XCTAssertFalse(listing(lib, root).contains { $0.hasPrefix(root + "/a/") })
        // The look at every file sees everything.
        lib.rescan(.everyFile)
        lib.refresh(entering: nil)
        XCTAssertEqual(listing(lib, root), walk(root))
        XCTAssertTrue(listing(lib, root).contains(root + "/b/IMG_20240808_120803.jpg photo \(other.count)"))
    }
}
