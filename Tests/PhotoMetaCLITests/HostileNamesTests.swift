import Foundation
import XCTest

@testable import PhotoMetaSystem
@testable import PhotoMetaThumbnailCache

/// File and folder names that try to drive the terminal (ESC sequences, OSC titles, BEL, CR,
/// newlines that forge output lines, C1 CSI, bidirectional overrides) go through every command;
/// no control byte may reach stdout or stderr, in text or JSON, and JSON keeps the exact name.
final class HostileNamesTests: XCTestCase {
    static let names = [
        "clear\u{1B}[2J.jpg", "bell\u{07}.jpg", "cr\rforged.jpg", "nl\n- removed.jpg", "csi\u{9B}31m.jpg",
        "rtl\u{202E}gpj.exe.jpg", "title\u{1B}]0;owned\u{07}.jpg", "tab\tname.jpg", "back\\slash.jpg",
    ]

    /// The test's own folder (removed with it).
    var scratch: TemporaryDirectory!
    var work: URL!
    var folder: String { work.appendingPathComponent("in\u{1B}[31mbox").path }
    var state: String { work.appendingPathComponent("state.sqlite3").path }

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "pm-names")
        work = scratch.url
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for n in Self.names {
            try FileManager.default.copyItem(atPath: Photometa.fixture("mmexport1700000000000.jpg"), toPath: folder + "/" + n)
        }
    }

    override func tearDownWithError() throws { scratch = nil }

    /// The bytes a terminal would act on: C0 controls but newline, DEL, C1 controls (UTF-8
    /// C2 80...C2 9F), and the bidirectional and invisible format characters.
    static func controls(in text: String) -> [String] {
        var found: [String] = []
        for u in text.unicodeScalars {
            let v = u.value
            let bad =
                (v < 0x20 && v != 0x0A) || (0x7F..<0xA0).contains(v) || v == 0x061C || (0x200B...0x200F).contains(v)
                || (0x2028...0x202E).contains(v) || (0x2060...0x2069).contains(v) || v == 0xFEFF
            if bad { found.append(String(format: "U+%04X", v)) }
        }
        return found
    }

    func assertInert(_ r: CommandResult, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Self.controls(in: r.stdout), [], "\(what): stdout", file: file, line: line)
        XCTAssertEqual(Self.controls(in: r.stderr), [], "\(what): stderr", file: file, line: line)
    }

    func testEveryCommandKeepsTheTerminalInert() throws {
        let inspectText = try Photometa.run(["inspect", "-r", folder])
        XCTAssertEqual(inspectText.status, 0, inspectText.stderr)
        assertInert(inspectText, "inspect -r")
        XCTAssertTrue(inspectText.stdout.contains("clear\\e[2J.jpg"), inspectText.stdout)
        XCTAssertTrue(inspectText.stdout.contains("nl\\n- removed.jpg"), inspectText.stdout)
        XCTAssertTrue(inspectText.stdout.contains("csi\\x9b31m.jpg"), inspectText.stdout)
        XCTAssertTrue(inspectText.stdout.contains("rtl\\u{202E}gpj.exe.jpg"), inspectText.stdout)
        XCTAssertFalse(inspectText.stdout.split(separator: "\n").contains { $0.hasPrefix("- removed") }, "a forged line")

        // JSON: inert on the terminal, and the names exact once decoded.
        for flag in ["--json", "--jsonl"] {
            let r = try Photometa.run(["inspect", "-r", flag, folder])
            XCTAssertEqual(r.status, 0, r.stderr)
            assertInert(r, "inspect \(flag)")
            let text = flag == "--json" ? r.stdout : "[" + r.stdout.split(separator: "\n").joined(separator: ",") + "]"
            let objects = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
            let paths = Set(objects.compactMap { $0["path"] as? String })
            XCTAssertEqual(paths, Set(Self.names.map { folder + "/" + $0 }), flag)
        }

        // A named file that does not exist: the error message on stderr.
        let missing = try Photometa.run(["inspect", folder + "/gone\u{1B}[2J.jpg"])
        XCTAssertEqual(missing.status, 1)
        assertInert(missing, "inspect of a missing file")
        XCTAssertTrue(missing.stderr.contains("gone\\e[2J.jpg"), missing.stderr)

        for args in [["--explain"], ["--explain", "--json"]] {
            let r = try Photometa.run(["suggest", folder, "--peek", "--no-index", "--state", state] + args)
            assertInert(r, "suggest \(args)")
        }
        let unreadable = try Photometa.run(["suggest", folder + "/no\u{07}such", "--state", state])
        XCTAssertEqual(unreadable.status, 66)
        assertInert(unreadable, "suggest of a missing folder")
        for command in ["dismiss", "forget"] {
            let r = try Photometa.run([command, folder, "--state", state])
            XCTAssertEqual(r.status, 0, r.stderr)
            assertInert(r, command)
        }
    }

    func testWatchReportsHostileNamesInert() throws {
        let w = try WatchCommandTests.RunningWatch(["watch", folder, "--no-suggest", "--state", state])
        XCTAssertTrue(w.wait { w.stderr.contains("watching") }, w.stderr)
        let name = "new\n- forged.jpg\u{1B}[2J"
        try FileManager.default.copyItem(atPath: Photometa.fixture("mmexport1700000000000.jpg"), toPath: folder + "/" + name)
        XCTAssertTrue(w.wait { w.stdout.contains("+ ") }, w.stdout)
        try FileManager.default.removeItem(atPath: folder + "/" + name)
        XCTAssertTrue(w.wait { w.stdout.contains("- ") && w.stdout.contains("removed") }, w.stdout)
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
        XCTAssertEqual(Self.controls(in: w.stdout), [], w.stdout)
        XCTAssertEqual(Self.controls(in: w.stderr), [], w.stderr)
        let lines = w.stdout.split(separator: "\n")
        XCTAssertFalse(lines.contains { $0.hasPrefix("- forged") }, "a forged removal line: \(lines)")
    }
}

