import Foundation
import XCTest

/// photometa's own confinement in the commands that parse untrusted files (docs/sandbox.md):
/// the probe that only debug builds honour (`PHOTOMETA_SANDBOX_PROBE`, said on stderr) shows
/// what each command can no longer do; /proc/PID/status is read while a `watch` and a `serve`
/// run; `watch --exec` hooks still run, outside the confinement, through the spawner.
final class SelfConfinementTests: XCTestCase {
    var scratch: TemporaryDirectory!
    var work: String { scratch.path }
    var photos: String { work + "/photos" }
    var env: [String: String] {
        [
            "TZ": "UTC", "XDG_STATE_HOME": work + "/state", "XDG_CACHE_HOME": work + "/cache",
            "XDG_RUNTIME_DIR": work + "/run",
        ]
    }

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "pm-confined")
        for dir in [photos, work + "/run", work + "/hook"] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        XCTAssertEqual(chmod(work + "/run", 0o700), 0)
    }

    override func tearDownWithError() throws { scratch = nil }

    /// A file outside everything photometa writes: the probe reads it and creates a file beside it.
    func secret() throws -> String { try scratch.write("hook/secret.txt", Array("key\n".utf8)) }

    /// The probe's `name=errno` pairs from stderr (`photometa: probe open=0 create=13 ...`).
    func probe(_ stderr: String) throws -> [String: Int32] {
        let line = try XCTUnwrap(stderr.split(separator: "\n").first { $0.hasPrefix("photometa: probe ") }, stderr)
        var out: [String: Int32] = [:]
        for pair in line.dropFirst("photometa: probe ".count).split(separator: " ") {
            let kv = pair.split(separator: "=")
            if kv.count == 2, let v = Int32(kv[1]) { out[String(kv[0])] = v }
        }
        if out["create"] == 0 { throw XCTSkip("this kernel has no Landlock: \(line)") }
        return out
    }

    /// inspect reads what it is given, and cannot write, open any socket or run a program.
    func testInspectCanReadButNotWriteConnectOrExecute() throws {
        var e = env
        e["PHOTOMETA_SANDBOX_PROBE"] = try secret()
        let r = try Photometa.run(["inspect", Photometa.fixture("clip.mp4")], environment: e)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("format:   mp4"), r.stdout)
        XCTAssertEqual(try probe(r.stderr), ["open": 0, "create": EACCES, "inet": EPERM, "unix": EPERM, "exec": EPERM])
        XCTAssertFalse(FileManager.default.fileExists(atPath: work + "/hook/probe-created"))
        XCTAssertFalse(r.stderr.contains("note:"), "everything in force, on one thread: \(r.stderr)")
    }

    /// suggest keeps its unix sockets (the live library, the spawner) and its state, nothing
    /// else; the offer is recorded (the second run offers nothing) and its thumbnail made by
    /// the helper the spawner starts.
    func testSuggestKeepsItsStateAndUnixSocketsOnly() throws {
        let photo = photos + "/mmexport1700000000000.jpg"
        try FileManager.default.copyItem(atPath: Photometa.fixture("mmexport1700000000000.jpg"), toPath: photo)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: photo)
        var e = env
        e["PHOTOMETA_SANDBOX_PROBE"] = try secret()
        let args = ["suggest", photos, "--now", "2023-11-14T22:14:00Z", "--json", "--thumbnail", "64"]
        let first = try Photometa.run(args, environment: e)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try probe(first.stderr), ["open": 0, "create": EACCES, "inet": EPERM, "unix": 0, "exec": EPERM])
        XCTAssertTrue(first.stdout.contains(#""source":"decoded""#), first.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: work + "/state/photometa/state.sqlite3"))
        XCTAssertFalse(first.stderr.contains("note:"), first.stderr)
        let second = try Photometa.run(args, environment: env)
        XCTAssertEqual(second.status, 3, "already offered: the confined run recorded it\n" + second.stdout)
    }

    /// A confined watch cannot write beside the secret, but its --exec hook, started by the
    /// spawner outside the confinement, can; the kernel shows the watch under no_new_privs and
    /// seccomp while it runs.
    func testWatchHooksStillRunAndTheKernelShowsTheConfinement() throws {
        var e = env
        e["PHOTOMETA_SANDBOX_PROBE"] = try secret()
        let ran = work + "/hook/ran.txt"
        let w = try RunningPhotometa(
            ["watch", photos, "--tz", "UTC", "--exec", "echo \"$PHOTOMETA_PATH\" > '\(ran)'; echo hook-ran >&2"],
            environment: e)
        XCTAssertTrue(w.wait { w.stderr.contains("watching") }, w.stderr)
        let status = try String(contentsOfFile: "/proc/\(w.process.processIdentifier)/status", encoding: .utf8)
        XCTAssertEqual(try probe(w.stderr)["create"], EACCES, "the watch itself cannot write in hook/")
        XCTAssertEqual(try probe(w.stderr)["exec"], EPERM)
        let lines = status.split(separator: "\n").map { $0.replacingOccurrences(of: "\t", with: " ") }
        XCTAssertTrue(lines.contains("NoNewPrivs: 1"), status)
        XCTAssertTrue(lines.contains("Seccomp: 2"), status)
        XCTAssertFalse(w.stderr.contains("note:"), w.stderr)
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd_HHmmss"
        let name = "IMG_\(f.string(from: Date())).jpg"
        try FileManager.default.copyItem(atPath: Photometa.fixture("mmexport1700000000000.jpg"), toPath: photos + "/" + name)
        XCTAssertTrue(w.wait { w.stderr.contains("hook-ran") }, w.stderr)
        XCTAssertEqual(try String(contentsOfFile: ran, encoding: .utf8), photos + "/" + name + "\n")
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
    }

    /// serve binds its socket in the runtime folder and answers suggest while confined.
    func testServeIsConfinedAndStillAnswers() throws {
        var e = env
        e["PHOTOMETA_SANDBOX_PROBE"] = try secret()
        let s = try RunningPhotometa(["serve", photos], environment: e)
        XCTAssertTrue(s.wait { s.stderr.contains("serving") }, s.stderr)
        XCTAssertEqual(try probe(s.stderr), ["open": 0, "create": EACCES, "inet": EPERM, "unix": 0, "exec": EPERM])
        let status = try String(contentsOfFile: "/proc/\(s.process.processIdentifier)/status", encoding: .utf8)
        XCTAssertTrue(status.contains("Seccomp:\t2"), status)
        XCTAssertFalse(s.stderr.contains("note:"), s.stderr)
        let status2 = try Photometa.run(["status", photos], environment: env)
        XCTAssertEqual(status2.status, 0, status2.stdout + status2.stderr)
        kill(s.process.processIdentifier, SIGTERM)
        XCTAssertEqual(s.finish(), 0)
    }

    /// Confinement changes no answer: inspect -r over every fixture (the library, the formats,
    /// the fuzzing regressions, the thumbnails) prints the same confined and not, and the
    /// confined helper thumbnails the fuzzing regressions as an unconfined one does.
    func testTheFixturesAndTheRegressionsAnswerTheSameConfinedOrNot() throws {
        let fixtures = Photometa.root.appendingPathComponent("Fixtures").path
        var answers: [CommandResult] = []
        for off in ["0", "1"] {
            var e = env
            e["PHOTOMETA_SANDBOX_OFF"] = off
            answers.append(try Photometa.run(["inspect", "-r", "--jsonl", "--keep-going", fixtures], environment: e))
        }
        XCTAssertEqual(answers[0].status, answers[1].status)
        XCTAssertEqual(answers[0].stdout, answers[1].stdout)
        XCTAssertEqual(answers[0].stderr, answers[1].stderr)
        XCTAssertGreaterThan(answers[0].stdout.split(separator: "\n").count, 50)
        // Not png-xmp-inflate-bomb: libvips spends 7 s inflating its XMP, confined or not.
        let regressions = try FileManager.default.contentsOfDirectory(atPath: fixtures + "/fuzz").sorted().filter {
            $0 != "png-xmp-inflate-bomb"
        }.map { fixtures + "/fuzz/" + $0 }
        var thumbnails: [String] = []
        for (i, missing) in ["", "landlock,seccomp"].enumerated() {
            var e = env
            e["XDG_CACHE_HOME"] = work + "/cache\(i)"
            if !missing.isEmpty { e["PHOTOMETA_SANDBOX_PRETEND_MISSING"] = missing }
            let r = try Photometa.run(["thumbnail", "--jsonl", "--size", "32"] + regressions, environment: e)
            thumbnails.append(r.stdout.replacingOccurrences(of: work + "/cache\(i)", with: "CACHE"))
        }
        XCTAssertEqual(thumbnailAnswers(thumbnails[0]), thumbnailAnswers(thumbnails[1]))
        XCTAssertEqual(thumbnails[0].split(separator: "\n").count, regressions.count)
    }
}
