import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore

/// `PhotoLibrary`: recent (the rows of `inspect`, newest first), the suggestion without
/// recording, and the change sets.
final class PhotoLibraryTests: XCTestCase {
    var state: TemporaryDirectory!

    override func setUpWithError() throws { state = try TemporaryDirectory() }

    func options() -> PhotoLibrary.Options {
        var o = PhotoLibrary.Options(zone: utcZone)
        o.statePath = state.path + "/state.sqlite3"
        o.indexPath = state.path + "/index.sqlite3"
        // 2024-08-08T12:08:20Z, as in SuggesterTests.
        o.clock = FakeClock(1_723_118_900)
        o.settings.within = .seconds(120)
        return o
    }

    func testRecentIsTheInspectRowsNewestFirst() throws {
        let f = try ScenarioFolder()
        try f.add("IMG_20240808_120700.jpg", from: "mmexport1700000000000.jpg")
        try f.add("sub/IMG_20240808_120810.jpg", from: "mmexport1700000000000.jpg")
        try f.add("Screenshot_20240808-120815.png", from: "Screenshot_20240101-120000.png")
        try f.add("VID_20240808_120818.mp4", from: "clip.mp4")
        let library = try PhotoLibrary(folders: [f.path, f.path + "/sub"], options: options())
        let recent = try library.recent(limit: 2)
        XCTAssertEqual(
            recent.assets.map(\.path), [f.path + "/Screenshot_20240808-120815.png", f.path + "/sub/IMG_20240808_120810.jpg"])
        XCTAssertEqual(recent.assets, recent.assets.map { FileInspector.inspect(path: $0.path) })
        XCTAssertEqual(try library.recent(kinds: [.video]).assets.map(\.kind), [.video])
        XCTAssertEqual(try library.recent().assets.count, 3, "a folder inside another is listed once")
    }

    func testSuggestionRecordsNothing() throws {
        let f = try ScenarioFolder()
        try f.add("IMG_20240808_120810.jpg", from: "mmexport1700000000000.jpg")
        let library = try PhotoLibrary(folders: [f.path], options: options())
        for _ in 0..<2 {
            let outcome = try library.suggestion()
            XCTAssertEqual(outcome.decision.suggestion?.path, f.path + "/IMG_20240808_120810.jpg")
            XCTAssertFalse(outcome.recorded)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: state.path + "/state.sqlite3"))
    }

    func testChangesReportWhatHappensAfterTheCall() async throws {
        let f = try ScenarioFolder()
        let library = try PhotoLibrary(folders: [f.path], options: PhotoLibrary.Options(zone: utcZone))
        let changes = try await library.changes()
        let target = f.path + "/new.jpg"
        try Data(try TestPaths.bytes("mmexport1700000000000.jpg")).write(to: URL(fileURLWithPath: target))
        for await set in changes {
            XCTAssertEqual(set.inserted.map(\.path), [target])
            XCTAssertEqual(set.inserted.first?.asset.format, .jpeg)
            break
        }
    }

    func testAnUnreadableFolderIsRefused() {
        XCTAssertThrowsError(try PhotoLibrary(folders: ["/no/such/folder"], options: options())) { error in
            guard case .unreadableFolder = error as? SuggestError else { return XCTFail("\(error)") }
        }
    }
}
