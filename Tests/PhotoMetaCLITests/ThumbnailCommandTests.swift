import Foundation
import XCTest

/// `photometa thumbnail`, `suggest --thumbnail` and `watch --thumbnail`, through the binary.
final class ThumbnailCommandTests: XCTestCase {
    /// The test's own folder (removed with it).
    var scratch: TemporaryDirectory!
    var work: URL!
    var env: [String: String] { ["TZ": "UTC", "XDG_CACHE_HOME": work.appendingPathComponent("cache").path] }

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "pm-thumb")
        work = scratch.url
    }

    override func tearDownWithError() throws { scratch = nil }

    func fixture(_ name: String) -> String { Photometa.root.appendingPathComponent("Fixtures/thumbnails/" + name).path }

    /// A stand-in for the helper that writes its pid to `NAME.pids` and answers nothing for a
    /// minute (a decoder stuck, a stalled disk); returns the script and the pid file.
    func helperThatNeverAnswers(_ name: String) throws -> (script: String, pids: String) {
        let script = work.appendingPathComponent(name + ".sh").path
        let pids = work.appendingPathComponent(name + ".pids").path
        try "#!/bin/sh\necho $$ >> '\(pids)'\nexec sleep 60\n".write(toFile: script, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(script, 0o755), 0)
        return (script, pids)
    }

    func testIntoTheCacheThenFromIt() throws {
        let photo = fixture("orient6.jpg")
        let first = try Photometa.run(["thumbnail", photo], environment: env)
        XCTAssertEqual(first.status, 0, first.stderr)
        let cacheRoot = work.appendingPathComponent("cache/thumbnails/large").path
        XCTAssertTrue(first.stdout.hasPrefix("\(photo) -> \(cacheRoot)/"), first.stdout)
        XCTAssertTrue(first.stdout.hasSuffix(".png (48x64, decoded)\n"), first.stdout)
        let second = try Photometa.run(["thumbnail", "--json", photo], environment: env)
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [[String: Any]])
        let t = try XCTUnwrap(array.first?["thumbnail"] as? [String: Any])
        XCTAssertEqual(t["source"] as? String, "cache")
        XCTAssertEqual(t["format"] as? String, "png")
        XCTAssertEqual(t["width"] as? Int, 48)
        XCTAssertTrue((t["path"] as? String)?.hasPrefix(cacheRoot) == true)
        XCTAssertTrue(array.first?["error"] is NSNull)
        // A hit is answered by photometa itself: no thumbnailer needed (this one would fail).
        var noHelper = env
        noHelper["PHOTOMETA_THUMBNAILER"] = "/bin/false"
        let hit = try Photometa.run(["thumbnail", "--size", "200", photo], environment: noHelper)
        XCTAssertEqual(hit.status, 0, hit.stderr)
        XCTAssertTrue(hit.stdout.hasSuffix(".png (48x64, cache)\n"), hit.stdout)
    }

    /// Without --out the product is the cache's file: a cache that cannot be written (here its
    /// folder's name is taken by a file) fails the file with that reason, never "-" and exit 0.
    func testACacheThatCannotBeWrittenIsAnError() throws {
        let cache = work.appendingPathComponent("blocked").path
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: cache + "/thumbnails", contents: Data()))
        var blocked = env
        blocked["XDG_CACHE_HOME"] = cache
        let r = try Photometa.run(["thumbnail", "--json", fixture("orient1.jpg")], environment: blocked)
        XCTAssertEqual(r.status, 1, r.stdout)
        XCTAssertTrue(r.stderr.contains("made, but not stored: \(cache)/thumbnails is not a folder (give --out DIR)"), r.stderr)
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        XCTAssertTrue(array.first?["thumbnail"] is NSNull)
        XCTAssertTrue((array.first?["error"] as? String)?.contains("not stored") == true, r.stdout)
        // A folder others may write is refused on purpose (a planted link): the message says so.
        try FileManager.default.removeItem(atPath: cache + "/thumbnails")
        try FileManager.default.createDirectory(
            atPath: cache + "/thumbnails/large", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o775])
        XCTAssertEqual(chmod(cache + "/thumbnails", 0o700), 0)
        XCTAssertEqual(chmod(cache + "/thumbnails/large", 0o775), 0)
        let shared = try Photometa.run(["thumbnail", fixture("orient1.jpg")], environment: blocked)
        XCTAssertEqual(shared.status, 1, shared.stdout)
        XCTAssertTrue(shared.stderr.contains("\(cache)/thumbnails/large can be written by other users (mode 775)"), shared.stderr)
        let out = work.appendingPathComponent("out").path
        let kept = try Photometa.run(["thumbnail", "--out", out, fixture("orient1.jpg")], environment: blocked)
        XCTAssertEqual(kept.status, 0, "with --out it is kept: \(kept.stderr)")
    }

    /// A destination that cannot be written is refused before any work, with 74, for --out and
    /// --output alike (a read-only file system: root may not write it either).
    func testAnUnwritableDestinationIsRefusedFirst() throws {
        let readOnly = work.appendingPathComponent("ro").path
        try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
        guard TemporaryMount.tmpfs(at: readOnly, readOnly: true) else { throw XCTSkip("cannot mount a tmpfs here (not root?)") }
        defer { TemporaryMount.unmount(readOnly) }
        let out = try Photometa.run(["thumbnail", "--out", readOnly, fixture("orient1.jpg")], environment: env)
        XCTAssertEqual(out.status, 74, out.stderr)
        XCTAssertTrue(
            out.stderr.contains("cannot use --out \(readOnly): it cannot be written (read-only file system)"), out.stderr)
        let output = try Photometa.run(["thumbnail", "--output", readOnly + "/x.png", fixture("orient1.jpg")], environment: env)
        XCTAssertEqual(output.status, 74, output.stderr)
        XCTAssertTrue(output.stderr.contains("its folder cannot be written"), output.stderr)
    }

    func testOutModesFormatsAndFailures() throws {
        let out = work.appendingPathComponent("thumbs").path
        let r = try Photometa.run(
            [
                "thumbnail", "--out", out, "--crop", "--size", "20x10", "--format", "jpeg", "--jsonl", fixture("orient1.jpg"),
                fixture("huge.png"), fixture("no_video.m4a"), fixture("clip.mp4"),
            ], environment: env)
        XCTAssertEqual(r.status, 1, "some files got none")
        let lines = r.stdout.split(separator: "\n").map {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertEqual(lines.count, 4)
        let first = try XCTUnwrap(lines[0]?["thumbnail"] as? [String: Any])
        XCTAssertEqual(first["path"] as? String, out + "/orient1.jpg.jpg")
        XCTAssertEqual([first["width"] as? Int, first["height"] as? Int], [20, 10])
        XCTAssertEqual(first["format"] as? String, "jpeg")
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/orient1.jpg.jpg")).prefix(2)), [0xFF, 0xD8])
        XCTAssertTrue(lines[1]?["thumbnail"] is NSNull)
        XCTAssertTrue((lines[1]?["error"] as? String)?.contains("more than the limit") == true)
        XCTAssertTrue(r.stderr.contains("photometa: \(fixture("no_video.m4a")): no video frame"), r.stderr)
        XCTAssertEqual((lines[3]?["thumbnail"] as? [String: Any])?["source"] as? String, "video.frame")
        // Without --no-cache, --out still shares: the cache got the fit entry the crop came from.
        let normal = work.appendingPathComponent("cache/thumbnails/normal").path
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: normal).count, 2, "orient1.jpg and clip.mp4")
    }

    func testNeverBesideTheMediaUnlessAskedExactly() throws {
        let photos = work.appendingPathComponent("photos").path
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture("orient1.jpg"), toPath: photos + "/a.jpg")
        let refused = try Photometa.run(["thumbnail", "--out", photos + "/.", photos + "/a.jpg"], environment: env)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("is the file's own folder"), refused.stderr)
        let asked = try Photometa.run(["thumbnail", "--out", photos, "--no-cache", photos + "/a.jpg"], environment: env)
        XCTAssertEqual(asked.status, 0, asked.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: photos + "/a.jpg.png"))
    }

    /// photometa links no image library: the helper process does the thumbnails, and when it is
    /// missing or dies each file gets an error, never a hang or a crash of photometa.
    func testTheHelperProcess() throws {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [Photometa.binary.path]
        let pipe = Pipe()
        ldd.standardOutput = pipe
        try ldd.run()
        let libraries = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        XCTAssertFalse(libraries.contains("libvips"), libraries)
        XCTAssertFalse(libraries.contains("libffmpegthumbnailer"), libraries)
        XCTAssertTrue(libraries.contains("libexif"), "ldd worked: \(libraries)")
        let photo = fixture("orient1.jpg")
        var missing = env
        missing["PHOTOMETA_THUMBNAILER"] = work.appendingPathComponent("nowhere").path
        let gone = try Photometa.run(["thumbnail", "--json", photo, photo], environment: missing)
        XCTAssertEqual(gone.status, 1)
        XCTAssertTrue(
            gone.stderr.contains(
                "PHOTOMETA_THUMBNAILER names \(missing["PHOTOMETA_THUMBNAILER"] ?? ""), which is not an executable file"),
            "the path tried is named: \(gone.stderr)")
        var dying = env
        dying["PHOTOMETA_THUMBNAILER"] = "/bin/false"
        let died = try Photometa.run(["thumbnail", "--jsonl", photo, photo], environment: dying)
        XCTAssertEqual(died.status, 1)
        XCTAssertEqual(died.stdout.split(separator: "\n").count, 2, "one line per file")
        XCTAssertTrue(died.stderr.contains("photometa-thumbnailer exited with status 1 before this file"), died.stderr)
    }

    /// The helper does not link FFmpeg (about 95 libraries that doubled its start): it opens
    /// libffmpegthumbnailer on its first video, already confined, and FFmpeg then stays quiet
    /// (a truncated clip's "corrupted STSD atom" does not reach stderr).
    /// A helper that answers nothing (blocked on a stalled disk, a decoder stuck: no CPU
    /// used, so no CPU limit) is stopped after the answer time limit: the file it hung on
    /// fails with that reason, each file after it gets a new helper, and none is left running.
    func testAHelperThatStopsAnsweringIsStopped() throws {
        let (stuck, pidFile) = try helperThatNeverAnswers("stuck")
        var hanging = env
        hanging["PHOTOMETA_THUMBNAILER"] = stuck
        hanging["PHOTOMETA_HELPER_TIMEOUT_MS"] = "500"
        let started = Date()
        let r = try Photometa.run(["thumbnail", "--jsonl", fixture("orient1.jpg"), fixture("orient6.jpg")], environment: hanging)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "bounded by the limit, not by the helper")
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 2, "one line per file")
        XCTAssertEqual(r.stderr.components(separatedBy: "gave no answer within").count - 1, 2, r.stderr)
        let pids = try String(contentsOfFile: pidFile, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        XCTAssertEqual(pids.count, 2, "a new helper for the second file")
        for pid in pids {
            // Killed, then reaped by whoever started it: gone within a moment.
            let deadline = Date().addingTimeInterval(5)
            while kill(pid, 0) == 0, Date() < deadline { usleep(20_000) }
            XCTAssertNotEqual(kill(pid, 0), 0, "helper \(pid) was stopped")
        }
    }

    /// photometa killed during a batch (SIGKILL: none of its own code runs): the spawner sees it
    /// go and kills the helper, which must not go on decoding, and writing into `--out`,
    /// without it (docs/thumbnails.md).
    func testAHelperDoesNotOutliveAKilledPhotometa() throws {
        let (stuck, pidFile) = try helperThatNeverAnswers("busy")
        var e = env
        e["PHOTOMETA_THUMBNAILER"] = stuck
        let process = Process()
        process.executableURL = Photometa.binary
        process.arguments = ["thumbnail", "--jsonl", "--no-cache", "--out", work.path, fixture("orient1.jpg")]
        process.environment = e
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var helper: Int32?
        let started = Date().addingTimeInterval(30)
        while helper == nil, Date() < started {
            helper = (try? String(contentsOfFile: pidFile, encoding: .utf8))?.split(separator: "\n").first.flatMap { Int32($0) }
            if helper == nil { usleep(20_000) }
        }
        let pid = try XCTUnwrap(helper, "the helper started")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let deadline = Date().addingTimeInterval(10)
        while kill(pid, 0) == 0, Date() < deadline { usleep(20_000) }
        XCTAssertNotEqual(kill(pid, 0), 0, "helper \(pid) outlived photometa")
        if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
    }

    /// A reader that goes away (`| head -1`) ends the batch: the helper is let go instead of
    /// making every thumbnail for no one.
    func testAReaderThatQuitsEndsTheBatch() throws {
        let folder = work.appendingPathComponent("many")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let files = try (0..<400).map { i -> String in
            let path = folder.appendingPathComponent(String(format: "p%03d.jpg", i)).path
            try FileManager.default.linkItem(atPath: fixture("orient1.jpg"), toPath: path)
            return path
        }
        let out = work.appendingPathComponent("made")
        let (first, ended) = try ReaderThatQuits.run(["thumbnail", "--no-cache", "--out", out.path] + files, environment: env)
        XCTAssertTrue(first.hasPrefix(files[0] + " -> "), first)
        XCTAssertTrue(ended)
        let made = try FileManager.default.contentsOfDirectory(atPath: out.path).count
        XCTAssertLessThan(made, files.count, "the batch went on after its reader left")
    }

    /// A greyscale JPEG whose grey ICC profile cannot be read in the relative colorimetric
    /// intent (the sample library's DSC_0001.JPG: no tone curve): libvips refuses to import
    /// through it, which failed the thumbnail; the pixels are now shown as they are.
    func testAGreyProfileLibvipsCannotImportShowsThePixelsAsTheyAre() throws {
        let grey = Photometa.fixture("DSC_0001.JPG")
        let out = work.appendingPathComponent("grey").path
        let r = try Photometa.run(["thumbnail", "--no-cache", "--out", out, grey], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("(16x8, decoded)"), r.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/DSC_0001.JPG.png"))
    }

    func testTheHelperOpensFFmpegOnTheFirstVideo() throws {
        let helper = Photometa.binary.deletingLastPathComponent().appendingPathComponent("photometa-thumbnailer").path
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [helper]
        let pipe = Pipe()
        ldd.standardOutput = pipe
        try ldd.run()
        let libraries = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        XCTAssertTrue(libraries.contains("libvips"), "ldd worked: \(libraries)")
        XCTAssertFalse(libraries.contains("libffmpegthumbnailer"), libraries)
        XCTAssertFalse(libraries.contains("libavcodec"), libraries)
        let clip = try Data(contentsOf: URL(fileURLWithPath: fixture("clip.mp4")))
        let truncated = work.appendingPathComponent("truncated.mp4")
        try clip.prefix(3000).write(to: truncated)
        let out = work.appendingPathComponent("o").path
        let r = try Photometa.run(
            ["thumbnail", "--no-cache", "--out", out, fixture("clip.mp4"), truncated.path], environment: env)
        XCTAssertEqual(r.status, 1, "the truncated clip has no frame")
        XCTAssertTrue(r.stdout.contains("(64x48, video.frame)"), r.stdout)
        let complaints = r.stderr.split(separator: "\n")
        XCTAssertEqual(complaints.count, 1, r.stderr)
        XCTAssertTrue(complaints.first?.hasPrefix("photometa: \(truncated.path): no video frame") == true, r.stderr)
    }

    /// The helper starts with transparent huge pages asked of glibc's malloc
    /// (`glibc.malloc.hugetlb=1`, which glibc reads only at a process's start): a full-size
    /// HEIC decode then faults its planes in 2 MiB at a time. A setting of the user's own comes
    /// after it, and so wins.
    func testTheHelperStartsWithGlibcsHugePageTunable() throws {
        let seen = work.appendingPathComponent("tunables").path
        let helper = work.appendingPathComponent("helper.sh").path
        let script = "#!/bin/sh\nprintf '%s' \"$GLIBC_TUNABLES\" > '\(seen)'\nexit 1\n"
        XCTAssertTrue(FileManager.default.createFile(atPath: helper, contents: Data(script.utf8)))
        XCTAssertEqual(chmod(helper, 0o755), 0)
        var e = env
        e["PHOTOMETA_THUMBNAILER"] = helper
        e["GLIBC_TUNABLES"] = "glibc.malloc.arena_max=3"
        let r = try Photometa.run(["thumbnail", "--no-cache", "--out", work.path, fixture("orient1.jpg")], environment: e)
        XCTAssertEqual(r.status, 1, "this helper makes nothing")
        let tunables = try String(contentsOfFile: seen, encoding: .utf8)
        XCTAssertEqual(tunables, "glibc.malloc.hugetlb=1:glibc.malloc.arena_max=3")
    }

    /// Names with tabs, newlines and backslashes survive the trip to the helper and back.
    /// libvips keeps one error buffer per process and the helper decodes a file per core: two
    /// broken files at once each got both messages, or one got none (VipsErrorGate.swift).
    func testEachFailureCarriesItsOwnMessage() throws {
        // HEIFs whose first box after `ftyp` claims to run far past the end: libheif's message
        // names the file ("PATH: bad seek to N"); truncated JPEGs: libjpeg's names none.
        var files: [String] = []
        for i in 0..<24 {
            let heic = work.appendingPathComponent("broken\(i).heic").path
            var bytes: [UInt8] = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
            bytes += [0x10 + UInt8(i), 0x20, 0x30, 0x40] + Array("free".utf8) + [UInt8](repeating: UInt8(i), count: 64)
            try Data(bytes).write(to: URL(fileURLWithPath: heic))
            let jpeg = work.appendingPathComponent("cut\(i).jpg").path
            let whole = try Data(contentsOf: URL(fileURLWithPath: fixture("orient1.jpg")))
            try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: jpeg))
            files += [heic, jpeg]
        }
        let r = try Photometa.run(["thumbnail", "--jsonl", "--no-cache", "--out", work.path + "/o"] + files, environment: env)
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = r.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertEqual(lines.count, files.count, r.stdout)
        for line in lines {
            let path = try XCTUnwrap(line["path"] as? String)
            let error = try XCTUnwrap(line["error"] as? String, "\(path) failed")
            let others = files.filter { $0 != path && error.contains($0 + ":") }
            XCTAssertEqual(others, [], "\(path): \(error)")
            if path.hasSuffix(".heic") {
                XCTAssertEqual(error.components(separatedBy: path + ":").count, 2, "its own message, once: \(error)")
            } else {
                XCTAssertTrue(error.contains("Premature end of JPEG file"), "a reason: \(error)")
            }
        }
    }

    func testHostileNamesThroughTheHelper() throws {
        let odd = work.appendingPathComponent("a\tb\nc\\d.jpg").path
        try FileManager.default.copyItem(atPath: fixture("orient1.jpg"), toPath: odd)
        let out = work.appendingPathComponent("o").path
        let r = try Photometa.run(["thumbnail", "--json", "--no-cache", "--out", out, odd], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(array.first?["path"] as? String, odd)
        XCTAssertEqual((array.first?["thumbnail"] as? [String: Any])?["path"] as? String, out + "/a\tb\nc\\d.jpg.png")
        let text = try Photometa.run(["thumbnail", "--no-cache", "--out", out, odd], environment: env)
        XCTAssertTrue(text.stdout.contains("a\\tb\\nc"), "text escapes control characters: \(text.stdout)")
    }

    func testUsageErrors() throws {
        for args in [
            ["thumbnail"], ["thumbnail", "--size", "0", "a.jpg"], ["thumbnail", "--size", "9x", "a.jpg"],
            ["thumbnail", "--fill", "a.jpg"], ["thumbnail", "--fast", "a.jpg"], ["thumbnail", "--no-cache", "a.jpg"],
            ["thumbnail", "--format", "gif", "--out", "x", "a.jpg"], ["thumbnail", "--quality", "0", "--out", "x", "a.jpg"],
            ["thumbnail", "--fit", "--crop", "--out", "x", "a.jpg"], ["thumbnail", "--size", "2000", "a.jpg"],
            ["thumbnail", "--json", "--jsonl", "a.jpg"], ["suggest", "--thumbnail=5000"],
        ] {
            let r = try Photometa.run(args, environment: env)
            XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
        }
        let help = try Photometa.run(["thumbnail", "--help"], environment: env)
        XCTAssertEqual(help.status, 0)
        for word in ["--fill", "--crop", "--fast", "--no-cache", "--max-pixels", "embedded.mpf", "video.frame"] {
            XCTAssertTrue(help.stdout.contains(word), word)
        }
    }

    /// The offer carries its thumbnail; a thumbnail failure leaves the offer standing.
    func testSuggestThumbnail() throws {
        let photos = work.appendingPathComponent("photos").path
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture("orient6.jpg"), toPath: photos + "/IMG_1.jpg")
        let old = Date().addingTimeInterval(-10)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: photos + "/IMG_1.jpg")
        let common = ["--now", "2024-01-02T03:04:30Z", "--tz", "UTC", "--no-index"]
        let text = try Photometa.run(
            ["suggest", photos, "--thumbnail", "128", "--state", work.appendingPathComponent("a.sqlite3").path] + common,
            environment: env)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(
            text.stdout.contains("thumbnail: " + work.appendingPathComponent("cache/thumbnails/normal/").path), text.stdout)
        let json = try Photometa.run(
            ["suggest", photos, "--thumbnail", "--json", "--state", work.appendingPathComponent("b.sqlite3").path] + common,
            environment: env)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let t = try XCTUnwrap((object["suggestion"] as? [String: Any])?["thumbnail"] as? [String: Any])
        XCTAssertEqual([t["width"] as? Int, t["height"] as? Int], [48, 64])
        // A HEIC whose image item cannot be decoded (no hvcC): reported, the suggestion stands.
        let broken = work.appendingPathComponent("broken").path
        try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Photometa.fixture("IMG_0001.HEIC"), toPath: broken + "/IMG_0001.HEIC")
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: broken + "/IMG_0001.HEIC")
        let brokenRun = try Photometa.run(
            [
                "suggest", broken, "--thumbnail", "--json", "--now", "2024-05-01T08:20:40Z", "--no-index", "--state",
                work.appendingPathComponent("c.sqlite3").path,
            ], environment: env)
        XCTAssertEqual(brokenRun.status, 0, brokenRun.stderr)
        let b = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(brokenRun.stdout.utf8)) as? [String: Any])
        let s = try XCTUnwrap(b["suggestion"] as? [String: Any])
        XCTAssertEqual(s["path"] as? String, broken + "/IMG_0001.HEIC")
        XCTAssertTrue(s["thumbnail"] is NSNull)
        XCTAssertNotNil(s["thumbnailError"] as? String)
        XCTAssertTrue(brokenRun.stderr.contains("thumbnail:"), brokenRun.stderr)
        // A shared cache that cannot be written (a file where its folder should be): the
        // picture has no file, and that is the error, not a thumbnail dropped without a word.
        let blocked = work.appendingPathComponent("blocked-cache").path
        try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: blocked + "/thumbnails", contents: Data()))
        var blockedEnv = env
        blockedEnv["XDG_CACHE_HOME"] = blocked
        let unstored = try Photometa.run(
            ["suggest", photos, "--thumbnail", "--json", "--state", work.appendingPathComponent("d.sqlite3").path] + common,
            environment: blockedEnv)
        XCTAssertEqual(unstored.status, 0, unstored.stderr)
        let u = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(unstored.stdout.utf8)) as? [String: Any])
        let offer = try XCTUnwrap(u["suggestion"] as? [String: Any])
        XCTAssertTrue(offer["thumbnail"] is NSNull, unstored.stdout)
        XCTAssertTrue((offer["thumbnailError"] as? String)?.contains("made, but not stored") == true, unstored.stdout)
    }
}

extension WatchCommandTests {
    func testWatchThumbnailReachesTheHook() throws {
        let marker = work.appendingPathComponent("hook.txt").path
        let cache = work.appendingPathComponent("cache").path
        let w = try RunningWatch(
            [
                "watch", folder, "--tz", "UTC", "--thumbnail", "128", "--exec", "echo \"$PHOTOMETA_THUMBNAIL\" >> '\(marker)'",
                "--state", work.appendingPathComponent("s.sqlite3").path,
            ], environment: ["XDG_CACHE_HOME": cache])
        XCTAssertTrue(w.wait { w.stderr.contains("watching") })
        try copy("mmexport1700000000000.jpg", to: nowName())
        XCTAssertTrue(w.wait { w.stdout.contains("thumbnail: \(cache)/thumbnails/normal/") }, w.stdout + w.stderr)
        XCTAssertTrue(
            w.wait { (try? String(contentsOfFile: marker, encoding: .utf8))?.contains(cache + "/thumbnails/normal/") == true })
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0)
    }
}
