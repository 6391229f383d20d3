import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaSystem

/// `photometa serve` as a process, and `suggest` answered from it: in every situation the
/// service's answer equals a full scan's (`--no-service --no-index`), key for key. No waits
/// for the service to notice a change: a request reads the events queued before it first.
final class ServeCommandTests: XCTestCase {
    var scratch: TemporaryDirectory!
    var folder: String { scratch.path + "/photos" }
    var outside: String { scratch.path + "/elsewhere" }
    var env: [String: String] {
        [
            "TZ": "UTC", "XDG_RUNTIME_DIR": scratch.path + "/run", "XDG_STATE_HOME": scratch.path + "/state",
            "XDG_CACHE_HOME": scratch.path + "/cache",
        ].merging(extraEnvironment) { _, extra in extra }
    }
    /// More of the environment every run of the test gets.
    var extraEnvironment: [String: String] = [:]
    let now = "2024-08-08T12:08:20Z"
    var serve: RunningPhotometa?

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "pm-serve")
        for dir in [folder, outside, scratch.path + "/run"] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        XCTAssertEqual(chmod(scratch.path + "/run", 0o700), 0)
        try add("IMG_20240808_120700.jpg")
        try add("IMG_20240808_120810.jpg")
        try add("Screenshot_20240808-120815.png", from: "Screenshot_20240101-120000.png")
        try add("IMG_0001.HEIC", from: "IMG_0001.HEIC")
        try add("IMG_0001.MOV", from: "IMG_0001.MOV")
        try add("notes.txt", from: "notes.txt")
    }

    override func tearDownWithError() throws {
        if let serve {
            kill(serve.process.processIdentifier, SIGTERM)
            XCTAssertEqual(serve.finish(), 0, "SIGTERM stops serve cleanly")
        }
        scratch = nil
    }

    /// Copies a fixture into `dir` (default the folder) as `name`, modified an hour ago.
    func add(_ name: String, from fixture: String = "mmexport1700000000000.jpg", in dir: String? = nil) throws {
        let path = (dir ?? folder) + "/" + name
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: TestPaths.fixture(fixture), toPath: path)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path)
    }

    /// serve stopped on its own (exit 1), saying its folder disappeared.
    func assertServeStopsAsGone(file: StaticString = #filePath, line: UInt = #line) throws {
        let s = try XCTUnwrap(serve, file: file, line: line)
        XCTAssertTrue(s.wait { !s.process.isRunning }, "serve stops", file: file, line: line)
        XCTAssertEqual(s.finish(), 1, file: file, line: line)
        XCTAssertTrue(s.stderr.contains("disappeared"), s.stderr, file: file, line: line)
        serve = nil
    }

    func startServe(file: StaticString = #filePath, line: UInt = #line) throws {
        let s = try RunningPhotometa(["serve", folder], environment: env)
        serve = s
        XCTAssertTrue(s.wait { s.stderr.contains("photometa: serving") }, s.stderr, file: file, line: line)
    }

    /// `suggest --json --explain --peek` as an object, without the keys that may differ
    /// between two asks (`from`, and the milliseconds to wait, which follow the real clock).
    func suggest(_ extra: [String], explain: Bool = true, asked: String? = nil) throws -> [String: Any] {
        let r = try Photometa.run(
            ["suggest", asked ?? folder, "--json", "--peek", "--videos", "--within", "1h", "--now", now]
                + (explain ? ["--explain"] : [])
                + extra,
            environment: env)
        XCTAssertTrue([0, 3, 4].contains(r.status), r.stderr)
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
        object["from_"] = object.removeValue(forKey: "from")
        if var p = object["pending"] as? [String: Any] {
            p.removeValue(forKey: "retryAfterMs")
            object["pending"] = p
        }
        return object
    }

    /// The service's answer equals the scan's, and came from the service.
    /// `asked`: the folder asked about (default the served folder; a sub-folder of it too).
    func assertExact(_ situation: String, asked: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        var live = try suggest([], asked: asked)
        var scanned = try suggest(["--no-service", "--no-index"], asked: asked)
        XCTAssertEqual(live["from_"] as? String, "service", situation, file: file, line: line)
        XCTAssertEqual(scanned["from_"] as? String, "scan", situation, file: file, line: line)
        live.removeValue(forKey: "from_")
        scanned.removeValue(forKey: "from_")
        XCTAssertEqual(NSDictionary(dictionary: live), NSDictionary(dictionary: scanned), situation, file: file, line: line)
        // recent: the service's listing equals a scan's, rows and order.
        let listed = try Photometa.run(
            ["recent", asked ?? folder, "--json", "-n", "3", "--kind", "photo", "--kind", "video"], environment: env)
        let listedScan = try Photometa.run(
            ["recent", asked ?? folder, "--json", "-n", "3", "--kind", "photo", "--kind", "video", "--no-service", "--no-index"],
            environment: env)
        XCTAssertEqual(listed.stdout, listedScan.stdout, situation, file: file, line: line)
        // Without --explain the service skips what recency certainly turns down: the same answer.
        var quick = try suggest([], explain: false, asked: asked)
        var quickScan = try suggest(["--no-service", "--no-index"], explain: false, asked: asked)
        XCTAssertEqual(quick.removeValue(forKey: "from_") as? String, "service", situation, file: file, line: line)
        quickScan.removeValue(forKey: "from_")
        XCTAssertEqual(NSDictionary(dictionary: quick), NSDictionary(dictionary: quickScan), situation, file: file, line: line)
        // And so does a scan with the index, which passes over the folders it summarised as too old.
        var quickIndexed = try suggest(["--no-service"], explain: false, asked: asked)
        quickIndexed.removeValue(forKey: "from_")
        XCTAssertEqual(
            NSDictionary(dictionary: quickIndexed), NSDictionary(dictionary: quickScan), situation, file: file, line: line)
    }

    /// A RAW+JPEG shot arriving one file at a time: the raw alone is offered, then its JPEG
    /// once it lands beside it, then the raw again when the JPEG goes; the service answers as a
    /// scan does at each step (a raw's or a picture's name beside raws is looked at by listing).
    func testTheRawOfARawPlusJPEGShotAsItArrives() throws {
        try startServe()
        // A TIFF-structured raw with a size and no date of its own: dated by its name.
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x02, 0x00]
        for tag: UInt16 in [256, 257] { tiff += [UInt8(tag & 0xFF), UInt8(tag >> 8), 3, 0, 1, 0, 0, 0, 8, 0, 0, 0] }
        tiff += [0, 0, 0, 0]
        let raw = folder + "/IMG_20240808_120818.dng"
        try Data(tiff).write(to: URL(fileURLWithPath: raw))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: raw)
        try assertExact("a raw alone")
        XCTAssertEqual((try suggest([])["suggestion"] as? [String: Any])?["path"] as? String, folder + "/IMG_20240808_120818.dng")
        try add("IMG_20240808_120818.jpg")
        try assertExact("its JPEG beside it")
        XCTAssertEqual((try suggest([])["suggestion"] as? [String: Any])?["path"] as? String, folder + "/IMG_20240808_120818.jpg")
        try FileManager.default.removeItem(atPath: folder + "/IMG_20240808_120818.jpg")
        try assertExact("the JPEG gone")
        XCTAssertEqual((try suggest([])["suggestion"] as? [String: Any])?["path"] as? String, folder + "/IMG_20240808_120818.dng")
    }

    func testEveryAnswerEqualsAScan() throws {
        try startServe()
        try assertExact("at the start")
        try add("IMG_20240808_120818.jpg")
        try assertExact("a new file written in place")
        try add("IMG_20240808_120819.jpg", in: outside)
        XCTAssertEqual(rename(outside + "/IMG_20240808_120819.jpg", folder + "/IMG_20240808_120819.jpg"), 0)
        try assertExact("a file moved in")
        try add("IMG_20240808_120817.jpg.part")
        XCTAssertEqual(rename(folder + "/IMG_20240808_120817.jpg.part", folder + "/IMG_20240808_120817.jpg"), 0)
        try assertExact("renamed from a temporary name")
        try add("IMG_20240808_120819.jpg", from: "IMG_20240315_093012.jpg")
        try assertExact("an old name rewritten in place with another photo")
        try FileManager.default.removeItem(atPath: folder + "/IMG_20240808_120819.jpg")
        try assertExact("the would-be offer deleted")
        XCTAssertEqual(rename(folder + "/IMG_20240808_120818.jpg", folder + "/IMG_20240808_120758.jpg"), 0)
        try assertExact("the would-be offer renamed")
        try FileManager.default.createDirectory(atPath: folder + "/new/deeper", withIntermediateDirectories: true)
        try add("IMG_20240808_120816.jpg", in: folder + "/new/deeper")
        try assertExact("a new sub-folder with files")
        try FileManager.default.createDirectory(atPath: outside + "/trip", withIntermediateDirectories: true)
        try add("IMG_20240808_120812.jpg", in: outside + "/trip")
        XCTAssertEqual(rename(outside + "/trip", folder + "/trip"), 0)
        try assertExact("a folder moved in from outside")
        XCTAssertEqual(rename(folder + "/trip", outside + "/trip-back"), 0)
        try assertExact("a folder moved out")
        // Half a photo, just written: the scan says pending; so must the service.
        let bytes = try TestPaths.bytes("mmexport1700000000000.jpg")
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: folder + "/IMG_20240808_120819.jpg", contents: Data(bytes.prefix(bytes.count / 2))))
        try assertExact("a file still being written")
        // A sidecar dates its picture: written, the picture's answer changes with it.
        try FileManager.default.copyItem(
            atPath: TestPaths.fixtures.appendingPathComponent("sidecars/darktable/IMG_1234.CR2.xmp").path,
            toPath: folder + "/IMG_20240808_120700.jpg.xmp")
        try assertExact("a sidecar written beside a picture")
        XCTAssertTrue(try suggest([])["pending"] is [String: Any], "pending")
    }

    /// Clients that connect and say nothing hold no one else: their requests are read as they
    /// come, and another client is answered meanwhile (before, each silent one held the service
    /// for up to 100 ms, and the next asker scanned).
    func testSilentClientsHoldNoOne() throws {
        try startServe()
        let runtime = scratch.path + "/run/photometa"
        let registration = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: runtime).first { $0.hasSuffix(".json") })
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: runtime + "/" + registration)))
        let socket = try XCTUnwrap((object as? [String: Any])?["socket"] as? String)
        let silent = try (0..<5).map { _ in try UnixSocket.connect(path: socket, timeoutMilliseconds: 1000) }
        let answered = try suggest([], explain: false)
        XCTAssertEqual(answered["from_"] as? String, "service", "five silent clients held the service")
        XCTAssertEqual(silent.count, 5)
    }

    /// A folder below the served one is answered by the service, exactly as a walk of it: a
    /// link to a file elsewhere in the served folder is left out (that walk would not follow
    /// it out), a link inside it is followed. With an --exclude on either side, the client scans.
    func testAFolderBelowTheServedOneIsAnswered() throws {
        let sub = folder + "/sub"
        try FileManager.default.createDirectory(atPath: sub + "/deeper", withIntermediateDirectories: true)
        try add("IMG_20240808_120811.jpg", in: sub)
        try add("IMG_20240808_120812.jpg", in: sub + "/deeper")
        try add("IMG_20240808_120819.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: sub + "/out.jpg", withDestinationPath: folder + "/IMG_20240808_120819.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: sub + "/in.jpg", withDestinationPath: sub + "/deeper/IMG_20240808_120812.jpg")
        try startServe()
        try assertExact("a sub-folder", asked: sub)
        try assertExact("a sub-folder's sub-folder", asked: sub + "/deeper")
        let skipped = try XCTUnwrap(try suggest([], asked: sub)["skipped"] as? [[String: Any]])
        XCTAssertTrue(skipped.contains { ($0["path"] as? String)?.hasSuffix("/out.jpg") == true }, "\(skipped)")
        try add("IMG_20240808_120813.jpg", in: sub)
        try assertExact("a sub-folder after a change", asked: sub)
        let excluded = try suggest(["--exclude", "deeper"], asked: sub)
        XCTAssertEqual(excluded["from_"] as? String, "scan", "patterns are relative to the folder asked: the client scans")
    }

    /// The library type asks the service too, and lists what a scan lists.
    func testPhotoLibraryRecentFromTheService() throws {
        try startServe()
        var o = PhotoLibrary.Options(zone: TimeZone(identifier: "UTC") ?? .current)
        o.environment = env
        o.indexPath = nil
        let live = try PhotoLibrary(folders: [folder], options: o).recent(limit: 4)
        XCTAssertNotNil(live.servicePid, "answered by the service")
        o.useService = false
        let scanned = try PhotoLibrary(folders: [folder], options: o).recent(limit: 4)
        XCTAssertNil(scanned.servicePid)
        XCTAssertEqual(live.assets.map(\.path), scanned.assets.map(\.path))
        XCTAssertEqual(live.assets.count, 4)
    }

    /// `PhotoLibrary.changes()` is backed by the service when one serves the folders: the
    /// service watches and settles, the library inspects; the set is the one a watcher in this
    /// process reports (paths as the folder was given, the file inspected).
    func testPhotoLibraryChangesFromTheService() async throws {
        try startServe()
        var o = PhotoLibrary.Options(zone: TimeZone(identifier: "UTC") ?? .current)
        o.environment = env
        o.indexPath = nil
        let (sets, pid) = try await PhotoLibrary(folders: [folder], options: o).changesWithSource()
        XCTAssertEqual(pid, serve?.process.processIdentifier, "watched by the service")
        // Hostile names too: a newline, an escape sequence, a byte that is not UTF-8.
        let names = ["IMG_20240808_120900.jpg", "IMG_20240808_120901\n.jpg", "IMG_20240808_120902\u{1B}[31m.jpg"]
        for name in names { try add(name) }
        let raw = Array(folder.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("mmexport1700000000000.jpg")))
        let fd = open(raw.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let expected = Set(names.map { folder + "/" + $0 } + [PathBytes.decode(raw)])
        let inserted = Task { () -> [ChangeSet.File] in
            var files: [ChangeSet.File] = []
            for await set in sets {
                files += set.inserted
                if Set(files.map(\.path)).isSuperset(of: expected) { break }
            }
            return files
        }
        let watchdog = Task {
            try await Task.sleep(for: .seconds(20))
            inserted.cancel()
        }
        let files = await inserted.value
        watchdog.cancel()
        XCTAssertEqual(Set(files.map(\.path)), expected)
        XCTAssertEqual(files.map(\.asset.format), Array(repeating: .jpeg, count: files.count), "each file inspected by its bytes")
        // Without the service, the same library watches in this process.
        o.useService = false
        let (_, none) = try await PhotoLibrary(folders: [folder], options: o).changesWithSource()
        XCTAssertNil(none)
    }

    /// Folders whose identity changes under a name (a second read of the service found each
    /// of these stale): removed and made again, a rename undone, a name taken by another
    /// folder, an atomic swap, a folder replaced by a link to another.
    func testFoldersReplacedUnderTheirNames() throws {
        let a = folder + "/a"
        try FileManager.default.createDirectory(atPath: a, withIntermediateDirectories: true)
        try add("IMG_20240808_120000.jpg", in: a)
        try startServe()
        try assertExact("a sub-folder")
        try FileManager.default.removeItem(atPath: a)
        try FileManager.default.createDirectory(atPath: a, withIntermediateDirectories: true)
        try add("IMG_20240808_120800.jpg", in: a)
        try assertExact("removed and made again")
        XCTAssertEqual(rename(a, folder + "/b"), 0)
        XCTAssertEqual(rename(folder + "/b", a), 0)
        try add("IMG_20240808_120801.jpg", in: a)
        try assertExact("a rename undone")
        XCTAssertEqual(rename(a, folder + "/b"), 0)
        try FileManager.default.createDirectory(atPath: a, withIntermediateDirectories: true)
        try add("IMG_20240808_120802.jpg", in: a)
        try assertExact("the name taken by a new folder")
        let tmp = folder + "/tmp"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        try add("IMG_20240808_120803.jpg", in: tmp)
        try FileManager.default.removeItem(atPath: a)
        XCTAssertEqual(rename(tmp, a), 0)
        try add("IMG_20240808_120804.jpg", in: a)
        try assertExact("an atomic swap")
        XCTAssertEqual(rename(a, folder + "/c"), 0)
        XCTAssertEqual(symlink("c", a), 0)
        try add("IMG_20240808_120805.jpg", in: folder + "/c")
        try assertExact("a folder replaced by a link to another")
        try FileManager.default.removeItem(atPath: folder + "/c/IMG_20240808_120805.jpg")
        try assertExact("a file removed behind the link")
    }

    /// Changes inotify cannot see in the folder: the offer rewritten through a hard link from
    /// outside, a link's target removed. The service checks what it returns.
    func testChangesInotifyCannotSee() throws {
        try add("IMG_20240808_120818.jpg")
        try add("IMG_20240808_120000.jpg", in: outside)
        XCTAssertEqual(symlink(outside + "/IMG_20240808_120000.jpg", folder + "/IMG_20240808_120819.jpg"), 0)
        try startServe()
        try assertExact("a link to a file outside, skipped as a scan skips it")
        XCTAssertEqual(link(folder + "/IMG_20240808_120818.jpg", outside + "/shared.jpg"), 0)
        XCTAssertEqual(truncate(outside + "/shared.jpg", 0), 0, "the same inode, emptied")
        XCTAssertEqual(try FileFacts.of(folder + "/IMG_20240808_120818.jpg").size, 0)
        try assertExact("the offer emptied through a hard link from outside")
    }

    /// What another computer writes on a NAS raises no inotify event here; `--rescan` (the
    /// default on network file systems) finds it. Made here with a hard link from outside: a
    /// file of the folder that was not media becomes the newest photo, written in place
    /// through its outside name, of which the folder's watch hears nothing.
    func testTheRescanFindsWhatInotifyDoesNotSay() throws {
        try add("IMG_20240808_120818.jpg")
        try "not a photo yet".write(toFile: outside + "/hidden.jpg", atomically: false, encoding: .utf8)
        XCTAssertEqual(link(outside + "/hidden.jpg", folder + "/IMG_20240808_120819.jpg"), 0)
        let s = try RunningPhotometa(["serve", folder, "--rescan", "300ms"], environment: env)
        serve = s
        XCTAssertTrue(s.wait { s.stderr.contains("photometa: serving") }, s.stderr)
        XCTAssertTrue(s.stderr.contains("looking at every file again every 300 ms"), s.stderr)
        let h = try XCTUnwrap(FileHandle(forWritingAtPath: outside + "/hidden.jpg"))
        h.truncateFile(atOffset: 0)
        h.write(try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("mmexport1700000000000.jpg"))))
        h.closeFile()
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: outside + "/hidden.jpg")
        // Bounded: the service's answer becomes the scan's once a rescan has looked.
        let deadline = Date().addingTimeInterval(10)
        var offered: String?
        while Date() < deadline {
            offered = (try suggest([], explain: false)["suggestion"] as? [String: Any])?["path"] as? String
            if offered?.hasSuffix("IMG_20240808_120819.jpg") == true { break }
            var none = pollfd()
            _ = poll(&none, 0, 50)
        }
        XCTAssertEqual(offered, folder + "/IMG_20240808_120819.jpg")
        try assertExact("a photo written through a hard link from outside, found by the rescan")
        // `status` says how often the service looks, and when it last did.
        let status = try Photometa.run(["status", folder, "--json"], environment: env)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["rescanEvery"] as? Double, 0.3, status.stdout)
        XCTAssertEqual(object["wholeRescanEvery"] as? Double, 0.3, "a local disk: every look looks at every file")
        let last = try XCTUnwrap(object["lastRescan"] as? String, status.stdout)
        XCTAssertGreaterThanOrEqual(last, try XCTUnwrap(object["since"] as? String), "looks start with the service")
        let text = try Photometa.run(["status", folder], environment: env).stdout
        XCTAssertTrue(text.contains("; it looks at every file again every 300 ms (last look at "), text)
        XCTAssertEqual(try Photometa.run(["serve", folder, "--rescan", "often"]).status, 64)
    }

    /// Two folders whose names differ only in Unicode normalization are two folders.
    func testNamesThatDifferOnlyInNormalization() throws {
        for name in ["caf\u{E9}", "cafe\u{301}"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
        }
        try add("IMG_20240808_120801.jpg", in: folder + "/caf\u{E9}")
        try add("IMG_20240808_120802.jpg", in: folder + "/cafe\u{301}")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("caf") }
        XCTAssertEqual(names.count, 2, "two folders on disk")
        try startServe()
        try assertExact("two folders, one name in two normalizations")
        try add("IMG_20240808_120803.jpg", in: folder + "/cafe\u{301}")
        try assertExact("a change in the second")
    }

    /// Names full of control bytes travel the socket's JSON lines intact: the answer is still
    /// one line, and equals a scan's.
    func testHostileNames() throws {
        try startServe()
        try add("IMG_20240808_120818\n.jpg")
        try add("IMG_20240808_120817\u{1B}[31m\t.jpg")
        try FileManager.default.createDirectory(atPath: folder + "/in\nbox", withIntermediateDirectories: true)
        try add("IMG_20240808_120816.jpg", in: folder + "/in\nbox")
        try assertExact("names with a newline, an escape sequence and a tab")
    }

    /// Two served roots, one inside the other: each folder counts once, as in a scan.
    func testNestedRootsCountOnce() throws {
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try add("IMG_20240808_120801.jpg", in: folder + "/sub")
        let s = try RunningPhotometa(["serve", folder, folder + "/sub"], environment: env)
        serve = s
        XCTAssertTrue(s.wait { s.stderr.contains("photometa: serving") }, s.stderr)
        let args = ["suggest", folder, folder + "/sub", "--json", "--peek", "--within", "1h", "--now", now]
        let live = try Photometa.run(args, environment: env)
        let scanned = try Photometa.run(args + ["--no-service", "--no-index"], environment: env)
        XCTAssertTrue(live.stdout.contains(#""from":"service""#), live.stdout + live.stderr)
        XCTAssertEqual(live.stdout.replacingOccurrences(of: #""from":"service""#, with: #""from":"scan""#), scanned.stdout)
    }

    /// The served folder's file system unmounted (a USB stick pulled): serve stops (exit 1)
    /// rather than answer from files that are gone. Needs a tmpfs mount (root).
    func testAnUnmountedServedFolderStopsServe() throws {
        guard TemporaryMount.tmpfs(at: folder) else { throw XCTSkip("cannot mount a tmpfs here (not root?)") }
        defer { TemporaryMount.unmount(folder) }
        try startServe()
        TemporaryMount.unmount(folder)
        try assertServeStopsAsGone()
    }

    /// A file system mounted over a served sub-folder, and unmounted from it, changes what the
    /// name leads to without an event on the folder's watch: the service follows (the mount
    /// table wakes it), and each answer equals a scan's; one mounted over the served folder
    /// itself stops serve, as an unmount does.
    func testFileSystemsMountedAndUnmountedInsideTheFolder() throws {
        let sub = folder + "/sub"
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        try add("IMG_20240808_120700.jpg", in: sub)
        guard TemporaryMount.tmpfs(at: sub) else { throw XCTSkip("cannot mount a tmpfs here (not root?)") }
        defer { TemporaryMount.unmount(sub) }
        try add("IMG_20240808_120800.jpg", in: sub)
        try startServe()
        try assertExact("a file system mounted on a sub-folder")
        TemporaryMount.unmount(sub)
        try add("IMG_20240808_120810.jpg", in: sub)
        try assertExact("unmounted, and a photo added to the folder it covered")
        XCTAssertTrue(TemporaryMount.tmpfs(at: sub))
        try add("IMG_20240808_120815.jpg", in: sub)
        try assertExact("mounted over the sub-folder while served")
        TemporaryMount.unmount(sub)
        XCTAssertTrue(TemporaryMount.tmpfs(at: folder))
        defer { TemporaryMount.unmount(folder) }
        try assertServeStopsAsGone()
    }

    /// The served folder bind-mounted inside itself (a loop, which a walk passes over): a
    /// change in a sub-folder lists it again, and its new sub-folder, the loop, is passed over
    /// as the first walk passed over it, not walked under a second name.
    func testAFolderMountedInsideItselfIsWalkedOnce() throws {
        let loop = folder + "/sub/loop"
        try FileManager.default.createDirectory(atPath: loop, withIntermediateDirectories: true)
        try add("IMG_20240808_120700.jpg")
        guard TemporaryMount.bind(folder, at: loop) else { throw XCTSkip("cannot bind-mount here (not root?)") }
        defer { TemporaryMount.unmount(loop) }
        try startServe()
        try assertExact("a loop")
        try add("IMG_20240808_120800.jpg", in: folder + "/sub")
        try assertExact("a photo beside the loop")
        try add("IMG_20240808_120810.jpg", in: folder + "/sub")
        try assertExact("another")
    }

    /// The served folder moved away: serve stops (exit 1) rather than follow a folder it no
    /// longer watches; the client scans.
    func testTheServedFolderMovedAwayStopsServe() throws {
        try startServe()
        XCTAssertEqual(rename(folder, outside + "/moved"), 0)
        try assertServeStopsAsGone()
    }

    /// An idle service wakes no thread: none of its threads is libdispatch's, whose pool, once
    /// started, wakes the process once a second for good (the scan, the index writer, a change
    /// parsed and answered, the signals all run on photometa's own threads).
    func testTheServiceRunsNoDispatchThread() throws {
        try startServe()
        let s = try XCTUnwrap(serve)
        try add("IMG_20240808_120819.jpg")
        try assertExact("after a change")
        XCTAssertEqual(s.dispatchThreads, [], "threads of libdispatch's pool in serve")
    }

    /// Changes made while serve scans its folders are in its first answer.
    func testChangesDuringTheStartAreSeen() throws {
        for i in 0..<200 { try add(String(format: "IMG_20240808_1207%02d_%03d.jpg", i % 60, i)) }
        let s = try RunningPhotometa(["serve", folder], environment: env)
        serve = s
        try add("IMG_20240808_120819.jpg")
        XCTAssertTrue(s.wait { s.stderr.contains("photometa: serving") }, s.stderr)
        try assertExact("after changes made during the start")
    }

    func testStatusAndASecondServeAndKill() throws {
        let none = try Photometa.run(["status", folder], environment: env)
        XCTAssertEqual(none.status, 3, none.stdout)
        try startServe()
        let status = try Photometa.run(["status", folder, "--json"], environment: env)
        XCTAssertEqual(status.status, 0, status.stdout + status.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["serving"] as? Bool, true)
        XCTAssertEqual(object["files"] as? Int, 6, "every file suggest considers (notes.txt too)")
        let pid = try XCTUnwrap(serve?.process.processIdentifier)
        XCTAssertEqual(object["pid"] as? Int, Int(pid))
        XCTAssertTrue(object.keys.contains("rescanEvery") && object["rescanEvery"] is NSNull, "no looks on a local disk")
        // A folder below the served one is answered by the service, and status says so.
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        let below = try Photometa.run(["status", folder + "/sub"], environment: env)
        XCTAssertEqual(below.status, 0, below.stdout + below.stderr)
        // A second serve of the same folders is refused, naming the first.
        let second = try Photometa.run(["serve", folder], environment: env, timeout: 20)
        XCTAssertEqual(second.status, 1, second.stderr)
        XCTAssertTrue(second.stderr.contains("pid \(pid)"), second.stderr)
        // kill -9: nothing a client trusts is left; suggest scans.
        kill(pid, SIGKILL)
        XCTAssertNotNil(serve?.finish())
        serve = nil
        XCTAssertEqual(try suggest([])["from_"] as? String, "scan")
        XCTAssertEqual(try Photometa.run(["status", folder], environment: env).status, 3)
        // And the next serve starts clean.
        try startServe()
        try assertExact("after a restart")
    }

    /// A runtime folder another user could write: refused by the client, which scans.
    func testAnUnsafeRuntimeFolderIsNotTrusted() throws {
        try startServe()
        XCTAssertEqual(chmod(scratch.path + "/run/photometa", 0o777), 0)
        XCTAssertEqual(try suggest([])["from_"] as? String, "scan")
        XCTAssertEqual(chmod(scratch.path + "/run/photometa", 0o700), 0)
        XCTAssertEqual(try suggest([])["from_"] as? String, "service")
    }
}
