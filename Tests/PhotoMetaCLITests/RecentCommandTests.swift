import Foundation
import PhotoMeta
import XCTest

/// `photometa recent` with the binary on scenario folders (capture dates from file names, read
/// in UTC): order, -n, ties by path, kinds, Live Photos, JSON rows equal to `inspect`'s,
/// exit codes and usage errors; and `PhotoLibrary.recent` agreeing with it.
final class RecentCommandTests: XCTestCase {
    var scratch: TemporaryDirectory!
    var photos: String { scratch.path + "/photos" }

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "pm-recent")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { scratch = nil }

    var environment: [String: String] {
        ["HOME": scratch.path, "TZ": "UTC", "XDG_CACHE_HOME": scratch.path + "/cache", "XDG_CONFIG_HOME": ""]
    }

    func add(_ name: String, from fixture: String) throws {
        try scratch.write("photos/" + name, try TestPaths.bytes(fixture))
    }

    /// Stills of several kinds, a tie, a video, a Live Photo (still and movie), a text file.
    func library() throws {
        try add("IMG_20240808_120700.jpg", from: "mmexport1700000000000.jpg")
        try add("a/IMG_20240808_120810.jpg", from: "mmexport1700000000000.jpg")
        try add("B/IMG_20240808_120810.jpg", from: "mmexport1700000000000.jpg")
        try add("Screenshot_20240808-120815.png", from: "Screenshot_20240101-120000.png")
        try add("VID_20240808_120818.mp4", from: "clip.mp4")  // mvhd: 2023-09-10T15:00:00Z
        try add("IMG_0001.HEIC", from: "IMG_0001.HEIC")  // 2024-05-01T08:20:30.123Z
        try add("IMG_0001.MOV", from: "IMG_0001.MOV")
        try add("notes.txt", from: "notes.txt")
    }

    func recent(_ args: [String], folders: [String]? = nil) throws -> CommandResult {
        try Photometa.run(["recent"] + (folders ?? [photos]) + args, environment: environment)
    }

    /// The listed paths, below the photos folder.
    func names(_ r: CommandResult) -> [String] {
        r.stdout.split(separator: "\n").map { line in
            let path = line.split(separator: " ", omittingEmptySubsequences: true)[2...].joined(separator: " ")
            return String(path.dropFirst(photos.count + 1))
        }
    }

    /// A photo under several names (a link beside it, one in a sub-folder, a hard link) is one
    /// row, by its own name (a link sorting first does not take its place), and `-n` still
    /// gets as many rows as asked; the same through the index.
    func testOneFileUnderSeveralNamesIsOneRow() throws {
        try add("IMG_20240808_120810.jpg", from: "mmexport1700000000000.jpg")
        try add("IMG_20240808_120700.jpg", from: "mmexport1700000000000.jpg")
        try add("IMG_20240808_120600.jpg", from: "mmexport1700000000000.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: photos + "/A_link.jpg", withDestinationPath: "IMG_20240808_120810.jpg")
        try FileManager.default.createDirectory(atPath: photos + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: photos + "/sub/IMG_20240808_120810.jpg", withDestinationPath: "../IMG_20240808_120810.jpg")
        try FileManager.default.linkItem(
            atPath: photos + "/IMG_20240808_120700.jpg", toPath: photos + "/sub/IMG_20240808_120700.jpg")
        for index in [["--no-index"], []] {
            let r = try recent(index + ["-n", "3"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(
                names(r), ["IMG_20240808_120810.jpg", "IMG_20240808_120700.jpg", "IMG_20240808_120600.jpg"], r.stdout)
        }
    }

    func testNewestFirstTiesByPathAndTheLimit() throws {
        try library()
        let r = try recent(["--no-index"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            names(r),
            [
                "Screenshot_20240808-120815.png", "B/IMG_20240808_120810.jpg", "a/IMG_20240808_120810.jpg",
                "IMG_20240808_120700.jpg", "IMG_0001.HEIC",
            ])
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.first, "2024-08-08T12:08:15+00:00  screenshot  \(photos)/Screenshot_20240808-120815.png")
        XCTAssertEqual(lines.last, "2024-05-01T08:20:30.123+00:00  livePhoto   \(photos)/IMG_0001.HEIC")
        // The same with the index, cold then warm; -n cuts the list, ties kept in path order.
        for _ in 0..<2 { XCTAssertEqual(names(try recent([])), names(r)) }
        XCTAssertEqual(names(try recent(["-n", "2"])), ["Screenshot_20240808-120815.png", "B/IMG_20240808_120810.jpg"])
        XCTAssertEqual(names(try recent(["-n", "1", "--no-index"])), ["Screenshot_20240808-120815.png"])
        // Instants shown in the --tz zone: a date with an offset moved into it, one without
        // (the name's) read in it.
        let shanghai = try recent(["--tz", "Asia/Shanghai", "--kind", "livePhoto", "--kind", "screenshot"])
        XCTAssertEqual(
            shanghai.stdout.split(separator: "\n").map { String($0.prefix(31)) },
            ["2024-08-08T12:08:15+08:00  scre", "2024-05-01T16:20:30.123+08:00  "])
    }

    /// With the index's folder summaries, a folder whose newest capture is older than the
    /// newest `-n` found so far is counted, not read; one that holds a newer file among old
    /// ones is read. The walk takes the last names first: 2024, then 2023 (read: it holds a
    /// newer file than 2024's second), then 2019 (passed over). The listing is the scan's
    /// without the index, run after run, and after a change to the folder passed over.
    func testFoldersTooOldToBeListedArePassedOver() throws {
        try add("2024/IMG_20240808_120000.jpg", from: "mmexport1700000000000.jpg")
        try add("2024/IMG_20240808_120100.jpg", from: "mmexport1700000000000.jpg")
        try add("2023/IMG_20190101_120000.jpg", from: "mmexport1700000000000.jpg")
        try add("2023/IMG_20240808_130000.jpg", from: "mmexport1700000000000.jpg")
        try add("2019/IMG_20190101_120000.jpg", from: "mmexport1700000000000.jpg")
        try add("2019/notes.txt", from: "notes.txt")
        let scanned = names(try recent(["-n", "2", "--no-index"]))
        XCTAssertEqual(scanned, ["2023/IMG_20240808_130000.jpg", "2024/IMG_20240808_120100.jpg"])
        for run in 0..<3 { XCTAssertEqual(names(try recent(["-n", "2"])), scanned, "run \(run) with the index") }
        XCTAssertEqual(names(try recent(["-n", "4"])), names(try recent(["-n", "4", "--no-index"])))
        // A change to the folder passed over is seen: its summary no longer matches.
        try add("2019/IMG_20250101_120000.jpg", from: "mmexport1700000000000.jpg")
        XCTAssertEqual(names(try recent(["-n", "2"])), ["2019/IMG_20250101_120000.jpg", "2023/IMG_20240808_130000.jpg"])
    }

    func testKindsVideosOnlyWhenAskedAndTheLivePhotoMovieFolded() throws {
        try library()
        XCTAssertEqual(names(try recent(["--kind", "video"])), ["VID_20240808_120818.mp4"])
        XCTAssertEqual(
            names(try recent(["--kind", "screenshot", "--kind", "livePhoto"])),
            ["Screenshot_20240808-120815.png", "IMG_0001.HEIC"])
        XCTAssertEqual(
            names(try recent(["--kind=photo", "--kind", "VIDEO"])),
            [
                "B/IMG_20240808_120810.jpg", "a/IMG_20240808_120810.jpg", "IMG_20240808_120700.jpg",
                "VID_20240808_120818.mp4",
            ])
        let all = names(try recent([]))
        XCTAssertFalse(all.contains("IMG_0001.MOV"))
        XCTAssertFalse(all.contains("notes.txt"))
        XCTAssertFalse(all.contains("VID_20240808_120818.mp4"), "videos only with --kind video")
        // --exclude as for suggest.
        XCTAssertEqual(names(try recent(["--exclude", "B", "-n", "2"])).last, "a/IMG_20240808_120810.jpg")
    }

    /// A camera folder: a clip, its `.THM` cover (a JPEG) and its `.LRV` low-resolution copy (an
    /// MP4). `recent` lists the clip when asked for videos and never its stand-ins; `inspect`
    /// still reports the cover as the JPEG it is.
    func testACamerasStandInsForAClipAreNotListed() throws {
        try add("DCIM/100CANON/MVI_0001.MOV", from: "clip.mp4")
        try add("DCIM/100CANON/MVI_0001.THM", from: "mmexport1700000000000.jpg")
        try add("DCIM/100CANON/MVI_0001.LRV", from: "clip.mp4")
        try add("DCIM/100CANON/IMG_0002.JPG", from: "mmexport1700000000000.jpg")
        XCTAssertEqual(
            names(try recent(["--kind", "photo", "--kind", "video"])),
            ["DCIM/100CANON/IMG_0002.JPG", "DCIM/100CANON/MVI_0001.MOV"])
        let inspected = try Photometa.run(
            ["inspect", "--jsonl", photos + "/DCIM/100CANON/MVI_0001.THM"], environment: environment)
        XCTAssertTrue(inspected.stdout.contains(#""format":"jpeg","kind":"photo""#), inspected.stdout)
    }

    func testJSONRowsAreTheInspectRows() throws {
        try library()
        for zone in ["UTC", "Asia/Shanghai"] {
            let json = try recent(["--json", "--tz", zone, "--kind", "video", "--kind", "photo", "--kind", "livePhoto"])
            XCTAssertEqual(json.status, 0, json.stderr)
            let assets = try JSONDecoder().decode([MediaAsset].self, from: Data(json.stdout.utf8))
            XCTAssertEqual(assets.map(\.kind), [.photo, .photo, .photo, .livePhoto, .video])
            XCTAssertEqual(assets[3].livePhotoPair, photos + "/IMG_0001.MOV")
            // (inspect sorts its arguments; a list keeps its order.)
            let list = Data(assets.map(\.path).joined(separator: "\n").utf8)
            let inspect = try Photometa.run(["inspect", "--jsonl", "--tz", zone, "--files-from", "-"], stdin: list)
            let jsonl = try recent(["--jsonl", "--tz", zone, "--kind", "video", "--kind", "photo", "--kind", "livePhoto"])
            XCTAssertEqual(jsonl.stdout, inspect.stdout)
            let rows = try jsonl.stdout.split(separator: "\n").map {
                try JSONDecoder().decode(MediaAsset.self, from: Data($0.utf8))
            }
            XCTAssertEqual(rows, assets)
        }
    }

    func testExitCodesAndUsageErrors() throws {
        let empty = try recent([])
        XCTAssertEqual(empty.status, 3)
        XCTAssertEqual(empty.stdout, "")
        XCTAssertTrue(empty.stderr.contains("nothing to list"), empty.stderr)
        XCTAssertEqual(try recent(["--json", "-q"]).stdout, "[]\n")
        XCTAssertEqual(try recent(["-q"]).stderr, "")
        let missing = try recent([], folders: [photos + "/no-such-folder"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.stderr.contains("cannot read"), missing.stderr)
        for bad in [
            ["-n", "0"], ["-n", "x"], ["-n"], ["--kind", "unknown"], ["--kind", "movie"], ["--json", "--jsonl"], ["--json=1"],
            ["--peek"],
        ] {
            let r = try recent(bad)
            XCTAssertEqual(r.status, 64, "\(bad): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("Run 'photometa recent --help'"), r.stderr)
        }
        let help = try recent(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("USAGE: photometa recent"))
    }

    func testThePicturesFolderByDefault() throws {
        try scratch.write("Pictures/IMG_20240808_120700.jpg", try TestPaths.bytes("mmexport1700000000000.jpg"))
        let r = try Photometa.run(["recent"], environment: environment)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix("  photo       \(scratch.path)/Pictures/IMG_20240808_120700.jpg\n"), r.stdout)
    }

    func testTheLibraryAgreesWithTheCommand() throws {
        try library()
        var options = PhotoLibrary.Options(zone: try XCTUnwrap(TimeZone(identifier: "Asia/Shanghai")))
        options.indexPath = nil
        let lib = try PhotoLibrary(folders: [photos], options: options)
        for (limit, kinds, args) in [
            (20, PhotoLibrary.stillKinds, [String]()), (2, [MediaKind.photo], ["-n", "2", "--kind", "photo"]),
            (10, [.video, .screenshot], ["-n", "10", "--kind", "video", "--kind", "screenshot"]),
        ] {
            let cli = try recent(["--jsonl", "--tz", "Asia/Shanghai"] + args)
            let rows = try cli.stdout.split(separator: "\n").map {
                try JSONDecoder().decode(MediaAsset.self, from: Data($0.utf8))
            }
            let mine = try lib.recent(limit: limit, kinds: kinds).assets
            XCTAssertEqual(rows.map(\.path), mine.map(\.path), args.description)
            XCTAssertEqual(rows.map(\.kind), mine.map(\.kind), args.description)
            XCTAssertEqual(rows.map(\.captured), mine.map(\.captured), args.description)
        }
        XCTAssertThrowsError(try PhotoLibrary(folders: [photos + "/nope"], options: options))
    }

    func testThumbnails() throws {
        try scratch.write(
            "photos/IMG_1.jpg", [UInt8](try Data(contentsOf: TestPaths.thumbnails.appendingPathComponent("orient6.jpg"))))
        // A HEIC whose image cannot be decoded (no hvcC): reported, the listing stands.
        try add("IMG_0001.HEIC", from: "IMG_0001.HEIC")
        let text = try recent(["--thumbnail", "128", "--no-index"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, text.stdout)
        XCTAssertTrue(lines[0].hasSuffix("/IMG_0001.HEIC  -"), lines[0])
        XCTAssertTrue(lines[1].contains("/IMG_1.jpg  \(scratch.path)/cache/thumbnails/normal/"), lines[1])
        XCTAssertTrue(text.stderr.contains("IMG_0001.HEIC: thumbnail: "), text.stderr)
        let json = try recent(["--thumbnail", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertTrue(rows[0]["thumbnailFile"] is NSNull)
        XCTAssertNotNil(rows[0]["thumbnailError"] as? String)
        let t = try XCTUnwrap(rows[1]["thumbnailFile"] as? [String: Any])
        XCTAssertEqual([t["width"] as? Int, t["height"] as? Int], [48, 64])
        XCTAssertTrue(rows[1]["thumbnailError"] is NSNull)
        // The rows are still inspect's: they decode as MediaAsset.
        XCTAssertEqual(try JSONDecoder().decode([MediaAsset].self, from: Data(json.stdout.utf8)).count, 2)
    }

    /// A file being written (cut short, just modified) is listed: recent is a listing, not an
    /// offer. Names are escaped for the terminal, exact in JSON.
    func testAFileBeingWrittenIsListedAndNamesAreEscaped() throws {
        try add("IMG_20240808_120700.jpg", from: "truncated.jpg")  // cut short; its EXIF says 2024-03-16
        try add("IMG_20240808_120600\u{1B}]0;x\u{07}.jpg", from: "mmexport1700000000000.jpg")
        let r = try recent(["--no-index"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stdout,
            "2024-08-08T12:06:00+00:00  photo       \(photos)/IMG_20240808_120600\\e]0;x\\a.jpg\n"
                + "2024-03-16T10:00:00+00:00  photo       \(photos)/IMG_20240808_120700.jpg\n")
        let rows = try JSONDecoder().decode([MediaAsset].self, from: Data(try recent(["--json"]).stdout.utf8))
        XCTAssertEqual(rows.map(\.truncated), [false, true])
        XCTAssertEqual(rows.first?.path, photos + "/IMG_20240808_120600\u{1B}]0;x\u{07}.jpg")
    }
}
