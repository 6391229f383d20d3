import Foundation
import PhotoMeta
import XCTest

/// End-to-end: `photometa inspect` on pictures beside their sidecars (Fixtures/sidecars, made by
/// Fixtures/make_sidecar_fixtures.py), `--no-sidecars`, sidecars as files (never media), and
/// sidecars that must not be read: a link out of the folder, a FIFO, a huge file.
final class SidecarCommandTests: XCTestCase {
    static let fixtures = Photometa.root.appendingPathComponent("Fixtures/sidecars").path

    /// The JSON lines of `inspect --jsonl --tz UTC ARGS`, by file name.
    func inspect(_ args: [String]) throws -> (byName: [String: [String: Any]], stderr: String, status: Int32) {
        let r = try Photometa.run(["inspect", "--jsonl", "--tz", "UTC"] + args)
        var byName: [String: [String: Any]] = [:]
        for line in r.stdout.split(separator: "\n") {
            let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let path = try XCTUnwrap(o["path"] as? String)
            byName[String(path.split(separator: "/").last ?? "")] = o
        }
        return (byName, r.stderr, r.status)
    }

    func captured(_ o: [String: Any]?) -> [String: Any] { o?["captured"] as? [String: Any] ?? [:] }

    func testTakeoutAndXMPFolders() throws {
        let r = try inspect(["-r", Self.fixtures])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.byName.count, 10, "the 10 pictures; the 9 sidecars are not media")
        XCTAssertTrue(r.stderr.contains("skipped 9 files"), r.stderr)
        XCTAssertFalse(r.byName.keys.contains { $0.hasSuffix(".json") || $0.hasSuffix(".xmp") })
        let darktable = captured(r.byName["IMG_1234.CR2"])
        XCTAssertEqual(darktable["source"] as? String, "sidecar.xmp")
        XCTAssertEqual(darktable["local"] as? String, "2024-11-29T22:15:00")
        XCTAssertEqual(darktable["sidecar"] as? String, Self.fixtures + "/darktable/IMG_1234.CR2.xmp")
        let lightroom = r.byName["DSC_0042.NEF"]
        XCTAssertEqual(captured(lightroom)["utc"] as? String, "2024-07-14T14:20:05.30Z")
        XCTAssertEqual((lightroom?["gps"] as? [String: Any])?["lat"] as? Double, 48.8584)
        let expected = [
            "holiday.jpg": ("2019-07-13T06:40:00Z", "holiday.jpg.json"),
            "beach.png": ("2023-07-22T04:26:40Z", "beach.png.supplemental-metadata.json"),
            "beach(1).png": ("2023-07-22T05:26:40Z", "beach.png.supplemental-metadata(1).json"),
            "beach-edited.png": ("2023-07-22T04:26:40Z", "beach.png.supplemental-metadata.json"),
            "Holiday_in_the_mountains_with_the_whole_family_2019.jpg": (
                "2019-08-17T00:00:00Z", "Holiday_in_the_mountains_with_the_whole_family.json"
            ),
        ]
        for (name, (utc, json)) in expected {
            let c = captured(r.byName[name])
            XCTAssertEqual(c["source"] as? String, "sidecar.takeout", name)
            XCTAssertEqual(c["utc"] as? String, utc, name)
            XCTAssertEqual(c["sidecar"] as? String, Self.fixtures + "/takeout/" + json, name)
        }
        for (name, why) in [
            ("other.png", "its title is 'someone_else.png', not other.png; skipped"),
            ("settings.png", "no photoTakenTime: not a Google Takeout sidecar; skipped"),
            ("broken.png", "not a JSON object; skipped"),
        ] {
            let o = r.byName[name]
            XCTAssertNotEqual(captured(o)["source"] as? String, "sidecar.takeout", name)
            XCTAssertNil(captured(o)["sidecar"], name)
            let notes = o?["diagnostics"] as? [String] ?? []
            XCTAssertTrue(notes.contains { $0.hasPrefix("sidecar: ") && $0.hasSuffix(why) }, "\(name): \(notes)")
        }
    }

    /// `--json` decodes into the library's values (the sidecar's path included), and the walk's
    /// listing finds the same sidecars as the library's look beside each file.
    func testJSONDecodesIntoTheLibrarysValues() throws {
        let r = try Photometa.run(["inspect", "-r", "--json", "--tz", "UTC", Self.fixtures])
        let decoded = try JSONDecoder().decode([MediaAsset].self, from: Data(r.stdout.utf8))
        XCTAssertEqual(decoded.count, 10)
        for d in decoded {
            let mine = FileInspector.inspect(path: d.path)
            XCTAssertEqual(d.captured, mine.captured, d.path)
            XCTAssertEqual(d.captured?.sidecar, mine.captured?.sidecar, d.path)
            XCTAssertEqual(d.diagnostics, mine.diagnostics, d.path)
        }
    }

    func testNamedFileFindsItsSidecarsWithoutAListing() throws {
        let r = try inspect([Self.fixtures + "/takeout/beach(1).png", Self.fixtures + "/lightroom/DSC_0042.NEF"])
        XCTAssertEqual(captured(r.byName["beach(1).png"])["source"] as? String, "sidecar.takeout")
        XCTAssertEqual(captured(r.byName["DSC_0042.NEF"])["source"] as? String, "sidecar.xmp")
    }

    func testNoSidecars() throws {
        let r = try inspect(["-r", "--no-sidecars", Self.fixtures])
        XCTAssertEqual(r.status, 0, r.stderr)
        for (name, o) in r.byName {
            XCTAssertTrue((captured(o)["source"] as? String)?.hasPrefix("file.") == true, name)
            XCTAssertEqual(o["diagnostics"] as? [String], [], name)
        }
        let help = try Photometa.run(["inspect", "--help"])
        XCTAssertTrue(help.stdout.contains("--no-sidecars"))
    }

    /// A sidecar that is a link (here, out of the folder), a FIFO or over the size limit is not
    /// read: a diagnostic, and the date comes from the next source (the name).
    func testSidecarsThatMustNotBeRead() throws {
        let dir = try TemporaryDirectory(prefix: "photometa-sidecar")
        let outside = try TemporaryDirectory(prefix: "photometa-outside")
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/takeout/beach.png")))
        let json = #"{"title":"x","photoTakenTime":{"timestamp":"1700000000"}}"#
        let target = try outside.write(
            "secret.json", Array(json.replacingOccurrences(of: "\"x\"", with: "\"photo_2024-11-29_22-15-00.png\"").utf8))
        try dir.write("photo_2024-11-29_22-15-00.png", png)
        XCTAssertEqual(symlink(target, dir.path + "/photo_2024-11-29_22-15-00.png.json"), 0)
        try dir.write("signal-2024-11-29-221500.png", png)
        XCTAssertEqual(mkfifo(dir.path + "/signal-2024-11-29-221500.png.json", 0o600), 0)
        try dir.write("Screenshot_2024-11-29_22-15-00.png", png)
        let huge = dir.path + "/Screenshot_2024-11-29_22-15-00.png.xmp"
        XCTAssertTrue(FileManager.default.createFile(atPath: huge, contents: nil))
        XCTAssertEqual(truncate(huge, 2 << 20), 0, "a sparse 2 MiB file")
        for args in [
            [
                dir.path + "/photo_2024-11-29_22-15-00.png", dir.path + "/signal-2024-11-29-221500.png",
                dir.path + "/Screenshot_2024-11-29_22-15-00.png",
            ], ["-r", dir.path],
        ] {
            let r = try inspect(args)
            XCTAssertEqual(r.byName.count, 3, "\(args): \(r.stderr)")
            for (name, o) in r.byName {
                let c = captured(o)
                XCTAssertEqual(c["source"] as? String, "filename", "\(args) \(name)")
                XCTAssertEqual(c["local"] as? String, "2024-11-29T22:15:00", "\(args) \(name)")
            }
            let notes = r.byName.values.flatMap { $0["diagnostics"] as? [String] ?? [] }
            XCTAssertTrue(notes.contains { $0.hasSuffix("over the 1 MiB sidecar limit; not read") }, "\(notes)")
            if args.count == 3 {
                // Named files: every candidate is opened, so the link and the FIFO are said.
                XCTAssertTrue(notes.contains { $0.hasSuffix(".png.json: a symbolic link; not read") }, "\(notes)")
                XCTAssertTrue(notes.contains { $0.hasSuffix(".png.json: not a regular file (a FIFO); not read") }, "\(notes)")
            }
        }
    }
}
