import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// `suggest` end to end in the library: scenario folders with chosen names (capture dates from
/// file names, read in UTC) and file times, a fresh state and index per test.
final class SuggesterTests: XCTestCase {
    /// 2024-08-08T12:08:20Z
    let now = 1_723_118_900.0
    var state: TemporaryDirectory!

    override func setUpWithError() throws { state = try TemporaryDirectory() }

    func options(_ configure: (inout Suggester.Options) -> Void = { _ in }) -> Suggester.Options {
        var o = Suggester.Options(settings: SuggestionSettings(zone: utcZone))
        o.now = Date(timeIntervalSince1970: now)
        o.statePath = state.path + "/state.sqlite3"
        o.indexPath = state.path + "/index.sqlite3"
        configure(&o)
        return o
    }

    func run(_ folder: ScenarioFolder, _ configure: (inout Suggester.Options) -> Void = { _ in }) throws -> Suggester.Outcome {
        try Suggester(options: options(configure)).run(folder: folder.path)
    }

    func name(_ o: Suggester.Outcome) -> String? {
        o.decision.suggestion.map { String($0.path.split(separator: "/").last ?? "") }
    }

    func library() throws -> ScenarioFolder {
        let f = try ScenarioFolder()
        try f.add("IMG_20240808_120700.jpg", from: "mmexport1700000000000.jpg")  // 80 s old
        try f.add("IMG_20240808_120810.jpg", from: "mmexport1700000000000.jpg")  // 10 s old
        try f.add("Screenshot_20240808-120815.png", from: "Screenshot_20240101-120000.png")  // 5 s old
        try f.add("VID_20240808_120818.mp4", from: "clip.mp4")  // mvhd: 2023
        try f.add("notes.txt", from: "notes.txt")
        return f
    }

    func testOffersTheNewestStillAndNeverTheSameTwice() throws {
        let f = try library()
        let first = try run(f)
        XCTAssertEqual(name(first), "Screenshot_20240808-120815.png")
        XCTAssertEqual(first.decision.suggestion?.kind, .screenshot)
        XCTAssertEqual(first.age, .seconds(5))
        XCTAssertTrue(first.recorded)
        XCTAssertEqual(first.decision.considered, 5)
        let second = try run(f)
        XCTAssertNil(second.decision.suggestion, "offered once, never again")
        XCTAssertEqual(
            Set(second.decision.rejected.filter { $0.rule == .memory }.map { $0.path.split(separator: "/").last! }),
            ["IMG_20240808_120810.jpg", "Screenshot_20240808-120815.png"])
        // A newer photo replaces the offered one.
        try f.add("IMG_20240808_120819.jpg", from: "mmexport1700000000000.jpg")
        XCTAssertEqual(name(try run(f)), "IMG_20240808_120819.jpg")
    }

    func testScreenshotModes() throws {
        let f = try library()
        XCTAssertEqual(
            name(
                try run(f) {
                    $0.settings.screenshots = .exclude
                    $0.record = false
                }), "IMG_20240808_120810.jpg")
        XCTAssertEqual(
            name(
                try run(f) {
                    $0.settings.screenshots = .only
                    $0.record = false
                }), "Screenshot_20240808-120815.png")
    }

    func testPeekRecordsNothing() throws {
        let f = try library()
        XCTAssertFalse(try run(f) { $0.record = false }.recorded)
        XCTAssertNotNil(try run(f) { $0.record = false }.decision.suggestion)
        XCTAssertNil(try SuggestionMemory(path: state.path + "/state.sqlite3").remembered(profile: "default"))
    }

    func testWithinWindow() throws {
        let f = try library()
        XCTAssertNil(
            try run(f) {
                $0.settings.within = .seconds(4)
                $0.record = false
            }.decision.suggestion)
        XCTAssertEqual(
            name(
                try run(f) {
                    $0.settings.within = .seconds(120)
                    $0.settings.screenshots = .exclude
                    $0.record = false
                }),
            "IMG_20240808_120810.jpg")
    }

    func testAFileBeingWrittenWaitsUntilItSettles() throws {
        let f = try ScenarioFolder()
        let p = try f.add("IMG_20240808_120815.jpg", from: "mmexport1700000000000.jpg", modifiedAgo: 0)
        let held = try run(f) { $0.record = false }
        XCTAssertNil(held.decision.suggestion)
        XCTAssertEqual(held.decision.rejected.first?.rule, .completeness)
        try f.setModified(p, ago: 2)
        XCTAssertEqual(name(try run(f)), "IMG_20240808_120815.jpg", "evaluated again once settled, not lost")
    }

