import Foundation
import PhotoMeta
import PhotoMetaSystem
import XCTest

@testable import PhotoMetaStore

/// `suggest`, `dismiss` and `forget` as separate processes sharing one state file.
final class SuggestCommandTests: XCTestCase {
    /// The test's own folder (removed with it).
    var scratch: TemporaryDirectory!
    var work: URL!
    var folder: String { work.appendingPathComponent("photos").path }
    var state: String { work.appendingPathComponent("state/state.sqlite3").path }
    let now = "2024-08-08T12:08:20Z"

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "pm-suggest")
        work = scratch.url
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try add("IMG_20240808_120810.jpg", from: "mmexport1700000000000.jpg")
        try add("IMG_20240808_120700.jpg", from: "mmexport1700000000000.jpg")
        try add("Screenshot_20240808-120815.png", from: "Screenshot_20240101-120000.png")
    }

    override func tearDownWithError() throws {
        _ = try? Photometa.run(["--version"])  // keep the binary warm; harmless
        scratch = nil
    }

    func add(_ name: String, from fixture: String) throws {
        let dest = folder + "/" + name
        try FileManager.default.copyItem(atPath: Photometa.fixture(fixture), toPath: dest)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: dest)
    }

    func suggest(_ extra: [String] = []) throws -> CommandResult {
        try Photometa.run(
            ["suggest", folder, "--now", now, "--tz", "UTC", "--state", state] + extra,
            environment: ["TZ": "UTC", "XDG_CACHE_HOME": work.appendingPathComponent("cache").path])
    }

    func testOfferedOnceAcrossProcesses() throws {
        let first = try suggest()
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(
            first.stdout,
            "You may want to send: \(folder)/Screenshot_20240808-120815.png (screenshot, taken 5 s ago; zone assumed: Etc/UTC)\n")
        let second = try suggest()
        XCTAssertEqual(second.status, 3)
        XCTAssertEqual(second.stdout, "Nothing new to send.\n")
    }

    /// What is on offer now: the last offer while it stands; gone once dismissed, superseded,
    /// deleted or out of the window. A plain suggest still offers only what is new.
    func testTheStandingOffer() throws {
        XCTAssertEqual(try suggest(["--standing"]).status, 3, "nothing offered yet")
        XCTAssertEqual(try suggest(["--standing"]).stdout, "Nothing on offer.\n")
        XCTAssertEqual(try suggest().status, 0)
        let standing = try suggest(["--standing"])
        XCTAssertEqual(standing.status, 0, standing.stderr)
        XCTAssertEqual(
            standing.stdout,
            "On offer: \(folder)/Screenshot_20240808-120815.png (screenshot, taken 5 s ago; zone assumed: Etc/UTC)\n")
        XCTAssertEqual(try suggest().status, 3, "a plain suggest offers only what is new")
        let json = try suggest(["--standing", "--json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["standing"] as? Bool, true)
        XCTAssertEqual((object["suggestion"] as? [String: Any])?["path"] as? String, folder + "/Screenshot_20240808-120815.png")
        XCTAssertEqual(try suggest(["--standing", "--within", "3s"]).status, 3, "out of the window")
        // Reached through another spelling of the folder: the same file, shown as asked.
        let other = try Photometa.run(
            ["suggest", folder + "/", "--standing", "--now", now, "--tz", "UTC", "--state", state], environment: ["TZ": "UTC"])
        XCTAssertEqual(other.status, 0, other.stderr)
        // Deleted: no longer on offer.
        let moved = work.appendingPathComponent("aside.png").path
        try FileManager.default.moveItem(atPath: folder + "/Screenshot_20240808-120815.png", toPath: moved)
        XCTAssertEqual(try suggest(["--standing"]).status, 3, "the file is gone")
        try FileManager.default.moveItem(atPath: moved, toPath: folder + "/Screenshot_20240808-120815.png")
        XCTAssertEqual(try suggest(["--standing"]).status, 0)
        // Renamed inside the folder with no watch running: found by its identity.
        try FileManager.default.createDirectory(atPath: folder + "/sent", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: folder + "/Screenshot_20240808-120815.png", toPath: folder + "/sent/shot.png")
        let renamed = try suggest(["--standing"])
        XCTAssertEqual(renamed.status, 0, renamed.stderr)
        XCTAssertTrue(renamed.stdout.contains("\(folder)/sent/shot.png"), renamed.stdout)
        // Renamed to a name in progress (a backup's, a download's): no command offers one.
        for name in ["shot.png~", "shot.png.part"] {
            try FileManager.default.moveItem(atPath: folder + "/sent/shot.png", toPath: folder + "/sent/" + name)
            XCTAssertEqual(try suggest(["--standing"]).status, 3, name)
            try FileManager.default.moveItem(atPath: folder + "/sent/" + name, toPath: folder + "/sent/shot.png")
        }
        // Another file under the identity (a file system gives a deleted file's inode number to
        // the next file made): its size and modification time are not the offer's, nor is its
        // capture (its name has no date). Made here by writing the renamed file again.
        let shot = folder + "/sent/shot.png"
        let original = try Data(contentsOf: URL(fileURLWithPath: shot))
        var st = stat()
        XCTAssertEqual(stat(shot, &st), 0)
        try (original + Data([0])).write(to: URL(fileURLWithPath: shot))
        XCTAssertEqual(try suggest(["--standing"]).status, 3, "another file under the offer's identity")
        try original.write(to: URL(fileURLWithPath: shot))
        var times = [st.st_atim, st.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, shot, &times, 0), 0)
        XCTAssertEqual(try suggest(["--standing"]).status, 0, "the offer's content key again")
        try FileManager.default.moveItem(atPath: folder + "/sent/shot.png", toPath: folder + "/Screenshot_20240808-120815.png")
        // Dismissed: withdrawn.
        XCTAssertEqual(try Photometa.run(["dismiss", folder, "--state", state]).status, 0)
        XCTAssertEqual(try suggest(["--standing"]).status, 3, "dismissed")
    }

    func testPeekDoesNotRecord() throws {
        XCTAssertEqual(try suggest(["--peek"]).status, 0)
        XCTAssertEqual(try suggest(["--peek"]).status, 0)
        XCTAssertEqual(try suggest().status, 0)
        XCTAssertEqual(try suggest().status, 3)
    }

    func testJSONAndExplain() throws {
        let r = try suggest(["--json", "--explain", "--screenshots", "exclude"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let s = try XCTUnwrap(obj["suggestion"] as? [String: Any])
        XCTAssertEqual(s["path"] as? String, folder + "/IMG_20240808_120810.jpg")
        XCTAssertEqual(s["kind"] as? String, "photo")
        XCTAssertEqual(s["ageSeconds"] as? Double, 10)
        let captured = try XCTUnwrap(s["captured"] as? [String: Any])
        XCTAssertEqual(captured["source"] as? String, "filename")
        XCTAssertEqual((captured["assumed"] as? [String: Any])?["zone"] as? String, "Etc/UTC")
        XCTAssertEqual(obj["considered"] as? Int, 3)
        let rejected = try XCTUnwrap(obj["rejected"] as? [[String: Any]])
        let rules = Dictionary(
            uniqueKeysWithValues: rejected.compactMap { r -> (String, String)? in
                guard let p = r["path"] as? String, let rule = r["rule"] as? String else { return nil }
                return (String(p.split(separator: "/").last ?? ""), rule)
            })
        XCTAssertEqual(rules, ["IMG_20240808_120700.jpg": "recency", "Screenshot_20240808-120815.png": "screenshots"])
        let none = try suggest(["--json"])
        XCTAssertEqual(none.status, 0, "the screenshot was not offered yet")
        let again = try suggest(["--json"])
        XCTAssertEqual(again.status, 3)
        XCTAssertTrue(again.stdout.hasPrefix(#"{"schema":1,"suggestion":null,"considered":3"#), again.stdout)
    }

    func testTextExplain() throws {
        let r = try suggest(["--explain"])
        let lines = r.stdout.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        // Paths that open from anywhere: the folder as given, joined with the path below it.
        XCTAssertTrue(lines.contains("\(folder)/Screenshot_20240808-120815.png offered"), r.stdout)
        XCTAssertTrue(lines.contains("\(folder)/IMG_20240808_120700.jpg recency: captured 80 s ago, more than 60 s"), r.stdout)
        XCTAssertTrue(lines.contains("\(folder)/IMG_20240808_120810.jpg choice: a newer capture qualifies"), r.stdout)
    }

    func testDismissUntilTheFutureIsAUsageError() throws {
        let r = try Photometa.run(["dismiss", folder, "--until", "2030-01-01T00:00:00", "--tz", "UTC", "--state", state])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.stderr.contains("is in the future"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: state), "nothing recorded")
    }

    /// From another working directory, with the folder given relative to it: every path printed
    /// opens from there (text, --explain, JSON).
    func testPathsOpenFromTheCallersDirectory() throws {
        let args = ["suggest", "photos", "--now", now, "--tz", "UTC", "--state", state, "--peek", "--no-index"]
        let text = try Photometa.run(args + ["--explain"], cwd: work.path)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix("You may want to send: photos/Screenshot_20240808-120815.png ("), text.stdout)
        XCTAssertTrue(text.stdout.contains("\n  photos/IMG_20240808_120700.jpg"), text.stdout)
        let json = try Photometa.run(args + ["--json", "--explain"], cwd: work.path)
        let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let path = try XCTUnwrap((obj["suggestion"] as? [String: Any])?["path"] as? String)
        XCTAssertEqual(path, "photos/Screenshot_20240808-120815.png")
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent(path).path))
        for r in try XCTUnwrap(obj["rejected"] as? [[String: Any]]) {
            let p = try XCTUnwrap(r["path"] as? String)
            XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent(p).path), p)
        }
    }

    func testDismissAndForget() throws {
        let d = try Photometa.run(["dismiss", folder, "--until", now, "--state", state])
        XCTAssertEqual(d.status, 0, d.stderr)
        XCTAssertEqual(d.stdout, "Dismissed everything captured up to \(now), in every folder.\n")
        // The proleptic Gregorian calendar, as --until reads it, to the year 1.
        let y1 = scratch.path + "/y1.sqlite3"
        let first = try Photometa.run(["dismiss", "--until", "0001-01-01T00:00:00Z", "--state", y1])
        XCTAssertTrue(first.stdout.contains("up to 0001-01-01T00:00:00Z"), first.stdout + first.stderr)
        // Whatever number the file holds (here infinity, which SQLite stores for 9e999) is said.
        try SQLiteDatabase(path: y1).execute("UPDATE profile_memory SET remembered = 9e999")
        let infinite = try Photometa.run(["dismiss", "--state", y1])
        XCTAssertEqual(infinite.status, 0, infinite.stderr)
        XCTAssertEqual(try suggest().status, 3, "dismissed")
        let f = try Photometa.run(["forget", folder, "--state", state])
        XCTAssertEqual(f.status, 0)
        XCTAssertTrue(f.stdout.hasPrefix("Forgot"), f.stdout)
        XCTAssertEqual(try suggest().status, 0, "offered again after forget")
        XCTAssertEqual(try Photometa.run(["forget", folder, "--state", state]).status, 0)
        // Without DIR no folder is needed: the memory is the profile's (a home without a
        // pictures folder is no error). A DIR named and missing still is one.
        let home = work.appendingPathComponent("no-pictures").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let env = ["HOME": home, "XDG_CONFIG_HOME": home + "/config"]
        XCTAssertEqual(try Photometa.run(["dismiss", "--state", state], environment: env).status, 0)
        XCTAssertEqual(try Photometa.run(["forget", "--state", state], environment: env).status, 0)
        XCTAssertEqual(try Photometa.run(["forget", home + "/Pictures", "--state", state], environment: env).status, 66)
    }

    func testRacingProcessesNeverLoseAnUpdateNorFailLocked() throws {
        // 12 dismiss processes with different instants and 4 suggests, all at once, on one file.
        let commands =
            (0..<12).map {
                ["dismiss", folder, "--until", String(format: "2024-08-08T11:%02d:00Z", $0), "--state", state]
            }
            + (0..<4).map { _ in
                ["suggest", folder, "--now", now, "--tz", "UTC", "--state", state, "--peek", "--no-index"]
            }
        for (arguments, result) in zip(commands, Photometa.runTogether(commands)) {
            let r = try result.get()
            XCTAssertTrue(r.status == 0 || r.status == 3, "\(arguments): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("locked"), r.stderr)
        }
        let remembered = try SuggestionMemory(path: state).remembered(profile: "default")
        XCTAssertEqual(remembered, 1_723_115_460, "the latest dismissal, 11:11:00Z, is kept")
    }

    /// Eight askers started together on one new photo: exactly one offers it (exit 0, the
    /// photo printed), the others say nothing new (exit 3), because deciding and recording are
    /// one step under the memory's write lock. With and without the index.
    func testRacingAskersGetTheOfferExactlyOnce() throws {
        for extra in [["--no-index"], []] {
            try? FileManager.default.removeItem(atPath: state)
            let commands = (0..<8).map { _ in
                ["suggest", folder, "--now", now, "--tz", "UTC", "--state", state, "--json"] + extra
            }
            let env = ["TZ": "UTC", "XDG_CACHE_HOME": work.appendingPathComponent("cache").path]
            let results = try Photometa.runTogether(commands, environment: env).map { try $0.get() }
            let offered = results.filter { $0.status == 0 }
            XCTAssertEqual(offered.count, 1, results.map { "\($0.status) \($0.stdout) \($0.stderr)" }.joined(separator: "\n"))
            XCTAssertEqual(
                results.filter { $0.status == 3 }.count, 7,
                "\(extra): " + results.map { "\($0.status) \($0.stderr)" }.joined(separator: "\n"))
            XCTAssertTrue(offered.first?.stdout.contains("Screenshot_20240808-120815.png") == true, offered.first?.stdout ?? "")
            for r in results where r.status == 3 {
                XCTAssertTrue(r.stdout.contains(#""suggestion":null"#), r.stdout)
                XCTAssertTrue(r.stdout.contains(#""recorded":false"#), r.stdout)
            }
        }
    }

    /// A screenshot offered, then renamed by the user (`bug.png`: its name's date gone, its
    /// birth time, a moment later, dates it): not offered again by the next `suggest`.
    func testTheOfferedScreenshotRenamedIsNotOfferedAgain() throws {
        let shots = work.appendingPathComponent("shots").path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd-HHmmss"
        let name = "Screenshot_\(f.string(from: Date(timeIntervalSinceNow: -5))).png"
        try FileManager.default.copyItem(atPath: Photometa.fixture("Screenshot_20240101-120000.png"), toPath: shots + "/" + name)
        let ask = ["suggest", shots, "--tz", "UTC", "--state", state, "--wait", "3s"]
        let env = ["TZ": "UTC", "XDG_CACHE_HOME": work.appendingPathComponent("cache").path]
        let first = try Photometa.run(ask, environment: env)
        XCTAssertEqual(first.status, 0, first.stdout + first.stderr)
        XCTAssertTrue(first.stdout.contains(name), first.stdout)
        XCTAssertEqual(rename(shots + "/" + name, shots + "/bug.png"), 0)
        let again = try Photometa.run(ask + ["--explain"], environment: env)
        XCTAssertEqual(again.status, 3, again.stdout + again.stderr)
        XCTAssertTrue(again.stdout.contains("the file offered, renamed or copied"), again.stdout)
    }

    func testCorruptStateFileIsNamedAndKept() throws {
        try FileManager.default.createDirectory(
            atPath: (state as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let garbage = Data(repeating: 0x7A, count: 2048)
        try garbage.write(to: URL(fileURLWithPath: state))
        let r = try suggest()
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains(state), r.stderr)
        XCTAssertTrue(r.stderr.contains("--state"), r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: state)), garbage, "never silently replaced")
    }

    func testMissingFolderExits66() throws {
        let r = try Photometa.run(["suggest", folder + "/nope", "--state", state])
        XCTAssertEqual(r.status, 66)
        XCTAssertTrue(r.stderr.contains("cannot read \(folder)/nope: no such file or directory"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: state), "no state written")
    }

    /// A folder without read permission is the analogue of a photo library whose permission
    /// was denied. Root reads everything, so as root the binary runs as `nobody` (setpriv).
    func testFolderWithoutPermissionExits66() throws {
        let locked = work.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: locked.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: work.path)
        let stateForNobody = "/tmp/pm-nobody-\(UUID().uuidString)/state.sqlite3"
        let (status, message) = try runUnprivileged(
            ["suggest", locked.path, "--state", stateForNobody],
            skipReason: "cannot drop privileges to test a denied folder")
        XCTAssertEqual(status, 66, message)
        XCTAssertTrue(message.contains("photometa: cannot read \(locked.path): permission denied"), message)
        XCTAssertTrue(message.contains("hint:"), message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stateForNobody), "no state written")
    }

    /// A state file the user may not write (as root: run as `nobody`, who does not own it).
    func testReadOnlyStateFileIsNamedAndKept() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("needs root and setpriv to make a state file read-only for the process")
        }
        let d = try Photometa.run(["dismiss", folder, "--until", "2024-08-08T11:00:00Z", "--state", state])
        XCTAssertEqual(d.status, 0, d.stderr)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: work.path)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: (state as NSString).deletingLastPathComponent)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: state))
        let (status, message) = try runUnprivileged(
            ["dismiss", folder, "--state", state],
            skipReason: "cannot make the state file read-only")
        XCTAssertEqual(status, 1, message)
        XCTAssertTrue(message.contains(state), message)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: state)), before, "the memory is not overwritten")
    }

    /// Runs the binary without root's powers: as `nobody` through setpriv when the tests run as
    /// root (root reads and writes everything), directly otherwise. Returns status and stderr.
    func runUnprivileged(_ arguments: [String], skipReason: String) throws -> (Int32, String) {
        var exe = Photometa.binary.path
        var args = arguments
        if getuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                throw XCTSkip("running as root without setpriv: \(skipReason)")
            }
            args = ["--reuid=65534", "--regid=65534", "--clear-groups", exe] + args
            exe = "/usr/bin/setpriv"
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        p.environment = ["HOME": "/tmp", "PATH": "/usr/bin:/bin"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    func testUsageErrors() throws {
        for extra in [["--within", "soon"], ["--screenshots", "maybe"], ["--now", "yesterday"], ["--bogus"]] {
            let r = try suggest(extra)
            XCTAssertEqual(r.status, 64, "\(extra): \(r.stderr)")
        }
        let long = try suggest(["--within", "3651d"])
        XCTAssertEqual(long.status, 64)
        XCTAssertTrue(long.stderr.contains("--within '3651d' is longer than the longest allowed, 3650d"), long.stderr)
        for command in ["suggest", "dismiss", "forget"] {
            let empty = try Photometa.run([command, folder, "--state", ""])
            XCTAssertEqual(empty.status, 64, "\(command) --state '': \(empty.stderr)")
            XCTAssertTrue(empty.stderr.contains("--state needs a path"), empty.stderr)
        }
        // Without DIR: the pictures folder, which this HOME does not have.
        let noDir = try Photometa.run(["suggest", "--state", state], environment: ["HOME": work.path, "XDG_CONFIG_HOME": ""])
        XCTAssertEqual(noDir.status, 66, noDir.stderr)
        XCTAssertTrue(noDir.stderr.contains("hint: no folder was given"), noDir.stderr)
        XCTAssertTrue(noDir.stderr.contains(work.path + "/Pictures"), noDir.stderr)
        XCTAssertEqual(try Photometa.run(["suggest", folder, folder + "/missing", "--state", state]).status, 66)
        let help = try Photometa.run(["suggest", "--help"])
        XCTAssertEqual(help.status, 0)
        for word in [
            "--within", "--now", "--tz", "--screenshots", "--videos", "--peek", "--explain", "--json", "--state", "66", "3",
        ] {
            XCTAssertTrue(help.stdout.contains(word), word)
        }
    }
}

/// A Motion Photo's evidence is the file's own: an answer from the index states it as a fresh
/// parse does (index schema 7).
final class MotionPhotoIndexTests: XCTestCase {
    func testAMotionPhotoKeepsItsEvidenceThroughTheIndex() throws {
        let dir = try TemporaryDirectory(prefix: "pm-motion")
        let photo = try dir.copy(TestPaths.fixtures.appendingPathComponent("formats/motion.MP.jpg").path)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -10)], ofItemAtPath: photo)
        let env = ["XDG_CACHE_HOME": dir.path + "/cache", "XDG_STATE_HOME": dir.path + "/state"]
        for pass in ["parsed", "from the index"] {
            let r = try Photometa.run(
                ["suggest", dir.path, "--json", "--peek", "--within", "3650d", "--no-service"], environment: env)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains(#""livePhotoEvidence":"motionPhoto.google""#), "\(pass): \(r.stdout)")
        }
    }
}
