import Foundation
import XCTest

/// End-to-end: the built binary, its output, its exit codes.
final class InspectCommandTests: XCTestCase {
    func json(_ text: String) throws -> [[String: Any]] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    func testHelpAndVersion() throws {
        let help = try Photometa.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("inspect"))
        let inspectHelp = try Photometa.run(["inspect", "--help"])
        XCTAssertEqual(inspectHelp.status, 0)
        for flag in ["-r", "--json", "--jsonl", "--tz", "EXIT STATUS", "64"] {
            XCTAssertTrue(inspectHelp.stdout.contains(flag), "help mentions \(flag)")
        }
        XCTAssertEqual(try Photometa.run(["help", "inspect"]).stdout, inspectHelp.stdout, "`help COMMAND` is its --help")
        XCTAssertEqual(try Photometa.run(["help", "nonsense"]).status, 64)
        let version = try Photometa.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("photometa "))
    }

    func testUsageErrorsExit64() throws {
        for args in [
            [], ["inspect"], ["inspect", "--bogus", "x"], ["frobnicate"], ["inspect", "--json", "--jsonl", "x"],
            ["inspect", "--tz", "Mars/Olympus", "x"], ["inspect", "--tz"],
            ["inspect", "--exclude", "cache", "x"],  // nothing is walked without -r
        ] {
            let r = try Photometa.run(args)
            XCTAssertEqual(r.status, 64, "\(args)")
            XCTAssertTrue(r.stderr.contains("photometa:"), "\(args): \(r.stderr)")
            XCTAssertEqual(r.stdout, "", "\(args)")
        }
    }

    func testJSONArrayOfTheLibrary() throws {
        let r = try Photometa.run([
            "inspect", "-r", "--json", "--tz", "UTC", Photometa.root.appendingPathComponent("Fixtures/library").path,
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        let all = try json(r.stdout)
        XCTAssertEqual(all.count, 21, "22 files, notes.txt skipped")
        XCTAssertTrue(r.stderr.contains("skipped 1 file"), r.stderr)
        let paths = all.compactMap { $0["path"] as? String }
        XCTAssertEqual(paths, paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, "sorted by path")
        let byName = Dictionary(
            uniqueKeysWithValues: all.map {
                (($0["path"] as? String ?? "").split(separator: "/").last.map(String.init) ?? "", $0)
            })
        let pixel = try XCTUnwrap(byName["IMG_20240315_093012.jpg"])
        XCTAssertEqual(pixel["kind"] as? String, "photo")
        let captured = try XCTUnwrap(pixel["captured"] as? [String: Any])
        XCTAssertEqual(captured["local"] as? String, "2024-03-15T09:30:12.25")
        XCTAssertEqual(captured["offset"] as? String, "+08:00")
        XCTAssertEqual(captured["utc"] as? String, "2024-03-15T01:30:12.25Z")
        XCTAssertEqual(captured["source"] as? String, "exif.DateTimeOriginal")
        XCTAssertEqual((pixel["thumbnail"] as? [String: Any])?["bytes"] as? Int, 191)
        XCTAssertEqual(byName["IMG_0001.HEIC"]?["kind"] as? String, "livePhoto")
        XCTAssertEqual(byName["anim.gif"]?["animated"] as? Bool, true)
        XCTAssertEqual(byName["png_as.jpg"]?["format"] as? String, "png")
        XCTAssertEqual(byName["IMG_0420.PNG"]?["kind"] as? String, "screenshot")
    }

    func testJSONLStreamsOneObjectPerLine() throws {
        let files = ["clip.mp4", "anim.gif", "photo.webp"].map(Photometa.fixture)
        let r = try Photometa.run(["inspect", "--jsonl"] + files)
        XCTAssertEqual(r.status, 0)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        for line in lines {
            XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        XCTAssertTrue(lines[0].contains("anim.gif"), "sorted by path")
    }

    /// A reader that goes away (`| head`) ends the run, even with a list that never ends
    /// (`yes PATH | photometa inspect --files-from -`): README, exit status 74's row.
    func testAReaderThatQuitsEndsAnEndlessList() throws {
        var pair: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
        defer { close(pair[0]) }
        let input = FileHandle(fileDescriptor: pair[1], closeOnDealloc: true)
        let writer = pair[0]
        let (first, ended) = try ReaderThatQuits.run(["inspect", "--files-from", "-", "--jsonl"], input: input) {
            try input.close()  // the child's copy is its stdin; ours would keep the socket open
            // The list: one path again and again, for as long as photometa reads it (a send to
            // a reader that has gone fails with EPIPE, no signal).
            Thread {
                let line = Array((Photometa.fixture("no_offset.jpg") + "\n").utf8)
                while line.withUnsafeBytes({ send(writer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 {}
            }.start()
        }
        XCTAssertTrue(first.hasPrefix(#"{"schema":1,"path":""#), first)
        XCTAssertTrue(ended, "inspect went on reading the list after its reader left")
    }

    func testTextOutput() throws {
        let r = try Photometa.run(["inspect", "--tz", "Asia/Shanghai", Photometa.fixture("no_offset.jpg")])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("captured: 2022-12-24T18:00:00  [exif.DateTimeOriginal; offset unknown]"), r.stdout)
        XCTAssertTrue(r.stdout.contains("2022-12-24T10:00:00Z  (assumed: zone Asia/Shanghai, +08:00)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("camera:   Canon EOS 5D\n"), "the make said once: \(r.stdout)")
    }

    func testTZDefaultsToTheProcessZone() throws {
        let r = try Photometa.run(
            ["inspect", "--jsonl", Photometa.fixture("no_offset.jpg")], environment: ["TZ": "America/New_York"])
        XCTAssertTrue(r.stdout.contains(#""zone":"America/New_York","offset":"-05:00","utc":"2022-12-24T23:00:00Z""#), r.stdout)
    }

    func testFailuresAreReportedAndTheRestPrinted() throws {
        let missing = "/nonexistent/photo.jpg"
        let r = try Photometa.run(["inspect", "--jsonl", missing, Photometa.fixture("notes.txt"), Photometa.fixture("still.gif")])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("photometa: \(missing): no such file or directory"), r.stderr)
        XCTAssertTrue(r.stderr.contains("notes.txt: not a supported image or video format"), r.stderr)
        let objects = r.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertEqual(objects.count, 3, "named files always get an entry")
        let notes = try XCTUnwrap(objects.first { ($0["path"] as? String)?.hasSuffix("notes.txt") == true })
        XCTAssertEqual(notes["format"] as? String, "unknown")
        XCTAssertNotNil(notes["error"] as? String)
        XCTAssertNil(objects.first { ($0["path"] as? String)?.hasSuffix("still.gif") == true }?["error"])
    }

    func testArgumentsAreSortedAndAFileNamedInsideAWalkedFolderIsListedOnce() throws {
        let lib = Photometa.root.appendingPathComponent("Fixtures/library").path
        let r = try Photometa.run(["inspect", "-r", "--jsonl", lib + "/notes.txt", Photometa.fixture("still.gif"), lib])
        XCTAssertEqual(r.status, 1, "notes.txt named explicitly is an error entry")
        let paths = r.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["path"] as? String
        }
        XCTAssertEqual(paths.count, 22, "21 media files + notes.txt, each once")
        XCTAssertEqual(paths, paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        XCTAssertEqual(paths.filter { $0.hasSuffix("still.gif") }.count, 1)
    }

    func testDoubleDashEndsOptions() throws {
        let r = try Photometa.run(["inspect", "--", "-h"])
        XCTAssertEqual(r.status, 1, "a file named -h, not the help")
        XCTAssertTrue(r.stderr.contains("photometa: -h: no such file or directory"), r.stderr)
    }

    func testDirectoryWithoutRecursiveIsAnError() throws {
        let r = try Photometa.run(["inspect", Photometa.root.appendingPathComponent("Fixtures/library").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("use -r"), r.stderr)
    }

    func testSpecialFilesInADirectoryDoNotBlock() throws {
        let scratch = try TemporaryDirectory(prefix: "pm-cli")
        let dir = scratch.url
        XCTAssertEqual(mkfifo(dir.appendingPathComponent("pipe.jpg").path, 0o644), 0)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("loop").path, withDestinationPath: dir.path)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("x.jpg"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("empty.jpg").path, contents: Data())
        try FileManager.default.copyItem(
            atPath: Photometa.fixture("clip.mp4"), toPath: dir.appendingPathComponent("clip.mp4").path)
        let r = try Photometa.run(["inspect", "-r", "--jsonl", dir.path], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 1, r.stdout)
        XCTAssertTrue(r.stderr.contains("skipped"), r.stderr)
        // Named explicitly, the FIFO gets an entry with an error instead of blocking.
        let fifo = try Photometa.run(["inspect", "--jsonl", dir.appendingPathComponent("pipe.jpg").path], timeout: 30)
        XCTAssertEqual(fifo.status, 1)
        XCTAssertTrue(fifo.stderr.contains("not a regular file (a FIFO)"), fifo.stderr)
        let empty = try Photometa.run(["inspect", "--jsonl", dir.appendingPathComponent("empty.jpg").path])
        XCTAssertTrue(empty.stderr.contains("empty file"), empty.stderr)
    }

    func testManyFilesUseAllCoresAndKeepOrder() throws {
        let scratch = try TemporaryDirectory(prefix: "pm-cli")
        let dir = scratch.url
        let src = try Data(contentsOf: URL(fileURLWithPath: Photometa.fixture("IMG_20240315_093012.jpg")))
        for i in 0..<300 { try src.write(to: dir.appendingPathComponent(String(format: "f%04d.jpg", i))) }
        let r = try Photometa.run(["inspect", "-r", "--jsonl", dir.path])
        XCTAssertEqual(r.status, 0)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 300)
        for (i, line) in lines.enumerated() {
            XCTAssertTrue(line.contains(String(format: "f%04d.jpg", i)), "line \(i) out of order")
        }
    }
}