    /// `wait` on a clock the test moves: the file written "just now" settles after the settle
    /// time of clock time, so the run asks again (sleeping on the clock, not for real) and
    /// offers it; no real second passes.
    func testWaitAsksAgainOnTheClockUntilTheFileSettles() throws {
        let f = try ScenarioFolder()
        let p = try f.add("IMG_20240808_120815.jpg", from: "mmexport1700000000000.jpg", modifiedAgo: 0)
        let written = try FileFacts.of(p).key.modifiedSeconds
        let clock = FakeClock(written)
        let o = try run(f) {
            $0.clock = clock
            $0.wait = .seconds(5)
        }
        XCTAssertEqual(name(o), "IMG_20240808_120815.jpg")
        XCTAssertFalse(clock.slept.isEmpty, "it waited, on the clock")
        XCTAssertLessThanOrEqual(clock.now() - written, 5, "within --wait")
        XCTAssertGreaterThanOrEqual(clock.now() - written, 1, "not before the settle time")
        // Without --wait a clock a quarter second after the write says "ask again", with the
        // time left (a newer capture: the one above is remembered as offered).
        let g = try ScenarioFolder()
        let q = try g.add("IMG_20240808_120817.jpg", from: "mmexport1700000000000.jpg", modifiedAgo: 0)
        let later = FakeClock(try FileFacts.of(q).key.modifiedSeconds + 0.25)
        let held = try run(g) {
            $0.clock = later
            $0.record = false
        }
        XCTAssertEqual(held.decision.pending?.retryAfterMilliseconds, 750)
    }

    /// A browser's download in progress is never offered under its temporary name (it would
    /// never complete under it): skipped, with the reason; the finished file is offered.
    func testADownloadInProgressIsNotOffered() throws {
        let f = try ScenarioFolder()
        try f.add("IMG_20240808_120700.jpg", from: "mmexport1700000000000.jpg")
        let part = try f.add("IMG_20240808_120815.jpg.part", from: "mmexport1700000000000.jpg")
        try f.add("IMG_20240808_120816.jpg.crdownload", from: "mmexport1700000000000.jpg")
        let o = try run(f) {
            $0.record = false
            $0.settings.within = .seconds(300)
        }
        XCTAssertEqual(name(o), "IMG_20240808_120700.jpg")
        XCTAssertEqual(o.decision.considered, 1)
        XCTAssertEqual(
            Set(o.skipped.map { String($0.path.split(separator: "/").last ?? "") }),
            ["IMG_20240808_120815.jpg.part", "IMG_20240808_120816.jpg.crdownload"])
        XCTAssertTrue(o.skipped.allSatisfy { $0.reason.contains("temporary name") })
        XCTAssertEqual(rename(part, f.path + "/IMG_20240808_120815.jpg"), 0)
        XCTAssertEqual(name(try run(f) { $0.settings.within = .seconds(300) }), "IMG_20240808_120815.jpg")
    }

    /// A picture's name on a file still empty (Firefox's placeholder beside its `.part`, a
    /// camera app that names the file first) holds the photo before it back; left empty for
    /// 30 s, it does not.
    func testAPlaceholderHoldsTheOlderPhotoBack() throws {
        let f = try ScenarioFolder()
        try f.add("old.gif", from: "still.gif", modifiedAgo: 10)  // dated by its file time
        let placeholder = try f.dir.write("IMG_new.jpg", [])
        _ = try f.dir.write("IMG_new.jpg.part", [0xFF, 0xD8])
        let now: (inout Suggester.Options) -> Void = {
            $0.now = Date()
            $0.record = false
        }
        let o = try run(f, now)
        XCTAssertNil(o.decision.suggestion, "\(o.decision)")
        XCTAssertEqual(o.decision.pending?.path.hasSuffix("/IMG_new.jpg"), true, "\(o.decision)")
        try f.setModified(placeholder, ago: 40)
        XCTAssertEqual(name(try run(f, now)), "old.gif")
        // A screenshot tool's name on an empty file is a screenshot in the making: with
        // `--screenshots only` it holds the answer too.
        _ = try f.dir.write("Screenshot_20240808-120815.png", [])
        let only = try run(f) {
            now(&$0)
            $0.settings.screenshots = .only
        }
        XCTAssertEqual(only.decision.pending?.path.hasSuffix("/Screenshot_20240808-120815.png"), true, "\(only.decision)")
    }