/// A name that is not valid UTF-8 (Latin-1 `caf\xE9.jpg`) is a file like any other: inspected,
/// suggested and watched, shown as `caf\xe9.jpg` in text and, in JSON, read as U+FFFD with the
/// exact bytes in `pathBytes` (issue 13, item 8).
final class RawNameTests: XCTestCase {
    /// The test's own folder (removed with it).
    var scratch: TemporaryDirectory!
    var work: URL!
    var folder: String { work.appendingPathComponent("photos").path }
    var rawPath: [UInt8] { Array(folder.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8) }

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "pm-raw")
        work = scratch.url
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { scratch = nil }

    func writeRaw(_ path: [UInt8]) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Photometa.fixture("mmexport1700000000000.jpg")))
        let fd = open(path.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Through the thumbnailer and back: opened by its bytes, named in the cache by GLib's URI
    /// of those bytes (`caf%E9.jpg`), `pathBytes` in JSON.
    func testThumbnail() throws {
        try writeRaw(rawPath)
        let cache = work.appendingPathComponent("cache").path
        // The raw byte reaches argv through the shell (Process passes arguments as UTF-8).
        let script = "exec \"$BIN\" thumbnail --json \"$(printf '%s/caf\\351.jpg' \"$DIR\")\""
        let r = try Photometa.run(
            ["-c", script], environment: ["BIN": Photometa.binary.path, "DIR": folder, "XDG_CACHE_HOME": cache],
            executable: "/bin/sh")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\"pathBytes\""), r.stdout)
        let canonical = try FileSystem.canonicalPath(folder)
        let md5 = ThumbnailCache.md5("file://" + canonical + "/caf%E9.jpg")
        XCTAssertTrue(r.stdout.contains("/thumbnails/large/\(md5).png"), "GLib's URI of the bytes: \(r.stdout)")
    }

    func testInspectSuggestAndJSON() throws {
        try writeRaw(rawPath)
        let text = try Photometa.run(["inspect", "-r", folder])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains(folder + "/caf\\xe9.jpg\n  format:   jpeg"), text.stdout)

        let json = try Photometa.run(["inspect", "-r", "--json", folder])
        XCTAssertEqual(json.status, 0, json.stderr)
        let objects = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(objects.first?["path"] as? String, folder + "/caf\u{FFFD}.jpg")
        let b64 = try XCTUnwrap(objects.first?["pathBytes"] as? String)
        XCTAssertEqual(Data(base64Encoded: b64).map { [UInt8]($0) }, rawPath)

        // Named on the command line (through the shell: Process would re-encode the bytes).
        let escaped = folder + "/caf\\351.jpg"
        let viaShell = try Photometa.run(["--version"])  // warm, and find the binary
        XCTAssertEqual(viaShell.status, 0)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "\"$0\" inspect \"$(printf '\(escaped)')\"", Photometa.binary.path]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        let named = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(p.terminationStatus, 0, named)
        XCTAssertTrue(named.contains("kind:     photo"), named)

        let state = work.appendingPathComponent("state.sqlite3").path
        let suggest = try Photometa.run(["suggest", folder, "--explain", "--peek", "--no-index", "--state", state])
        XCTAssertTrue(suggest.stdout.contains("caf\\xe9.jpg"), suggest.stdout)
        XCTAssertFalse(suggest.stdout.contains("skipped"), suggest.stdout)
    }

    func testWatchReportsIt() throws {
        let w = try WatchCommandTests.RunningWatch([
            "watch", folder, "--no-suggest", "--state", work.appendingPathComponent("s.sqlite3").path,
        ])
        XCTAssertTrue(w.wait { w.stderr.contains("watching") }, w.stderr)
        try writeRaw(rawPath)
        XCTAssertTrue(w.wait { w.stdout.contains("+ \(folder)/caf\\xe9.jpg") }, w.stdout)
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
    }
}
