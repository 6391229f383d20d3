import Foundation
import XCTest

/// `photometa watch` as a process: events on stdout, signals, --exec, the folder vanishing.
final class WatchCommandTests: XCTestCase {
    /// A running `photometa watch` (the support target's runner for long-lived processes).
    typealias RunningWatch = RunningPhotometa

    /// The test's own folder (removed with it).
    var scratch: TemporaryDirectory!
    var work: URL!
    var folder: String { work.appendingPathComponent("photos").path }

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "pm-watch")
        work = scratch.url
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { scratch = nil }

    func nowName() -> String {
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd_HHmmss"
        return "IMG_\(f.string(from: Date())).jpg"
    }

    func copy(_ fixture: String, to name: String) throws {
        try FileManager.default.copyItem(atPath: Photometa.fixture(fixture), toPath: folder + "/" + name)
    }

    func testTextEventsAndSIGINT() throws {
        let w = try RunningWatch(["watch", folder, "--tz", "UTC", "--state", work.appendingPathComponent("s.sqlite3").path])
        XCTAssertTrue(w.wait { w.stderr.contains("watching") }, w.stderr)
        let name = nowName()
        try copy("mmexport1700000000000.jpg", to: name)
        XCTAssertTrue(w.wait { w.stdout.contains("You may want to send: \(folder)/\(name) (photo, taken") }, w.stdout)
        XCTAssertTrue(w.stdout.contains("changes: 1 inserted, 0 removed, 0 changed\n+ \(folder)/\(name)\n"), w.stdout)
        try FileManager.default.removeItem(atPath: folder + "/" + name)
        XCTAssertTrue(w.wait { w.stdout.contains("- \(folder)/\(name)") }, w.stdout)
        kill(w.process.processIdentifier, SIGINT)
        XCTAssertEqual(w.finish(), 0, "SIGINT stops cleanly")
    }

    func testJSONLAndSIGTERM() throws {
        let w = try RunningWatch([
            "watch", folder, "--jsonl", "--tz", "UTC", "--state", work.appendingPathComponent("s.sqlite3").path,
        ])
        // The ready event is on stdout too: a reader waits for it instead of sleeping.
        XCTAssertTrue(w.wait { w.stdout.contains(#""event":"ready""#) }, w.stdout)
        XCTAssertTrue(w.wait { w.stderr.contains("watching") }, w.stderr)
        let name = nowName()
        try copy("mmexport1700000000000.jpg", to: name)
        XCTAssertTrue(w.wait { w.stdout.split(separator: "\n").count >= 3 }, w.stdout)
        let all = w.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertEqual(all.first?["event"] as? String, "ready")
        XCTAssertEqual(all.first?["folders"] as? [String], [folder])
        let events = Array(all.dropFirst())
        XCTAssertEqual(events.first?["event"] as? String, "changes")
        let inserted = events.first?["inserted"] as? [[String: Any]]
        XCTAssertEqual(inserted?.first?["path"] as? String, folder + "/" + name)
        XCTAssertEqual(inserted?.first?["format"] as? String, "jpeg")
        XCTAssertEqual(events.dropFirst().first?["event"] as? String, "suggestion")
        XCTAssertEqual(events.dropFirst().first?["path"] as? String, folder + "/" + name)
        // The watch's offer is the one standing for "+": suggest --standing gives it back.
        let standing = try Photometa.run(
            ["suggest", folder, "--standing", "--json", "--state", work.appendingPathComponent("s.sqlite3").path])
        XCTAssertEqual(standing.status, 0, standing.stdout + standing.stderr)
        XCTAssertTrue(standing.stdout.contains(#""path":"\#(folder)/\#(name)""#), standing.stdout)
        // Its watchers, inspections and signals run on photometa's threads: none is
        // libdispatch's, whose pool would wake it once a second for good.
        XCTAssertEqual(w.dispatchThreads, [], "threads of libdispatch's pool in watch")
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
    }

    /// A camera's RAW+JPEG shot moved in as a folder: the watch offers the JPEG, not the raw
    /// beside it (a DNG, whose name sorts first and is dated the same; the extensions' cases
    /// differ, as the scan's rule allows).
    func testTheRawOfARawPlusJPEGShotIsNotOffered() throws {
        let w = try RunningWatch(["watch", folder, "--tz", "UTC", "--state", work.appendingPathComponent("s.sqlite3").path])
        XCTAssertTrue(w.wait { w.stderr.contains("watching") }, w.stderr)
        let card = work.appendingPathComponent("card").path
        try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: true)
        let shot = String(nowName().dropLast(4))
        // A TIFF-structured raw with a size and no date of its own: dated by its name.
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x02, 0x00]
        for tag: UInt16 in [256, 257] { tiff += [UInt8(tag & 0xFF), UInt8(tag >> 8), 3, 0, 1, 0, 0, 0, 8, 0, 0, 0] }
        tiff += [0, 0, 0, 0]
        try Data(tiff).write(to: URL(fileURLWithPath: card + "/" + shot + ".dng"))
        try FileManager.default.copyItem(
            atPath: Photometa.fixture("mmexport1700000000000.jpg"), toPath: card + "/" + shot + ".JPG")
        try FileManager.default.moveItem(atPath: card, toPath: folder + "/card")
        XCTAssertTrue(w.wait { w.stdout.contains("You may want to send: ") }, w.stdout)
        XCTAssertTrue(w.stdout.contains("You may want to send: \(folder)/card/\(shot).JPG (photo, taken"), w.stdout)
        XCTAssertFalse(w.stdout.contains("You may want to send: \(folder)/card/\(shot).dng"), w.stdout)
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
    }

    /// A raw that lands before its picture (a copy in name order) is offered alone; its JPEG,
    /// landing after it, takes its place.
    func testARawOfferedAloneGivesWayToItsPicture() throws {
        let w = try RunningWatch(["watch", folder, "--tz", "UTC", "--state", work.appendingPathComponent("s.sqlite3").path])
        XCTAssertTrue(w.wait { w.stderr.contains("watching") }, w.stderr)
        let shot = String(nowName().dropLast(4))
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x02, 0x00]
        for tag: UInt16 in [256, 257] { tiff += [UInt8(tag & 0xFF), UInt8(tag >> 8), 3, 0, 1, 0, 0, 0, 8, 0, 0, 0] }
        tiff += [0, 0, 0, 0]
        let staging = work.appendingPathComponent("staging").path
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        try Data(tiff).write(to: URL(fileURLWithPath: staging + "/" + shot + ".dng"))
        try FileManager.default.moveItem(atPath: staging + "/" + shot + ".dng", toPath: folder + "/" + shot + ".dng")
        XCTAssertTrue(w.wait { w.stdout.contains("You may want to send: \(folder)/\(shot).dng") }, w.stdout)
        try FileManager.default.copyItem(
            atPath: Photometa.fixture("mmexport1700000000000.jpg"), toPath: staging + "/" + shot + ".jpg")
        try FileManager.default.moveItem(atPath: staging + "/" + shot + ".jpg", toPath: folder + "/" + shot + ".jpg")
        XCTAssertTrue(w.wait { w.stdout.contains("You may want to send: \(folder)/\(shot).jpg") }, w.stdout)
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
    }

    /// A file renamed within the folder is judged at its new name when the name dates it, as
    /// `suggest` judges it: a photo dated 2023 by its name, renamed to a name of now, is offered
    /// by the watch as by a scan. The offered file renamed again (dated then by its birth time)
    /// is followed, not offered again, and a scan's memory says why.
    func testARenameThatDatesAFileNowOffersItAsAScanWould() throws {
        let state = work.appendingPathComponent("s.sqlite3").path
        let w = try RunningWatch(["watch", folder, "--tz", "UTC", "--state", state])
        XCTAssertTrue(w.wait { w.stderr.contains("watching") }, w.stderr)
        try copy("mmexport1700000000000.jpg", to: "mmexport1700000000000.jpg")
        XCTAssertTrue(w.wait { w.stdout.contains("+ \(folder)/mmexport1700000000000.jpg") }, w.stdout)
        let name = nowName()
        try FileManager.default.moveItem(atPath: folder + "/mmexport1700000000000.jpg", toPath: folder + "/" + name)
        XCTAssertTrue(w.wait { w.stdout.contains("You may want to send: \(folder)/\(name) (photo, taken") }, w.stdout)
        // A scan of the folder, with a memory of its own, offers the same file.
        let scan = try Photometa.run(
            [
                "suggest", folder, "--tz", "UTC", "--peek", "--json", "--no-service", "--state",
                work.appendingPathComponent("scan.sqlite3").path,
            ])
        XCTAssertTrue(scan.stdout.contains(#""path":"\#(folder)/\#(name)""#), scan.stdout)
        try FileManager.default.moveItem(atPath: folder + "/" + name, toPath: folder + "/sent.jpg")
        XCTAssertTrue(w.wait { w.stdout.contains("Withdrawn (moved): \(folder)/\(name) -> \(folder)/sent.jpg") }, w.stdout)
        // With the watch's memory, a scan turns the renamed offer down as the file offered.
        let again = try Photometa.run(
            ["suggest", folder, "--tz", "UTC", "--peek", "--json", "--explain", "--no-service", "--state", state])
        XCTAssertTrue(again.stdout.contains(#""suggestion":null"#), again.stdout)
        XCTAssertTrue(again.stdout.contains("already offered (the file offered, renamed or copied)"), again.stdout)
        // A later look (an old photo copied in) comes after that look's decision.
        try copy("no_offset.jpg", to: "no_offset.jpg")
        XCTAssertTrue(w.wait { w.stdout.contains("+ \(folder)/no_offset.jpg") }, w.stdout)
        XCTAssertEqual(w.stdout.components(separatedBy: "You may want to send").count, 2, "offered once: \(w.stdout)")
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
    }

    /// The hook writes to photometa's stderr: the JSONL stream on stdout stays JSON.
    func testTheHookNeverWritesIntoTheEventStream() throws {
        let w = try RunningWatch([
            "watch", folder, "--jsonl", "--tz", "UTC", "--exec",
            "echo hook-says-hi; echo \"$PHOTOMETA_CAPTURED\"; exec ls /proc/self/fd > '\(work.appendingPathComponent("fds.txt").path)'",
            "--state", work.appendingPathComponent("s.sqlite3").path,
        ])
        XCTAssertTrue(w.wait { w.stdout.contains(#""event":"ready""#) }, w.stdout)
        try copy("mmexport1700000000000.jpg", to: nowName())
        let fdsFile = work.appendingPathComponent("fds.txt").path
        XCTAssertTrue(
            w.wait {
                w.stderr.contains("hook-says-hi")
                    && ((try? String(contentsOfFile: fdsFile, encoding: .utf8)) ?? "").hasSuffix("\n")
            }, w.stderr)
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
        for line in w.stdout.split(separator: "\n") {
            XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(line.utf8)), "not JSON on stdout: \(line)")
        }
        XCTAssertFalse(w.stdout.contains("hook-says-hi"))
        let fds = try String(contentsOf: work.appendingPathComponent("fds.txt"), encoding: .utf8)
        // ls's own: stdin, its output file, stderr, and the /proc/self/fd it is reading.
        XCTAssertEqual(fds.split(separator: "\n"), ["0", "1", "2", "3"], "the hook inherits no descriptor of photometa's")
        XCTAssertTrue(
            w.stderr.contains("Z\n") || w.stderr.contains("Z"), "PHOTOMETA_CAPTURED is an ISO 8601 instant: \(w.stderr)")
    }

    func testExecRunsForSuggestionsAndFailuresAreReported() throws {
        let marker = work.appendingPathComponent("exec.txt").path
        let cmd = "echo \"$PHOTOMETA_KIND $PHOTOMETA_PATH\" >> '\(marker)'; exit 7"
        let w = try RunningWatch([
            "watch", folder, "--tz", "UTC", "--exec", cmd,
            "--state", work.appendingPathComponent("s.sqlite3").path,
        ])
        XCTAssertTrue(w.wait { w.stderr.contains("watching") })
        let name = nowName()
        try copy("mmexport1700000000000.jpg", to: name)
        XCTAssertTrue(w.wait { (try? String(contentsOfFile: marker, encoding: .utf8))?.contains(name) == true })
        XCTAssertEqual(try String(contentsOfFile: marker, encoding: .utf8), "photo \(folder)/\(name)\n")
        XCTAssertTrue(w.wait { w.stderr.contains("--exec command failed (exit 7)") }, w.stderr)
        // Watching goes on.
        try copy("clip.mp4", to: "later.mp4")
        XCTAssertTrue(w.wait { w.stdout.contains("+ \(folder)/later.mp4") }, w.stdout)
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
    }

    func testFolderDisappearingExits1() throws {
        let w = try RunningWatch(["watch", folder, "--no-suggest"])
        XCTAssertTrue(w.wait { w.stderr.contains("watching") })
        try FileManager.default.removeItem(atPath: folder)
        XCTAssertEqual(w.finish(), 1)
        XCTAssertTrue(w.stderr.contains("disappeared"), w.stderr)
    }

    /// One of two watched folders gone (a card pulled out): the watch says so and goes on in
    /// the other, whose new photos are still reported; when the other goes too, it stops (exit
    /// 1), its watcher woken though asleep with no timeout.
    func testOneOfTwoFoldersDisappearingLeavesTheOtherWatched() throws {
        let other = work.appendingPathComponent("other").path
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let w = try RunningWatch(["watch", folder, other, "--no-suggest", "--jsonl"])
        XCTAssertTrue(w.wait { w.stderr.contains("watching") }, w.stderr)
        try FileManager.default.removeItem(atPath: other)
        XCTAssertTrue(w.wait { w.stderr.contains("\(other) disappeared; still watching \(folder)") }, w.stderr)
        XCTAssertTrue(w.wait { w.stdout.contains(#""event":"error""#) && w.stdout.contains("still watching") }, w.stdout)
        try copy("clip.mp4", to: "after.mp4")
        XCTAssertTrue(w.wait { w.stdout.contains("\(folder)/after.mp4") }, w.stdout)
        try FileManager.default.removeItem(atPath: folder)
        XCTAssertEqual(w.finish(), 1, w.stderr)
        XCTAssertTrue(w.stderr.contains("\(other), \(folder) disappeared; stopped watching"), w.stderr)
    }

    /// stdout that cannot be written (here /dev/full; a reader gone is the same): the watch
    /// stops with 74 and the offer it could not print is taken back, so `suggest` makes it.
    func testAStdoutThatFailsStopsTheWatchAndTakesTheOfferBack() throws {
        let state = work.appendingPathComponent("s.sqlite3").path
        let w = try RunningWatch(
            ["-c", #"exec "$0" watch "$1" --tz UTC --state "$2" > /dev/full"#, Photometa.binary.path, folder, state],
            executable: URL(fileURLWithPath: "/bin/sh"))
        XCTAssertTrue(w.wait { w.stderr.contains("watching") }, w.stderr)
        let name = nowName()
        try copy("mmexport1700000000000.jpg", to: name)
        XCTAssertEqual(w.finish(), 74, w.stderr)
        XCTAssertTrue(w.stderr.contains("no space left"), w.stderr)
        // --wait: the copy is under a second old, still settling.
        let again = try Photometa.run(["suggest", folder, "--wait", "5s", "--tz", "UTC", "--state", state])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("You may want to send: \(folder)/\(name)"), again.stdout)
    }

    /// The watched folder's file system unmounted: its path now leads to the folder the mount
    /// covered, so the watch stops (exit 1) as if it had gone. Needs a tmpfs mount (root).
    func testAnUnmountedFolderExits1() throws {
        guard TemporaryMount.tmpfs(at: folder) else { throw XCTSkip("cannot mount a tmpfs here (not root?)") }
        defer { TemporaryMount.unmount(folder) }
        let w = try RunningWatch(["watch", folder, "--no-suggest"])
        XCTAssertTrue(w.wait { w.stderr.contains("watching") }, w.stderr)
        TemporaryMount.unmount(folder)
        XCTAssertEqual(w.finish(), 1, w.stderr)
        XCTAssertTrue(w.stderr.contains("disappeared"), w.stderr)
    }

    /// File systems mounted over and unmounted from a sub-folder (inotify says nothing of the
    /// mount): what the name leads to now is reported, and followed (a file written on the new
    /// file system is an insertion); one mounted over the folder itself ends the watch (exit 1).
    func testFileSystemsMountedAndUnmountedInsideTheFolder() throws {
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try copy("mmexport1700000000000.jpg", to: "sub/under.jpg")
        let w = try RunningWatch(["watch", folder, "--no-suggest"])
        XCTAssertTrue(w.wait { w.stderr.contains("watching") }, w.stderr)
        guard TemporaryMount.tmpfs(at: folder + "/sub") else { throw XCTSkip("cannot mount a tmpfs here (not root?)") }
        defer { TemporaryMount.unmount(folder + "/sub") }
        XCTAssertTrue(w.wait { w.stdout.contains("- \(folder)/sub/under.jpg") }, w.stdout)
        try copy("mmexport1700000000000.jpg", to: "sub/on-tmpfs.jpg")
        XCTAssertTrue(w.wait { w.stdout.contains("+ \(folder)/sub/on-tmpfs.jpg") }, w.stdout)
        TemporaryMount.unmount(folder + "/sub")
        XCTAssertTrue(w.wait { w.stdout.contains("- \(folder)/sub/on-tmpfs.jpg") }, w.stdout)
        XCTAssertTrue(w.wait { w.stdout.contains("+ \(folder)/sub/under.jpg") }, w.stdout)
        XCTAssertTrue(TemporaryMount.tmpfs(at: folder))
        defer { TemporaryMount.unmount(folder) }
        XCTAssertEqual(w.finish(), 1, w.stderr)
        XCTAssertTrue(w.stderr.contains("disappeared"), w.stderr)
    }

    /// A folder given twice (two spellings) and one inside it are watched once: a change is
    /// reported once, under the outer folder as given first.
    func testAFolderGivenTwiceOrInsideAnotherIsWatchedOnce() throws {
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        let w = try RunningWatch(["watch", folder, folder + "/", folder + "/sub", "--no-suggest"])
        XCTAssertTrue(w.wait { w.stderr.contains("watching") }, w.stderr)
        try copy("mmexport1700000000000.jpg", to: "sub/x.jpg")
        XCTAssertTrue(w.wait { w.stdout.contains("+ \(folder)/sub/x.jpg") }, w.stdout)
        try FileManager.default.removeItem(atPath: folder + "/sub/x.jpg")
        XCTAssertTrue(w.wait { w.stdout.contains("- \(folder)/sub/x.jpg") }, w.stdout)
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
        XCTAssertEqual(w.stdout.components(separatedBy: "changes:").count - 1, 2, w.stdout)
    }

    /// The state file removed while a watch runs: the watch records its next offer in a new
    /// file at the path, where `suggest` reads it, not in the removed one (which no name leads
    /// to), so the two never both offer one photo.
    func testAStateFileRemovedDuringTheWatchIsMadeAgain() throws {
        let state = work.appendingPathComponent("s.sqlite3").path
        let w = try RunningWatch(["watch", folder, "--tz", "UTC", "--state", state])
        XCTAssertTrue(w.wait { w.stderr.contains("watching") }, w.stderr)
        let first = nowName().replacingOccurrences(of: ".jpg", with: "a.jpg")
        try copy("mmexport1700000000000.jpg", to: first)
        XCTAssertTrue(w.wait { w.stdout.contains("You may want to send: \(folder)/\(first)") }, w.stdout)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: state + suffix) }
        let second = nowName().replacingOccurrences(of: ".jpg", with: "b.jpg")
        try copy("mmexport1700000000000.jpg", to: second)
        XCTAssertTrue(w.wait { w.stdout.contains("You may want to send: \(folder)/\(second)") }, w.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: state), "recorded in a new file at the path")
        let asked = try Photometa.run(["suggest", folder, "--wait", "5s", "--tz", "UTC", "--state", state])
        XCTAssertEqual(asked.status, 3, asked.stdout + asked.stderr)
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
    }

    func testPollOption() throws {
        let w = try RunningWatch(["watch", folder, "--poll", "200ms", "--no-suggest"])
        XCTAssertTrue(w.wait { w.stderr.contains("polling every") }, w.stderr)
        try copy("clip.mp4", to: "polled.mp4")
        XCTAssertTrue(w.wait { w.stdout.contains("+ \(folder)/polled.mp4") }, w.stdout)
        kill(w.process.processIdentifier, SIGINT)
        XCTAssertEqual(w.finish(), 0)
    }

    /// `--rescan`: the periodic look is said on stderr, and a file the folder's watch hears
    /// nothing of (written through a hard link outside it, as another computer writes on a NAS)
    /// is reported changed; `0` turns the look off, a word is a usage error.
    func testRescanOption() throws {
        let outside = work.appendingPathComponent("outside.jpg").path
        try FileManager.default.copyItem(atPath: Photometa.fixture("mmexport1700000000000.jpg"), toPath: outside)
        XCTAssertEqual(link(outside, folder + "/a.jpg"), 0)
        let w = try RunningWatch(["watch", folder, "--rescan", "300ms", "--no-suggest"])
        // Said after the "before" snapshot was taken: what is written now is a change.
        XCTAssertTrue(w.wait { w.stderr.contains("looking at every file again every 300 ms") }, w.stderr)
        let h = try XCTUnwrap(FileHandle(forWritingAtPath: outside))
        h.seekToEndOfFile()
        h.write(Data([0, 1, 2]))
        h.closeFile()
        XCTAssertTrue(w.wait { w.stdout.contains("~ \(folder)/a.jpg") }, w.stdout)
        kill(w.process.processIdentifier, SIGINT)
        XCTAssertEqual(w.finish(), 0)
        XCTAssertEqual(try Photometa.run(["watch", folder, "--rescan", "often"]).status, 64)
        XCTAssertTrue(try Photometa.run(["watch", "--help"]).stdout.contains("--rescan INTERVAL"))
    }

    func testUnreadableFolderAndUsage() throws {
        let missing = try Photometa.run(["watch", folder + "/missing"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.stderr.contains("cannot read"), missing.stderr)
        let noDir = try Photometa.run(["watch"], environment: ["HOME": work.path, "XDG_CONFIG_HOME": ""])
        XCTAssertEqual(noDir.status, 66, "the pictures folder of this HOME does not exist: \(noDir.stderr)")
        XCTAssertEqual(try Photometa.run(["watch", folder, "--poll", "0s"]).status, 64)
        XCTAssertEqual(
            try Photometa.run(["watch", folder, "--no-suggest", "--exec", "true"]).status, 64, "a hook that could never run")
        let help = try Photometa.run(["watch", "--help"])
        XCTAssertEqual(help.status, 0)
        for word in ["--jsonl", "--exec", "--poll", "PHOTOMETA_PATH", "SIGTERM", "66"] {
            XCTAssertTrue(help.stdout.contains(word), word)
        }
    }
}