    func testTruncatedFileIsHeldBack() throws {
        let f = try ScenarioFolder()
        let bytes = try TestPaths.bytes("IMG_20240315_093012.jpg")
        let p = try f.dir.write("IMG_20240808_120815.jpg", Array(bytes.prefix(600)))
        try f.setModified(p, ago: 60)
        let o = try run(f)
        XCTAssertNil(o.decision.suggestion)
        XCTAssertTrue(o.decision.rejected.contains { $0.rule == .completeness || $0.rule == .recency }, "\(o.decision.rejected)")
    }

    func testLivePhotoIsOfferedThroughItsStill() throws {
        let f = try ScenarioFolder()
        try f.add("IMG_0001.HEIC", from: "IMG_0001.HEIC")
        try f.add("IMG_0001.MOV", from: "IMG_0001.MOV")
        // IMG_0001 was captured at 2024-05-01T08:20:30Z.
        let o = try run(f) {
            $0.now = Date(timeIntervalSince1970: 1_714_551_640)
            $0.settings.includeVideos = true
        }
        XCTAssertEqual(name(o), "IMG_0001.HEIC")
        XCTAssertEqual(o.decision.suggestion?.kind, .livePhoto)
        XCTAssertEqual(o.decision.rejected.first?.rule, .media, "the movie is not offered on its own")
    }

    /// With `--videos`, a Live Photo's movie that lands before its still is offered alone;
    /// the still, when it lands (its EXIF time a fraction of a second after the movie's whole
    /// second), is the same moment and is not offered again.
    func testLivePhotoWhoseMovieWasOfferedFirstIsNotOfferedAgain() throws {
        let f = try ScenarioFolder()
        try f.add("IMG_0001.MOV", from: "IMG_0001.MOV")
        let configure: (inout Suggester.Options) -> Void = {
            $0.now = Date(timeIntervalSince1970: 1_714_551_640)
            $0.settings.includeVideos = true
        }
        XCTAssertEqual(name(try run(f, configure)), "IMG_0001.MOV")
        try f.add("IMG_0001.HEIC", from: "IMG_0001.HEIC")
        let o = try run(f, configure)
        XCTAssertNil(o.decision.suggestion, "\(o.decision)")
        let still = o.decision.rejected.first { $0.path.hasSuffix("IMG_0001.HEIC") }
        XCTAssertEqual(still?.rule, .memory)
        XCTAssertEqual(still?.kind, .livePhoto)
        XCTAssertTrue(still?.reason.contains("Live Photo movie") == true, "\(still?.reason ?? "")")
    }

    func testIndexGivesTheSameAnswersAsAColdRun() throws {
        let f = try library()
        let cold = try run(f) {
            $0.indexPath = nil
            $0.record = false
        }
        let first = try run(f) { $0.record = false }
        let warm = try run(f) { $0.record = false }
        XCTAssertEqual(cold.parsed, 5)
        XCTAssertEqual(first.parsed, 5)
        XCTAssertEqual(warm.parsed, 0, "nothing changed: nothing parsed")
        for o in [first, warm] {
            XCTAssertEqual(o.decision.suggestion, cold.decision.suggestion)
            XCTAssertEqual(o.decision.rejected, cold.decision.rejected)
            XCTAssertEqual(o.decision.outranked, cold.decision.outranked)
        }
        // A changed file is parsed again; a removed one leaves the index.
        try f.setModified(f.path + "/IMG_20240808_120700.jpg", ago: 100)
        try FileManager.default.removeItem(atPath: f.path + "/notes.txt")
        let changed = try run(f) { $0.record = false }
        XCTAssertEqual(changed.parsed, 1)
        XCTAssertEqual(changed.decision.considered, 4)
        // Deleting the index changes no answer.
        try FileManager.default.removeItem(atPath: state.path + "/index.sqlite3")
        let rebuilt = try run(f) { $0.record = false }
        XCTAssertEqual(rebuilt.decision.suggestion, changed.decision.suggestion)
        XCTAssertEqual(rebuilt.parsed, 4)
    }

    func testRowsOfVanishedFoldersLeaveTheIndex() throws {
        let f = try library()
        try f.add("2024/08/IMG_20240808_120811.jpg", from: "mmexport1700000000000.jpg")
        XCTAssertEqual(try run(f) { $0.record = false }.decision.considered, 6)
        let sub = try FileSystem.canonicalFolder(f.path) + "/2024/08"
        XCTAssertEqual(try AssetIndex(path: state.path + "/index.sqlite3").load(directory: sub).count, 1)
        try FileManager.default.removeItem(atPath: f.path + "/2024")
        let o = try run(f) { $0.record = false }
        XCTAssertEqual(o.decision.considered, 5)
        XCTAssertEqual(o.parsed, 0)
        XCTAssertEqual(try AssetIndex(path: state.path + "/index.sqlite3").load(directory: sub).count, 0)
    }

