import Foundation
import PhotoMeta
import XCTest

/// The CLI's `--json` and the library's `Codable` types describe the same values: the binary's
/// output decodes with `JSONDecoder` into `MediaAsset`, and equals what the library returns for
/// the same files.
final class CodableReportTests: XCTestCase {
    /// A value as it reads back from the report's shape (GPS rounded to 7 decimals, the zone
    /// applied for display dropped).
    func throughJSON(_ asset: MediaAsset, zone: TimeZone) throws -> MediaAsset {
        let encoder = JSONEncoder()
        encoder.userInfo[.photoMetaZone] = zone
        return try JSONDecoder().decode(MediaAsset.self, from: encoder.encode(asset))
    }

    func testInspectJSONDecodesIntoTheLibrarysValues() throws {
        let library = Photometa.root.appendingPathComponent("Fixtures/library").path
        for zone in ["UTC", "Asia/Shanghai"] {
            let r = try Photometa.run(["inspect", "-r", "--json", "--tz", zone, library])
            XCTAssertEqual(r.status, 0, r.stderr)
            let decoded = try JSONDecoder().decode([MediaAsset].self, from: Data(r.stdout.utf8))
            XCTAssertEqual(decoded.count, 21)
            let tz = try XCTUnwrap(TimeZone(identifier: zone == "UTC" ? "Etc/UTC" : zone))
            for d in decoded {
                let mine = FileInspector.inspect(path: d.path)
                XCTAssertEqual(d, try throughJSON(mine, zone: tz), d.path)
                // The fields that are not rounded compare with the library's value directly.
                XCTAssertEqual(d.kind, mine.kind, d.path)
                XCTAssertEqual(d.format, mine.format, d.path)
                XCTAssertEqual(d.captured, mine.captured, d.path)
                XCTAssertEqual(d.captured?.epochSeconds(assuming: tz), mine.captured?.epochSeconds(assuming: tz), d.path)
                XCTAssertEqual(d.error, mine.error, d.path)
                XCTAssertEqual(d.diagnostics, mine.diagnostics, d.path)
            }
        }
    }

    func testAnErrorDecodesToItsType() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("photometa-no-such-\(UUID().uuidString).jpg")
            .path
        let r = try Photometa.run(["inspect", "--json", missing])
        XCTAssertEqual(r.status, 1)
        let decoded = try JSONDecoder().decode([MediaAsset].self, from: Data(r.stdout.utf8))
        XCTAssertEqual(decoded.first?.error, .system(.noSuchFile))
        XCTAssertEqual(decoded.first?.error, FileInspector.inspect(path: missing).error)
    }
}
