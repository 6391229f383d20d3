import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// A change to a sidecar is a change of its picture in `suggest`'s index (and so in the live
/// library, which lists a folder through the same scan): the picture is read again.
final class SidecarIndexTests: XCTestCase {
    var state: TemporaryDirectory!

    override func setUpWithError() throws { state = try TemporaryDirectory() }

    func run(_ folder: ScenarioFolder) throws -> Suggester.Outcome {
        var o = Suggester.Options(settings: SuggestionSettings(zone: utcZone))
        o.now = Date(timeIntervalSince1970: 1_723_118_900)
        o.statePath = state.path + "/state.sqlite3"
        o.indexPath = state.path + "/index.sqlite3"
        o.record = false
        return try Suggester(options: o).run(folder: folder.path)
    }

    func indexed(_ folder: ScenarioFolder, _ name: String) throws -> CaptureDate? {
        let dir = try FileSystem.canonicalFolder(folder.path)
        let rows = try AssetIndex(path: state.path + "/index.sqlite3").load(directory: dir)
        return rows.last { $0.path == dir + "/" + name }?.candidate.captured
    }

    func takeout(_ seconds: Int) -> [UInt8] {
        Array(#"{"title":"holiday.png","photoTakenTime":{"timestamp":"\#(seconds)"}}"#.utf8)
    }

    func testWritingChangingAndRemovingASidecarReadsThePictureAgain() throws {
        let f = try ScenarioFolder()
        try f.add("holiday.png", from: "Screenshot_20240101-120000.png")
        try f.add("other.png", from: "Screenshot_20240101-120000.png")
        XCTAssertEqual(try run(f).parsed, 2)
        XCTAssertEqual(try indexed(f, "holiday.png")?.source, .fileModificationTime)
        XCTAssertEqual(try run(f).parsed, 0, "nothing changed")

        let json = try f.dir.write("holiday.png.json", takeout(1_690_000_000))
        let written = try run(f)
        XCTAssertEqual(written.parsed, 2, "the picture and the new JSON (not media) are read")
        let jsonRejection = written.decision.rejected.first { $0.path.hasSuffix("holiday.png.json") }
        XCTAssertEqual(jsonRejection?.rule, .media, "a sidecar is never offered: \(written.decision.rejected)")
        XCTAssertEqual(try indexed(f, "holiday.png")?.source, .sidecarTakeout)
        XCTAssertEqual(try indexed(f, "holiday.png")?.sidecar?.hasSuffix("/holiday.png.json"), true)
        XCTAssertEqual(try run(f).parsed, 0)

        try Data(takeout(1_700_000_000)).write(to: URL(fileURLWithPath: json))
        XCTAssertEqual(try run(f).parsed, 2, "the changed JSON and its picture")
        XCTAssertEqual(
            try indexed(f, "holiday.png")?.clock, .instant(utc: LocalDateTime(secondsAsIfUTC: 1_700_000_000)!))

        try FileManager.default.removeItem(atPath: json)
        XCTAssertEqual(try run(f).parsed, 1, "the picture, its sidecar gone")
        XCTAssertEqual(try indexed(f, "holiday.png")?.source, .fileModificationTime)
    }
}
