import Foundation
import XCTest
@testable import PhotoMeta

/// The watcher running for real on a temporary folder. Waits are bounded polls for the
/// expected event (never fixed sleeps before asserting).
final class DirectoryWatcherTests: XCTestCase {
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [WatchEvent] = []
        let stop = StopFlag()
        var thread: Thread?

        func add(_ e: WatchEvent) { lock.lock(); events.append(e); lock.unlock() }
        var all: [WatchEvent] { lock.lock(); defer { lock.unlock() }; return events }

        var changes: [ChangeSet] {
            all.compactMap { if case .changes(let c) = $0 { return c } else { return nil } }
        }
        var inserted: [String] { changes.flatMap { $0.inserted.map(\.path) } }
        var removed: [String] { changes.flatMap(\.removed) }
        var changed: [String] { changes.flatMap { $0.changed.map(\.path) } }
        var suggestions: [SuggestionCandidate] {
            all.compactMap { if case .suggestion(let s, _) = $0 { return s } else { return nil } }
        }
        var gone: Bool { all.contains { if case .folderGone = $0 { return true } else { return false } } }

        /// Polls until `condition` holds or `timeout` passes.
        @discardableResult
        func wait(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if condition() { return true }
                usleep(20_000)
            }
            return condition()
        }
    }

    var dir: TemporaryDirectory!
    var state: TemporaryDirectory!
    var recorder: Recorder!

    override func setUpWithError() throws {
        dir = try TemporaryDirectory()
        state = try TemporaryDirectory()
    }

    override func tearDown() {
        recorder?.stop.set()
        if let r = recorder { r.wait(timeout: 5) { r.thread?.isFinished ?? true } }
    }

    func start(poll: Double? = nil, suggestions: Bool = true, maximumWatches: Int? = nil) throws {
        var o = DirectoryWatcher.Options()
        o.pollInterval = poll
        o.maximumWatches = maximumWatches
        o.statePath = state.path + "/state.sqlite3"
        if suggestions {
            var s = SuggestionSettings()
            s.zone = TimeZone(identifier: "UTC")!
            o.suggestions = s
        } else {
            o.suggestions = nil
        }
        let watcher = try DirectoryWatcher(folder: dir.path, options: o)
        let r = Recorder()
        let t = Thread { watcher.run(shouldStop: { r.stop.isSet }) { r.add($0) } }
        r.thread = t
        recorder = r
        t.start()
        // The initial snapshot is taken before the first events can matter; give the thread a
        // moment to take it (bounded: it is the first thing run does).
        usleep(150_000)
    }

    func path(_ name: String) -> String { dir.path + "/" + name }

    func write(_ name: String, fixture: String = "mmexport1700000000000.jpg") throws {
        try dir.write(name, try TestPaths.bytes(fixture))
    }

    func testExistingFilesAreTheBeforeState() throws {
        try write("old.jpg")
        try start()
        try write("new.jpg")
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("new.jpg")) })
        XCTAssertFalse(recorder.inserted.contains(path("old.jpg")))
    }

    func testCreateModifyRenameDelete() throws {
        try start()
        try write("a.jpg")
        XCTAssertTrue(recorder.wait { recorder.inserted == [path("a.jpg")] }, "\(recorder.inserted)")
        let h = try XCTUnwrap(FileHandle(forWritingAtPath: path("a.jpg")))
        h.seekToEndOfFile()
        h.write(Data([0, 1, 2]))
        h.closeFile()
        XCTAssertTrue(recorder.wait { recorder.changed == [path("a.jpg")] }, "\(recorder.changed)")
        try FileManager.default.moveItem(atPath: path("a.jpg"), toPath: path("b.jpg"))
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("b.jpg")) && recorder.removed == [path("a.jpg")] })
        // A rename within the folder is one change set: removed + inserted.
        let rename = recorder.changes.first { $0.removed == [path("a.jpg")] }
        XCTAssertEqual(rename?.inserted.map(\.path), [path("b.jpg")])
        try FileManager.default.removeItem(atPath: path("b.jpg"))
        XCTAssertTrue(recorder.wait { recorder.removed == [path("a.jpg"), path("b.jpg")] })
        XCTAssertEqual(recorder.inserted, [path("a.jpg"), path("b.jpg")], "each reported once")
    }

    func testInsertedFilesCarryTheirInspection() throws {
        try start()
        try write("IMG_20240315_093012.jpg", fixture: "IMG_20240315_093012.jpg")
        XCTAssertTrue(recorder.wait { !recorder.inserted.isEmpty })
        let asset = try XCTUnwrap(recorder.changes.first?.inserted.first?.asset)
        XCTAssertEqual(asset.make, "Google")
        XCTAssertEqual(asset.captured?.source, .exifDateTimeOriginal)
    }

    func testSubfoldersCreatedAfterTheStart() throws {
        try start()
        try FileManager.default.createDirectory(atPath: path("sub/deeper"), withIntermediateDirectories: true)
        try write("sub/deeper/c.jpg")
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("sub/deeper/c.jpg")) }, "\(recorder.inserted)")
        try write("sub/d.jpg")
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("sub/d.jpg")) }, "\(recorder.inserted)")
    }

    func testAThousandFilesAtOnce() throws {
        try start(suggestions: false)
        let bytes = try TestPaths.bytes("mmexport1700000000000.jpg")
        for i in 0..<1000 { try dir.write(String(format: "burst/f%04d.jpg", i), bytes) }
        XCTAssertTrue(recorder.wait(timeout: 30) { recorder.inserted.count >= 1000 }, "\(recorder.inserted.count)")
        usleep(300_000)
        let inserted = recorder.inserted
        XCTAssertEqual(inserted.count, 1000, "each exactly once")
        XCTAssertEqual(Set(inserted).count, 1000)
    }

    func testASlowlyWrittenFileIsReportedOnceComplete() throws {
        try start()
        let bytes = try TestPaths.bytes("IMG_20240315_093012.jpg")
        FileManager.default.createFile(atPath: path("slow.jpg"), contents: nil)
        let h = try XCTUnwrap(FileHandle(forWritingAtPath: path("slow.jpg")))
        let chunk = bytes.count / 5 + 1
        for i in 0..<5 {
            h.write(Data(bytes[min(bytes.count, i * chunk)..<min(bytes.count, (i + 1) * chunk)]))
            usleep(200_000)
            XCTAssertFalse(recorder.inserted.contains(path("slow.jpg")), "reported while half written (chunk \(i))")
        }
        h.closeFile()
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("slow.jpg")) })
        let asset = recorder.changes.flatMap(\.inserted).first { $0.path == path("slow.jpg") }?.asset
        XCTAssertEqual(asset?.truncated, false)
        XCTAssertEqual(asset?.make, "Google")
        usleep(300_000)
        XCTAssertEqual(recorder.inserted.filter { $0 == path("slow.jpg") }.count, 1)
        XCTAssertEqual(recorder.changed, [], "not reported again as changed")
    }

    func testHiddenAndTemporaryFilesAreIgnored() throws {
        try start()
        try write(".hidden.jpg")
        try write("download.jpg.part")
        try write("photo.jpg~")
        try write("visible.jpg")
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("visible.jpg")) })
        usleep(200_000)
        XCTAssertEqual(recorder.inserted, [path("visible.jpg")])
    }

    func testANewPhotoIsSuggestedOnceAndRecorded() throws {
        try start()
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd_HHmmss"
        let name = "IMG_\(f.string(from: Date())).jpg"
        try write(name)
        XCTAssertTrue(recorder.wait { recorder.suggestions.count == 1 }, "\(recorder.all)")
        XCTAssertEqual(recorder.suggestions.first?.path, path(name))
        let memory = try SuggestionMemory(path: state.path + "/state.sqlite3")
        XCTAssertNotNil(try memory.remembered(folder: try FolderScanner().scanRootOnly(dir.path).folder))
        // An old photo arriving later is reported but not suggested.
        try write("IMG_20200101_000000.jpg")
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("IMG_20200101_000000.jpg")) })
        usleep(100_000)
        XCTAssertEqual(recorder.suggestions.count, 1)
    }

    func testPollingFindsTheSameChanges() throws {
        try start(poll: 0.2)
        XCTAssertTrue(recorder.all.contains { if case .note(let n) = $0 { return n.contains("polling") } else { return false } })
        try write("p.jpg")
        XCTAssertTrue(recorder.wait { recorder.inserted == [path("p.jpg")] }, "\(recorder.inserted)")
        try FileManager.default.removeItem(atPath: path("p.jpg"))
        XCTAssertTrue(recorder.wait { recorder.removed == [path("p.jpg")] })
    }

    func testTheWatchLimitFallsBackToPolling() throws {
        for f in ["a", "b", "c"] { try FileManager.default.createDirectory(atPath: path(f), withIntermediateDirectories: true) }
        try start(maximumWatches: 2)
        XCTAssertTrue(recorder.all.contains { if case .note(let n) = $0 { return n.contains("watch limit") && n.contains("polling") } else { return false } },
                      "\(recorder.all)")
        try write("c/late.jpg")
        XCTAssertTrue(recorder.wait { recorder.inserted == [path("c/late.jpg")] }, "\(recorder.inserted)")
    }

    func testTheFolderDisappearing() throws {
        try start()
        try FileManager.default.removeItem(atPath: dir.path)
        XCTAssertTrue(recorder.wait { recorder.gone })
        XCTAssertTrue(recorder.wait { recorder.thread?.isFinished == true }, "watching ends")
    }

    func testAsyncSequence() async throws {
        var o = DirectoryWatcher.Options()
        o.suggestions = nil
        let watcher = try DirectoryWatcher(folder: dir.path, options: o)
        let stream = watcher.events()
        let target = dir.path + "/async.jpg"
        let data = Data(try TestPaths.bytes("mmexport1700000000000.jpg"))
        Task.detached {
            try? await Task.sleep(nanoseconds: 200_000_000)
            try? data.write(to: URL(fileURLWithPath: target))
        }
        for await event in stream {
            if case .changes(let c) = event {
                XCTAssertEqual(c.inserted.map(\.path), [target])
                break
            }
        }
    }

    func testTemporaryNames() {
        for n in [".x.jpg", "a.jpg~", "#a.jpg#", "4913", "a.swp", "a.JPG.part", "a.crdownload", "a.tmp"] {
            XCTAssertTrue(TemporaryNames.isTemporary(n), n)
        }
        for n in ["a.jpg", "IMG_0001.HEIC", "part.jpg", "tmp.png"] { XCTAssertFalse(TemporaryNames.isTemporary(n), n) }
    }
}
