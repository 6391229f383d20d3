import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore

/// Every JSON shape the CLI prints comes from Core's report code, and its `Codable` matches it
/// exactly: what the binary prints decodes into the report value, and that value encodes (with
/// `JSONEncoder`) to the same JSON object, key for key. One test per shape.
final class ReportShapeTests: XCTestCase {
    var scratch: TemporaryDirectory!
    var folder: String { scratch.path + "/photos" }
    var state: String { scratch.path + "/state.sqlite3" }

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "pm-shape")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, fixture) in [
            ("IMG_20240808_120810.jpg", "mmexport1700000000000.jpg"), ("IMG_20240808_120700.jpg", "mmexport1700000000000.jpg"),
            ("IMG_0001.HEIC", "IMG_0001.HEIC"), ("IMG_0001.MOV", "IMG_0001.MOV"), ("notes.txt", "notes.txt"),
        ] {
            try FileManager.default.copyItem(atPath: TestPaths.fixture(fixture), toPath: folder + "/" + name)
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: folder + "/" + name)
        }
        // A link out of the folder: skipped, with the reason.
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/outside.jpg", withDestinationPath: TestPaths.fixture("DSC_0001.JPG"))
    }

    /// `line` decodes into `T`, and `T` encodes back to the same JSON object.
    @discardableResult
    func assertRoundTrip<T: Codable & Equatable>(
        _ type: T.Type, _ line: String, zone: TimeZone = utc, file: StaticString = #filePath, line at: UInt = #line
    ) throws -> T {
        let value = try JSONDecoder().decode(T.self, from: Data(line.utf8))
        let encoder = JSONEncoder()
        encoder.userInfo[.photoMetaZone] = zone
        let again = try encoder.encode(value)
        let printed = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary
        let encoded = try JSONSerialization.jsonObject(with: again) as? NSDictionary
        XCTAssertEqual(printed, encoded, "Codable writes what the CLI prints", file: file, line: at)
        XCTAssertEqual(try JSONDecoder().decode(T.self, from: again), value, "and reads it back", file: file, line: at)
        return value
    }

    /// The zone `--tz UTC` names.
    static let utc = TimeZone(identifier: "Etc/UTC") ?? .current
    var utc: TimeZone { Self.utc }

    func testSuggestWithExplain() throws {
        let r = try Photometa.run([
            "suggest", folder, "--json", "--explain", "--now", "2024-08-08T12:08:20Z", "--tz", "UTC", "--state", state,
            "--no-index", "--videos", "--within", "2m",
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        let report = try assertRoundTrip(SuggestReport.self, r.stdout)
        XCTAssertEqual(report.suggestion?.path, folder + "/IMG_20240808_120810.jpg")
        XCTAssertEqual(report.recorded, true)
        XCTAssertEqual(report.rejected?.contains { $0.rule == .choice && $0.path.hasSuffix("120700.jpg") }, true)
        XCTAssertEqual(report.skipped?.map(\.path), [folder + "/outside.jpg"], "a link out of the folder")
    }

    func testSuggestWithoutExplainAndNothingToOffer() throws {
        let r = try Photometa.run([
            "suggest", folder, "--json", "--now", "2030-01-01T00:00:00Z", "--tz", "UTC", "--state", state, "--no-index",
        ])
        XCTAssertEqual(r.status, 3, r.stderr)
        let report = try assertRoundTrip(SuggestReport.self, r.stdout)
        XCTAssertNil(report.suggestion)
        XCTAssertNil(report.rejected, "no explanation asked: no key")
        XCTAssertFalse(r.stdout.contains("rejected"))
    }

    /// A photo written a moment ago: `pending`, with `retryAfterMs`, and the public
    /// `SuggestionDecision.Pending` reads the same object.
    func testSuggestPending() throws {
        let fresh = folder + "/IMG_20240808_120819.jpg"
        try FileManager.default.copyItem(atPath: TestPaths.fixture("mmexport1700000000000.jpg"), toPath: fresh)
        let r = try Photometa.run([
            "suggest", folder, "--json", "--now", "2024-08-08T12:08:20Z", "--tz", "UTC", "--state", state, "--no-index",
        ])
        XCTAssertEqual(r.status, 4, r.stderr)
        let report = try assertRoundTrip(SuggestReport.self, r.stdout)
        let pending = try XCTUnwrap(report.pending)
        XCTAssertEqual(pending.path, fresh)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let raw = try JSONSerialization.data(withJSONObject: try XCTUnwrap(object["pending"]))
        XCTAssertEqual(try JSONDecoder().decode(SuggestionDecision.Pending.self, from: raw), pending)
        XCTAssertTrue(String(decoding: try JSONEncoder().encode(pending), as: UTF8.self).contains("retryAfterMs"))
    }

    /// Names that are not UTF-8 (a Latin-1 `\xE9`): `pending`, `rejected` and `skipped` carry
    /// each one's exact bytes in `pathBytes`, as the offer does, and decode back to the name.
    func testSuggestPendingAndRejectedNamesThatAreNotUTF8() throws {
        let fresh = folder + "/" + PathBytes.decode(Array("IMG_20240808_120819_caf".utf8) + [0xE9, 0x2E, 0x6A, 0x70, 0x67])
        let older = folder + "/" + PathBytes.decode(Array("IMG_20240808_120600_".utf8) + [0xFF, 0x2E, 0x6A, 0x70, 0x67])
        for path in [fresh, older] {
            let fd = open(PathBytes.encode(path).map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_EXCL, 0o644)
            XCTAssertGreaterThanOrEqual(fd, 0)
            let data = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("mmexport1700000000000.jpg")))
            _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        let r = try Photometa.run([
            "suggest", folder, "--json", "--explain", "--now", "2024-08-08T12:08:20Z", "--tz", "UTC", "--state", state,
            "--no-index", "--within", "10m",
        ])
        XCTAssertEqual(r.status, 4, r.stderr)
        XCTAssertTrue(r.stdout.contains(#""pathBytes""#), r.stdout)
        let report = try assertRoundTrip(SuggestReport.self, r.stdout)
        XCTAssertEqual(report.pending?.path, fresh, "the exact name, from pathBytes")
        XCTAssertEqual(report.rejected?.contains { $0.path == older }, true, r.stdout)
    }

    /// The watch events: ready, changes (inspect's rows inside), suggestion (the same offer
    /// shape as suggest's, Live Photo fields included), each a line that round-trips.
    func testWatchEvents() throws {
        let w = try RunningPhotometa(["watch", folder, "--jsonl", "--tz", "UTC", "--state", state])
        XCTAssertTrue(w.wait { w.stdout.contains(#""event":"ready""#) }, w.stdout + w.stderr)
        let f = DateFormatter()
        f.timeZone = utc
        f.dateFormat = "yyyyMMdd_HHmmss"
        let name = "IMG_\(f.string(from: Date())).jpg"
        try FileManager.default.copyItem(atPath: TestPaths.fixture("mmexport1700000000000.jpg"), toPath: folder + "/" + name)
        XCTAssertTrue(w.wait { w.stdout.contains(#""event":"suggestion""#) }, w.stdout + w.stderr)
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
        let events = try w.stdout.split(separator: "\n").map { try assertRoundTrip(WatchEventReport.self, String($0)) }
        XCTAssertEqual(events.map(\.name), ["ready", "changes", "suggestion"])
        guard case .suggestion(let offer) = events[2] else { return XCTFail("\(events)") }
        XCTAssertEqual(offer.path, folder + "/" + name)
        XCTAssertTrue(w.stdout.contains(#""livePhotoPair":null"#), "the offer's shape is suggest's")
    }

    func testWatchErrorEventShape() throws {
        let event = WatchEventReport.error(message: "no suggestion: the memory could not be read")
        try assertRoundTrip(WatchEventReport.self, event.json(report: AssetReport(zone: utc)))
    }

    /// An offer of a file whose name is not UTF-8 carries its exact bytes (`pathBytes`), and
    /// reads back to the same path: a client opens the file offered, not a U+FFFD look-alike.
    func testOfferOfANameThatIsNotUTF8() throws {
        // "/p/IMG\xFF\nx.jpg"
        let raw = PathBytes.decode([0x2F, 0x70, 0x2F, 0x49, 0x4D, 0x47, 0xFF, 0x0A, 0x78, 0x2E, 0x6A, 0x70, 0x67])
        let c = SuggestionCandidate(path: raw, format: .jpeg, kind: .photo, captured: nil, modified: 0, size: 1)
        let offer = OfferReport(c, zone: utc, ageSeconds: 1)
        let line = WatchEventReport.suggestion(offer).json(report: AssetReport(zone: utc))
        XCTAssertTrue(line.contains(#""pathBytes":"\#(PathBytes.base64(raw))""#), line)
        XCTAssertEqual(try assertRoundTrip(WatchEventReport.self, line), WatchEventReport.suggestion(offer))
        let decoded = try JSONDecoder().decode(OfferReport.self, from: Data(try JSONEncoder().encode(offer)))
        XCTAssertEqual(decoded.path, raw)
    }

    /// An offer with a thumbnail outcome (made, and failed) round-trips too.
    func testOfferWithThumbnail() throws {
        let c = SuggestionCandidate(
            path: "/p/IMG_1.jpg", format: .jpeg, kind: .photo, captured: nil, modified: 0, size: 1)
        for t in [
            ThumbnailOutcome(
                made: ThumbnailReport(path: "/c/x.png", width: 256, height: 192, source: "cache", format: "png"), error: nil),
            ThumbnailOutcome(made: nil, error: "not a picture"),
        ] {
            let line = WatchEventReport.suggestion(OfferReport(c, zone: utc, ageSeconds: 1.23456, thumbnail: t)).json(
                report: AssetReport(zone: utc))
            let back = try assertRoundTrip(WatchEventReport.self, line)
            XCTAssertEqual(back, WatchEventReport.suggestion(OfferReport(c, zone: utc, ageSeconds: 1.235, thumbnail: t)))
            let later = WatchEventReport.thumbnail(path: c.path, t)
            XCTAssertEqual(try assertRoundTrip(WatchEventReport.self, later.json(report: AssetReport(zone: utc))), later)
        }
    }

    /// Every withdrawal reason, and a rename in a changes event, round-trip.
    func testWithdrawnAndMovedShapes() throws {
        for reason in OfferWithdrawal.Reason.allCases {
            let e = WatchEventReport.withdrawn(
                OfferWithdrawal(path: "/p/a.jpg", reason: reason, to: reason == .moved ? "/p/b.jpg" : nil))
            XCTAssertEqual(try assertRoundTrip(WatchEventReport.self, e.json(report: AssetReport(zone: utc))), e)
        }
        let moved = WatchEventReport.changes(
            inserted: [], removed: [], changed: [], moved: [.init(from: "/p/a.jpg", to: "/p/b.jpg")])
        XCTAssertEqual(try assertRoundTrip(WatchEventReport.self, moved.json(report: AssetReport(zone: utc))), moved)
    }

    /// Names that are not UTF-8 come back exact from every path key's `...Bytes` beside it, and
    /// text shows them escaped.
    func testRawNamesInWithdrawnAndMoved() throws {
        let a = PathBytes.decode(Array("/p/caf".utf8) + [0xE9] + Array(".jpg".utf8))
        let b = PathBytes.decode(Array("/p/b".utf8) + [0xFF] + Array(".jpg".utf8))
        let report = AssetReport(zone: utc)
        let withdrawn = WatchEventReport.withdrawn(OfferWithdrawal(path: a, reason: .moved, to: b))
        let line = withdrawn.json(report: report)
        XCTAssertTrue(line.contains(#""pathBytes":"L3AvY2Fm6S5qcGc=""#), line)
        XCTAssertTrue(line.contains(#""toBytes":"L3AvYv8uanBn""#), line)
        XCTAssertEqual(try assertRoundTrip(WatchEventReport.self, line), withdrawn)
        XCTAssertEqual(withdrawn.text(), "Withdrawn (moved): /p/caf\\xe9.jpg -> /p/b\\xff.jpg\n")
        let changes = WatchEventReport.changes(
            inserted: [], removed: ["/p/plain.jpg", b], changed: [], moved: [.init(from: a, to: "/p/c.jpg")])
        let changed = changes.json(report: report)
        XCTAssertTrue(changed.contains(#""removedBytes":[null,"L3AvYv8uanBn"]"#), changed)
        XCTAssertTrue(changed.contains(#""fromBytes":"L3AvY2Fm6S5qcGc=""#), changed)
        XCTAssertFalse(changed.contains("toBytes"), "only for a name that is not UTF-8: \(changed)")
        XCTAssertEqual(try assertRoundTrip(WatchEventReport.self, changed), changes)
        XCTAssertTrue(changes.text()?.contains("> /p/caf\\xe9.jpg -> /p/c.jpg\n") == true, changes.text() ?? "")
        let ready = WatchEventReport.ready(folders: ["/p", a])
        let readyLine = ready.json(report: report)
        XCTAssertTrue(readyLine.contains(#""foldersBytes":[null,"L3AvY2Fm6S5qcGc="]"#), readyLine)
        XCTAssertEqual(try assertRoundTrip(WatchEventReport.self, readyLine), ready)
        XCTAssertFalse(WatchEventReport.ready(folders: ["/p"]).json(report: report).contains("foldersBytes"))
        let thumbnail = WatchEventReport.thumbnail(path: a, ThumbnailOutcome(made: nil, error: "not a picture"))
        XCTAssertEqual(try assertRoundTrip(WatchEventReport.self, thumbnail.json(report: report)), thumbnail)
    }
}
