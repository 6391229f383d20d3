import Foundation
import XCTest

/// The thumbnail helper's confinement (docs/sandbox.md), proved from outside: the probe that
/// only debug builds honour (`PHOTOMETA_SANDBOX_PROBE`) tries, once the helper is confined,
/// what a decoder taken over by a hostile file would try, and every attempt must be refused;
/// the kernel's own account (/proc/PID/status) is read while the helper works; `--explain`
/// says what was in force, and a kernel without Landlock or seccomp is said, never silent.
final class ThumbnailerSandboxTests: XCTestCase {
    var scratch: TemporaryDirectory!
    var work: String { scratch.path }
    var env: [String: String] { ["TZ": "UTC", "XDG_CACHE_HOME": work + "/cache"] }
    var helper: String { Photometa.binary.deletingLastPathComponent().appendingPathComponent("photometa-thumbnailer").path }

    override func setUpWithError() throws { scratch = try TemporaryDirectory(prefix: "pm-sandbox") }
    override func tearDownWithError() throws { scratch = nil }

    func fixture(_ name: String) -> String { Photometa.root.appendingPathComponent("Fixtures/thumbnails/" + name).path }

    /// A secret beside nothing the helper is asked about: the file a hostile decoder would read.
    func secret() throws -> String { try scratch.write("private/secret.txt", Array("key\n".utf8)) }

    /// The request `photometa` would send for `files` (cache on, 128 px).
    func job(_ files: [String]) -> Data {
        Data((["options\twidth=128\theight=128\tcache=1"] + files.map { $0 + "\t" }).joined(separator: "\n").utf8 + [0x0A])
    }