    /// A parse that yields more than it did (here: a date from a Realme name, which the index
    /// of the version before kept as the file's time) comes with a migration that drops the
    /// rows: an index written before is parsed again once, not trusted.
    func testAnIndexOfTheVersionBeforeIsParsedAgain() throws {
        let f = try library()
        try f.add("IMG20240808120819.jpg", from: "mmexport1700000000000.jpg")  // 1 s old
        let first = try run(f) { $0.record = false }
        XCTAssertEqual(name(first), "IMG20240808120819.jpg")
        // As the version before left it: the row dated by the file time, the schema at v8.
        let path = state.path + "/index.sqlite3"
        let db = try SQLiteDatabase(path: path)
        try db.execute(
            "UPDATE assets SET clock = 'instant', local_seconds = 0, source = 'file.mtime' WHERE path LIKE '%IMG2024%'")
        // A row is trusted while the file is unchanged: only the schema number tells them apart.
        let trusted = try run(f) { $0.record = false }
        XCTAssertEqual(trusted.parsed, 0)
        XCTAssertEqual(name(trusted), "Screenshot_20240808-120815.png", "the stale row dates it 1970")
        try db.setUserVersion(Int64(AssetIndex.migrations.count - 1))
        let again = try run(f) { $0.record = false }
        XCTAssertEqual(again.parsed, 6, "every file parsed once more")
        XCTAssertEqual(name(again), "IMG20240808120819.jpg")
    }

    func testACorruptIndexIsNotFatal() throws {
        let f = try library()
        try Data("garbage, not sqlite".utf8).write(to: URL(fileURLWithPath: state.path + "/index.sqlite3"))
        let o = try run(f) { $0.record = false }
        XCTAssertNotNil(o.decision.suggestion)
        XCTAssertTrue(o.notes.first?.contains("moved to \(state.path)/index.sqlite3.broken and rebuilt") == true, "\(o.notes)")
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: state.path + "/index.sqlite3.broken")), Data("garbage, not sqlite".utf8))
        let again = try run(f) { $0.record = false }
        XCTAssertEqual(again.parsed, 0, "the rebuilt index is used")
        XCTAssertEqual(again.notes, [])
    }

    func testHiddenFilesLinksOutOfTheFolderAndFIFOsAreSkipped() throws {
        let f = try library()
        let outside = try TemporaryDirectory()
        let target = try outside.write("IMG_20240808_120819.jpg", try TestPaths.bytes("mmexport1700000000000.jpg"))
        try FileManager.default.createSymbolicLink(atPath: f.path + "/IMG_20240808_120819.jpg", withDestinationPath: target)
        try f.add(".hidden/IMG_20240808_120819.jpg", from: "mmexport1700000000000.jpg")
        try f.add(".IMG_20240808_120819.jpg", from: "mmexport1700000000000.jpg")
        XCTAssertEqual(mkfifo(f.path + "/IMG_20240808_120819.png", 0o644), 0)
        try FileManager.default.createSymbolicLink(atPath: f.path + "/loop", withDestinationPath: f.path)
        let o = try run(f) { $0.record = false }
        XCTAssertEqual(name(o), "Screenshot_20240808-120815.png")
        XCTAssertEqual(o.decision.considered, 5)
        let reasons = Dictionary(uniqueKeysWithValues: o.skipped.map { ($0.path, $0.reason) })
        XCTAssertEqual(reasons[f.path + "/IMG_20240808_120819.jpg"], "symbolic link out of the folder")
        XCTAssertEqual(reasons[f.path + "/IMG_20240808_120819.png"], "not a regular file (a FIFO)")
        XCTAssertEqual(reasons[f.path + "/loop"], "symbolic link to a folder (not followed)")
    }

    func testALinkInsideTheFolderIsFollowed() throws {
        let f = try library()
        try FileManager.default.createSymbolicLink(
            atPath: f.path + "/IMG_20240808_120819.jpg",
            withDestinationPath: f.path + "/IMG_20240808_120810.jpg")
        let o = try run(f) {
            $0.record = false
            $0.settings.screenshots = .exclude
        }
        XCTAssertEqual(o.decision.considered, 6)
    }

    func testUnreadableFolder() throws {
        let missing = state.path + "/no-such-folder"
        XCTAssertThrowsError(try Suggester(options: options()).run(folder: missing)) { error in
            guard case SuggestError.unreadableFolder(_, let u) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(u, .noSuchFile)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: state.path + "/state.sqlite3"), "no state written")
    }

    func realFolder(_ f: ScenarioFolder) throws -> String {
        try FileSystem.canonicalFolder(f.path)
    }
}
