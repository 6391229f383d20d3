import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// The JSON report of every fixture (`Fixtures/library`, `Fixtures/formats`, `Fixtures/pairing`, and
/// the pictures of `Fixtures/sidecars`, dated by the sidecars beside them, and `Fixtures/names`,
/// one per file-name scheme), compared with
/// `Tests/Golden/inspect-library.jsonl`.
/// Re-record after an intended change with `PHOTOMETA_RECORD_GOLDEN=1 swift test --filter GoldenTests`
/// and review the diff.
final class GoldenTests: XCTestCase {
    static let golden = TestPaths.root.appendingPathComponent("Tests/Golden/inspect-library.jsonl")

    /// Fixture files, sorted, relative to the package root.
    static func fixtureFiles() throws -> [String] {
        var files: [String] = []
        for folder in ["library", "formats", "pairing", "sidecars", "names"] {
            let base = TestPaths.fixtures.appendingPathComponent(folder).path
            guard let e = FileManager.default.enumerator(atPath: base) else { continue }
            while let rel = e.nextObject() as? String {
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: base + "/" + rel, isDirectory: &isDir), !isDir.boolValue,
                    !SidecarNames.isSidecar(rel)
                {
                    files.append("Fixtures/\(folder)/" + rel)
                }
            }
        }
        return files.sorted()
    }

    /// File times differ on every checkout (git does not keep them), so a date that comes from
    /// them is replaced by a fixed instant; its source is still checked to be a file time.
    static func normalise(_ asset: MediaAsset) -> MediaAsset {
        var a = asset
        if let c = a.captured, c.source == .fileBirthTime || c.source == .fileModificationTime {
            a.captured = CaptureDate(
                .instant(utc: LocalDateTime(year: 2001, month: 2, day: 3, hour: 4, minute: 5, second: 6)!),
                source: .fileModificationTime)
        }
        let root = TestPaths.root.path + "/"
        a.path = String(a.path.dropFirst(root.count))
        a.livePhotoPair = a.livePhotoPair.map { String($0.dropFirst(root.count)) }
        let sidecar = a.captured?.sidecar.map { String($0.dropFirst(root.count)) }
        a.captured?.sidecar = sidecar
        // Sidecar paths in diagnostics are absolute too.
        a.diagnostics = a.diagnostics.map { Diagnostic($0.domain, $0.message.replacingOccurrences(of: root, with: "")) }
        return a
    }

    func testLibraryMatchesGolden() throws {
        let report = AssetReport(zone: utcZone)
        var lines: [String] = []
        for rel in try Self.fixtureFiles() {
            let asset = FileInspector.inspect(path: TestPaths.root.path + "/" + rel)
            lines.append(report.json(Self.normalise(asset)))
        }
        let actual = lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["PHOTOMETA_RECORD_GOLDEN"] != nil {
            try actual.write(to: Self.golden, atomically: true, encoding: .utf8)
            print("recorded \(Self.golden.path)")
            return
        }
        let expected = try String(contentsOf: Self.golden, encoding: .utf8)
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(e.count, a.count, "number of fixtures changed")
        for (x, y) in zip(e, a) where x != y {
            XCTFail("golden mismatch:\nexpected \(x)\n  actual \(y)")
        }
    }

    func testEveryGoldenLineIsValidJSON() throws {
        let text = try String(contentsOf: Self.golden, encoding: .utf8)
        for line in text.split(separator: "\n") {
            let obj = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            XCTAssertNotNil(obj?["path"])
            XCTAssertNotNil(obj?["kind"])
        }
    }
}