    /// The `key=value` fields of the helper's line that starts with `tag`.
    func fields(_ tag: String, in stdout: String) -> [String: String]? {
        guard let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix(tag + "\t") }) else { return nil }
        var out: [String: String] = [:]
        for f in line.split(separator: "\t").dropFirst() {
            let kv = f.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { out[String(kv[0])] = String(kv[1]) }
        }
        return out
    }

    func skipWithoutLandlock(_ confinement: [String: String]?) throws {
        if confinement?["landlock"] == "0" { throw XCTSkip("this kernel has no Landlock: \(confinement ?? [:])") }
    }

    /// Once confined, the helper cannot read a file it was not asked about, create a file
    /// outside its outputs, open a network or unix socket, or start a program; and it still
    /// makes the thumbnails it was asked for.
    func testTheConfinedHelperIsRefusedWhatADecoderNeverNeeds() throws {
        var e = env
        e["PHOTOMETA_SANDBOX_PROBE"] = try secret()
        let r = try Photometa.run(
            [], environment: e, stdin: job([fixture("orient6.jpg"), fixture("clip.mp4")]), executable: helper)
        XCTAssertEqual(r.status, 0, r.stderr)
        let confinement = fields("confinement", in: r.stdout)
        try skipWithoutLandlock(confinement)
        XCTAssertEqual(confinement?["noNewPrivs"], "1", r.stdout)
        XCTAssertEqual(confinement?["seccomp"], "1", r.stdout)
        let probe = try XCTUnwrap(fields("probe", in: r.stdout), r.stdout)
        XCTAssertEqual(probe["open"], "\(EACCES)", "reading a file outside the inputs (Landlock)")
        XCTAssertEqual(probe["create"], "\(EACCES)", "creating a file outside the outputs (Landlock)")
        XCTAssertEqual(probe["inet"], "\(EPERM)", "an AF_INET socket (seccomp)")
        XCTAssertEqual(probe["unix"], "\(EPERM)", "an AF_UNIX socket (seccomp)")
        XCTAssertEqual(probe["exec"], "\(EPERM)", "execve of /bin/true (seccomp)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: work + "/private/probe-created"))
        let replies = r.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }
        XCTAssertEqual(replies.count, 2, r.stdout)
        XCTAssertTrue(replies.allSatisfy { $0.contains("\tok\t") }, r.stdout)
    }

    /// While the helper works, the kernel says it runs with no_new_privs and a seccomp filter
    /// (mode 2). The helper holds after its probe until this test has looked and closed its
    /// end of the pipe (no sleep).
    func testProcStatusShowsNoNewPrivsAndSeccompWhileTheHelperWorks() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: helper)
        var e = ProcessInfo.processInfo.environment.merging(env) { $1 }
        e["PHOTOMETA_SANDBOX_PROBE"] = try secret()
        e["PHOTOMETA_SANDBOX_PROBE_HOLD"] = "1"
        p.environment = e
        let input = Pipe()
        let output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }
        try p.run()
        try input.fileHandleForWriting.write(contentsOf: job([fixture("orient1.jpg")]))
        try input.fileHandleForWriting.close()
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("\nprobe\t") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        let status = try String(contentsOfFile: "/proc/\(p.processIdentifier)/status", encoding: .utf8)
        try output.fileHandleForReading.close()
        XCTAssertEqual(exited.wait(timeout: .now() + 60), .success, "the helper ends once its reader has gone")
        try skipWithoutLandlock(fields("confinement", in: String(decoding: seen, as: UTF8.self)))
        let lines = status.split(separator: "\n").map { $0.replacingOccurrences(of: "\t", with: " ") }
        XCTAssertTrue(lines.contains("NoNewPrivs: 1"), status)
        XCTAssertTrue(lines.contains("Seccomp: 2"), status)
    }

    /// `thumbnail --explain` says how the decoder was confined: a last text line, and a
    /// `confinement` object in JSON (null for an answer from the cache, where no decoder ran).
    func testExplainSaysWhatWasInForce() throws {
        let photo = fixture("orient1.jpg")
        let text = try Photometa.run(["thumbnail", "--explain", photo], environment: env)
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n")
        XCTAssertTrue(lines.dropLast().last?.hasPrefix("confinement: photometa: no_new_privs, ") == true, text.stdout)
        let last = try XCTUnwrap(lines.last)
        XCTAssertTrue(last.hasPrefix("confinement: photometa-thumbnailer: no_new_privs, "), text.stdout)
        XCTAssertTrue(last.contains("address space 8 GiB, CPU 35 s"), text.stdout)
        let json = try Photometa.run(["thumbnail", "--explain", "--json", photo, fixture("orient2.jpg")], environment: env)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertTrue(rows[0]["confinement"] is NSNull, "orient1.jpg came from the cache")
        let c = try XCTUnwrap(rows[1]["confinement"] as? [String: Any], json.stdout)
        XCTAssertEqual(c["noNewPrivs"] as? Bool, true)
        XCTAssertEqual(c["seccomp"] as? Bool, true)
        XCTAssertEqual(c["addressSpace"] as? Int, 8 << 30)
        XCTAssertEqual(c["cpuSeconds"] as? Int, 35)
        XCTAssertEqual((c["notes"] as? [String])?.count, (c["landlock"] is NSNull) ? 1 : 0, json.stdout)
        let plain = try Photometa.run(["thumbnail", "--json", fixture("orient3.jpg")], environment: env)
        XCTAssertFalse(plain.stdout.contains("confinement"), "only with --explain")
    }

    /// On a kernel without Landlock and seccomp (pretended, in this debug build) the helper
    /// says so once on stderr, and `--explain` says what is left in force; thumbnails are made.
    func testAKernelWithoutThemIsSaidNeverSilent() throws {
        var e = env
        e["PHOTOMETA_SANDBOX_PRETEND_MISSING"] = "landlock,seccomp"
        let r = try Photometa.run(
            ["thumbnail", "--explain", "--json", fixture("orient1.jpg"), fixture("clip.mp4")], environment: e)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stderr.components(separatedBy: "photometa-thumbnailer: note: Landlock is not available").count, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("seccomp is not available"), r.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let c = try XCTUnwrap(rows[0]["confinement"] as? [String: Any])
        XCTAssertTrue(c["landlock"] is NSNull)
        XCTAssertEqual(c["seccomp"] as? Bool, false)
        XCTAssertEqual(c["noNewPrivs"] as? Bool, true, "the rest still applies")
        XCTAssertEqual((c["notes"] as? [String])?.count, 2)
        XCTAssertTrue(rows.allSatisfy { $0["thumbnail"] is [String: Any] })
    }

    /// A decoding bomb (here the helper spinning on one file, under a 1 s CPU limit) ends in
    /// that file's error: the files before and after it get their thumbnails, nothing hangs.
    func testACPUBombIsOneFilesErrorNotAStuckBatch() throws {
        var e = env
        e["PHOTOMETA_SANDBOX_PROBE_SPIN"] = "orient2.jpg"
        e["PHOTOMETA_SANDBOX_LIMITS"] = "cpu=1"
        let files = ["orient1.jpg", "orient2.jpg", "orient3.jpg", "orient4.jpg"].map(fixture)
        let r = try Photometa.run(["thumbnail", "--jsonl"] + files, environment: e)
        XCTAssertEqual(r.status, 1)
        let rows = r.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertEqual(rows.map { $0["path"] as? String }, files)
        XCTAssertEqual(rows.map { $0["thumbnail"] is NSNull }, [false, true, false, false], r.stdout)
        XCTAssertEqual(
            rows[1]["error"] as? String,
            "photometa-thumbnailer was killed by signal 24 (SIGXCPU: the CPU time limit) on this file")
    }

    /// Confinement changes nothing a user sees: every thumbnail fixture and the sample library,
    /// through --out and the cache, give the same answers confined and not (pretended missing).
    func testEveryFixtureGivesTheSameAnswerConfinedOrNot() throws {
        let folders = ["Fixtures/thumbnails", "Fixtures/library"].map { Photometa.root.appendingPathComponent($0).path }
        let files = try folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter { !$0.hasPrefix(".") }.map {
                folder + "/" + $0
            }
        }
        var answers: [String] = []
        for (i, missing) in ["", "landlock,seccomp"].enumerated() {
            var e = ["TZ": "UTC", "XDG_CACHE_HOME": work + "/cache\(i)", "PHOTOMETA_SANDBOX_PRETEND_MISSING": missing]
            if missing.isEmpty { e["PHOTOMETA_SANDBOX_PRETEND_MISSING"] = nil }
            let r = try Photometa.run(
                ["thumbnail", "--jsonl", "--out", work + "/out\(i)", "--size", "40"] + files, environment: e)
            answers.append(r.stdout.replacingOccurrences(of: "/out\(i)/", with: "/OUT/"))
        }
        XCTAssertEqual(thumbnailAnswers(answers[0]), thumbnailAnswers(answers[1]))
        XCTAssertEqual(answers[0].split(separator: "\n").count, files.count)
        XCTAssertTrue(answers[0].contains("\"source\":\"video.frame\""), answers[0])
    }
}

/// `thumbnail --jsonl` lines as what they say: the path, the thumbnail object, and the kind of
/// error (its text up to the first ": "): what the confined and unconfined runs must agree on
/// (the decoders' own wording is theirs).
func thumbnailAnswers(_ jsonl: String) -> [String] {
    jsonl.split(separator: "\n").map { line in
        guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return String(line) }
        let error = (o["error"] as? String).map { $0.components(separatedBy: ": ").first ?? $0 } ?? "-"
        let t = (o["thumbnail"] as? [String: Any]).map { t in
            ["path", "width", "height", "source", "format"].map { "\(t[$0] ?? "-")" }.joined(separator: " ")
        }
        return "\(o["path"] ?? "?") | \(t ?? "none") | \(error)"
    }
}
