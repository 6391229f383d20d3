import Foundation
import XCTest

/// End-to-end: the names Linux desktops and messengers give, as issue 23 measured them: files
/// with no metadata whose modification time is two days after the name's date (a copy), and one
/// written in the same second as its name (the zone follows from the file time).
final class NameSchemeCommandTests: XCTestCase {
    static let names = Photometa.root.appendingPathComponent("Fixtures/names").path

    func testNamesGiveTheDateNotTheFileTime() throws {
        let dir = try TemporaryDirectory(prefix: "photometa-names")
        let twoDaysLater = Date(timeIntervalSince1970: 1_732_918_500 + 2 * 86_400)  // 2024-12-01T22:15:00Z
        let names = [
            "Screenshot From 2024-11-29 22-15-00.png", "Bildschirmfoto vom 2024-11-29 22-15-00.png",
            "Screenshot_2024-11-29_22-15-00.png", "2024-11-29_22-15.png", "photo_2024-11-29_22-15-00.jpg",
            "signal-2024-11-29-221500.jpg", "QQ图片20241129221500.jpg", "צילום מסך מ־2024-11-29 22-15-00.png",
        ]
        for name in names {
            let path = try dir.copy(Self.names + "/" + name)
            try FileManager.default.setAttributes([.modificationDate: twoDaysLater], ofItemAtPath: path)
        }
        let r = try Photometa.run(["inspect", "-r", "--jsonl", "--tz", "UTC", dir.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try r.stdout.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        XCTAssertEqual(rows.count, names.count)
        for row in rows {
            let name = (row["path"] as? String ?? "").split(separator: "/").last.map(String.init) ?? ""
            let captured = row["captured"] as? [String: Any] ?? [:]
            XCTAssertEqual(captured["source"] as? String, "filename", name)
            XCTAssertEqual(captured["local"] as? String, "2024-11-29T22:15:00", name)
            XCTAssertNil(captured["offset"] as? String, "\(name): a copy's time tells no zone")
            let screenshot = !name.hasPrefix("photo_") && !name.hasPrefix("signal-") && !name.hasPrefix("QQ")
            XCTAssertEqual(row["kind"] as? String, screenshot ? "screenshot" : "photo", name)
        }
    }

    /// Written in the second its name gives, in a zone one hour east of UTC: the file time
    /// lends the offset (docs/dates.md, "Offsets from file times").
    func testTheFileTimeOfAFreshScreenshotGivesItsZone() throws {
        let dir = try TemporaryDirectory(prefix: "photometa-names")
        let path = try dir.copy(Self.names + "/Screenshot From 2024-11-29 22-15-00.png")
        let written = Date(timeIntervalSince1970: 1_732_914_900)  // 2024-11-29T21:15:00Z
        try FileManager.default.setAttributes([.modificationDate: written], ofItemAtPath: path)
        let r = try Photometa.run(["inspect", "--json", "--tz", "UTC", path])
        let row = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])?.first)
        let captured = row["captured"] as? [String: Any] ?? [:]
        XCTAssertEqual(captured["offset"] as? String, "+01:00")
        XCTAssertEqual(captured["offsetSource"] as? String, "file.time")
        XCTAssertEqual(row["screenshotEvidence"] as? [String], ["filename:gnome.screenshot"])
    }
}
