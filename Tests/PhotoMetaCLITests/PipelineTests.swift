import Foundation
import XCTest

/// For pipelines (issue 15): file lists in input order, per-file errors that do not fail a
/// batch, the schema of every row, and the progress line (only on a terminal).
final class PipelineTests: XCTestCase {
    let library = Photometa.root.appendingPathComponent("Fixtures/library").path
    var listed: [String] {
        ["DSC_0001.JPG", "no-such-file.jpg", "IMG_0420.PNG", "anim.gif", "DSC_0001.JPG"].map { library + "/" + $0 }
    }

    func rows(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func testFilesFromStdinKeepsTheOrderAndEveryLine() throws {
        let text = listed.joined(separator: "\n") + "\n"
        let r = try Photometa.run(["inspect", "--files-from", "-", "--jsonl"], stdin: Data(text.utf8))
        XCTAssertEqual(r.status, 1, "a missing path is still a failure without --keep-going")
        let out = try rows(r.stdout)
        XCTAssertEqual(out.compactMap { $0["path"] as? String }, listed, "input order, the duplicate kept")
        XCTAssertEqual(out[1]["error"] as? String, "no such file or directory")
        XCTAssertTrue(r.stderr.contains("no-such-file.jpg: no such file or directory"), r.stderr)
    }

    func testFilesFromAFileNULSeparatedWithFolders() throws {
        let scratch = try TemporaryDirectory(prefix: "pm-list")
        let dir = scratch.url
        let list = dir.appendingPathComponent("list")
        // A name with a newline in it is why NUL lists exist.
        let odd = dir.appendingPathComponent("two\nlines.jpg").path
        try FileManager.default.copyItem(atPath: library + "/DSC_0001.JPG", toPath: odd)
        try Data(([odd, library + "/Screenshots", library + "/anim.gif"].joined(separator: "\0") + "\0").utf8).write(to: list)
        let r = try Photometa.run(["inspect", "--files-from", list.path, "-0", "-r", "--jsonl"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            try rows(r.stdout).compactMap { $0["path"] as? String },
            [odd, library + "/Screenshots/IMG_0002.jpg", library + "/anim.gif"])
        // Without -r a listed folder is an error, as on the command line.
        let flat = try Photometa.run(["inspect", "--files-from", list.path, "-0", "--jsonl"])
        XCTAssertEqual(flat.status, 1)
        XCTAssertTrue(flat.stderr.contains("is a directory (use -r"), flat.stderr)
    }

    func testKeepGoingExitsZeroWhenEveryFailureIsInItsRow() throws {
        let text = listed.joined(separator: "\n")  // no final newline: the last line counts
        let r = try Photometa.run(["inspect", "--files-from", "-", "--jsonl", "--keep-going"], stdin: Data(text.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try rows(r.stdout).count, 5)
        // A folder that cannot be walked has no row: still a failure.
        let scratch = try TemporaryDirectory(prefix: "pm-kg")
        let dir = scratch.path + "/missing"
        let mixed = try Photometa.run(["inspect", "--keep-going", "--jsonl", library + "/DSC_0001.JPG", dir])
        XCTAssertEqual(mixed.status, 0, "a missing path named on the command line gets a row: \(mixed.stderr)")
        let notRecursive = try Photometa.run(["inspect", "--keep-going", "--jsonl", library])
        XCTAssertEqual(notRecursive.status, 1, "a folder without -r has no row")
        let missingList = try Photometa.run(["inspect", "--files-from", dir + "/list", "--keep-going"])
        XCTAssertEqual(missingList.status, 66)
        // A folder given as the list, and a closed standard input, are lists that cannot be read.
        let folderList = try Photometa.run(["inspect", "--files-from", library])
        XCTAssertEqual(folderList.status, 66, folderList.stderr)
        XCTAssertTrue(folderList.stderr.contains("cannot read the list \(library): is a directory"), folderList.stderr)
        let closed = Process()
        closed.executableURL = URL(fileURLWithPath: "/bin/sh")
        closed.arguments = ["-c", "exec \"$0\" inspect --files-from - <&- 2>/dev/null", Photometa.binary.path]
        try closed.run()
        closed.waitUntilExit()
        XCTAssertEqual(closed.terminationStatus, 66, "closed standard input")
        let twice = try Photometa.run(["inspect", "--files-from", "a", "--files-from", "b"])
        XCTAssertEqual(twice.status, 64, "a second list is not silently dropped: \(twice.stderr)")
    }

    func testEveryRowHasTheSchema() throws {
        let inspect = try Photometa.run(["inspect", "-r", "--jsonl", library])
        for row in try rows(inspect.stdout) { XCTAssertEqual(row["schema"] as? Int, 1) }
        let scratch = try TemporaryDirectory(prefix: "pm-schema")
        let state = scratch.path + "/state.sqlite3"
        let suggest = try Photometa.run(["suggest", library, "--json", "--peek", "--no-index", "--state", state])
        XCTAssertEqual(try rows(suggest.stdout).first?["schema"] as? Int, 1)
    }

    /// Runs `photometa ARGS` with stderr on a pseudo-terminal (python3's pty module), feeding
    /// `--files-from` through a FIFO a path every 100 ms so the run lasts past the half second
    /// before the first draw. Returns what reached the terminal.
    func stderrOnATerminal(extra: [String]) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("python3 needed for a pty") }
        let scratch = try TemporaryDirectory(prefix: "pm-pty")
        let dir = scratch.url
        let fifo = dir.appendingPathComponent("list").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let script = """
            import os, subprocess, sys, threading, time
            binary, fifo, photo = sys.argv[1:4]
            master, slave = os.openpty()
            p = subprocess.Popen([binary, "inspect", "--files-from", fifo, "--jsonl"] + sys.argv[4:],
                                 stdout=subprocess.DEVNULL, stderr=slave, env=dict(os.environ, TERM="xterm"))
            os.close(slave)
            def feed():
                with open(fifo, "w") as f:
                    for _ in range(12):
                        f.write(photo + "\\n"); f.flush(); time.sleep(0.1)
            threading.Thread(target=feed).start()
            out = b""
            while True:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            p.wait()
            sys.stdout.buffer.write(out)
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", script, Photometa.binary.path, fifo, library + "/DSC_0001.JPG"] + extra
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func testProgressOnATerminalOnly() throws {
        let terminal = try stderrOnATerminal(extra: [])
        XCTAssertTrue(terminal.contains("\r\u{1B}[Kphotometa: "), terminal.debugDescription)
        XCTAssertTrue(terminal.contains(" files/s"), terminal.debugDescription)
        XCTAssertTrue(terminal.hasSuffix("\r\u{1B}[K"), "erased at the end: \(terminal.debugDescription)")
        let quiet = try stderrOnATerminal(extra: ["-q"])
        XCTAssertFalse(quiet.contains("files/s"), quiet.debugDescription)
        // Not a terminal (a pipe): never.
        let piped = try Photometa.run(["inspect", "-r", "--jsonl", library])
        XCTAssertFalse(piped.stderr.contains("\u{1B}"), piped.stderr)
        XCTAssertFalse(piped.stderr.contains("files/s"), piped.stderr)
    }
}
