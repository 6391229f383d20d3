import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// The watcher running for real on a temporary folder. Every wait is for an event (the
/// watcher's `ready`, a change set), woken when the watcher delivers one and bounded by a
/// deadline; there are no fixed sleeps.
final class DirectoryWatcherTests: XCTestCase {
    final class Recorder: @unchecked Sendable {
        /// Guards `events`, and wakes waiters when an event arrives.
        private let signal = ChangeSignal()
        private var events: [WatchEvent] = []
        let stop = StopFlag()
        var thread: Thread?

        func add(_ e: WatchEvent) { signal.change { events.append(e) } }
        var all: [WatchEvent] { signal.read { events } }
        var isReady: Bool { all.contains { if case .ready = $0 { return true } else { return false } } }

        /// Wakes the waiters without an event (the watching thread ended).
        func poke() { signal.change {} }

        var changes: [ChangeSet] {
            all.compactMap { if case .changes(let c) = $0 { return c } else { return nil } }
        }
        /// Inserted paths, without the sentinels of `drain()`.
        var inserted: [String] {
            changes.flatMap { $0.inserted.map(\.path) }.filter { !$0.hasSuffix(DirectoryWatcherTests.sentinelSuffix) }
        }
        var removed: [String] { changes.flatMap(\.removed) }
        var changed: [String] { changes.flatMap { $0.changed.map(\.path) } }
        var suggestions: [SuggestionCandidate] {
            all.compactMap { if case .suggestion(let s, _) = $0 { return s } else { return nil } }
        }
        var gone: Bool { all.contains { if case .folderGone = $0 { return true } else { return false } } }

        /// Waits until `predicate` holds, checking it each time an event arrives; false when
        /// `timeout` passes first.
        @discardableResult
        func wait(timeout: Double = 10, _ predicate: () -> Bool) -> Bool { signal.wait(timeout: timeout, predicate) }
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

    /// The most names the loop kept bookkeeping for, as it reported after its looks.
    final class TrackedNames: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int] = []
        func add(_ n: Int) {
            lock.lock()
            values.append(n)
            lock.unlock()
        }
        var last: Int? {
            lock.lock()
            defer { lock.unlock() }
            return values.last
        }
        var peak: Int {
            lock.lock()
            defer { lock.unlock() }
            return values.max() ?? 0
        }
        /// How many looks have told their count.
        var looks: Int {
            lock.lock()
            defer { lock.unlock() }
            return values.count
        }
    }
    let tracked = TrackedNames()

    func start(
        poll: Double? = nil, rescan: Duration? = nil, wholeEvery: Int? = nil, suggestions: Bool = true,
        maximumWatches: Int? = nil, exclude: [String] = [], settings configure: (inout SuggestionSettings) -> Void = { _ in }
    ) throws {
        var settings = SuggestionSettings(zone: utcZone)
        configure(&settings)
        var o = DirectoryWatcher.Options(suggestions: suggestions ? settings : nil)
        o.pollInterval = poll.map { .milliseconds(Int64($0 * 1000)) }
        o.rescanInterval = rescan
        o.rescanWholeEvery = wholeEvery
        o.maximumWatches = maximumWatches
        o.exclude = exclude
        let names = tracked
        let r = Recorder()
        // The count is told after the look's changes went out: a test waits for it by this poke.
        o.tracked = {
            names.add($0)
            r.poke()
        }
        o.statePath = state.path + "/state.sqlite3"
        let watcher = try DirectoryWatcher(folder: dir.path, options: o)
        let t = Thread {
            watcher.run(shouldStop: { r.stop.isSet }) { r.add($0) }
            r.poke()
        }
        r.thread = t
        recorder = r
        t.start()
        // Everything written after `ready` is reported.
        XCTAssertTrue(r.wait { r.isReady }, "the watcher never became ready")
    }

    func path(_ name: String) -> String { dir.path + "/" + name }

    /// A video (old, and videos are not offered by default): reported, never suggested.
    static let sentinelSuffix = ".sentinel.mp4"
    private var sentinels = 0

    /// Waits until the watcher has dealt with everything written so far: writes a sentinel file
    /// and waits for its report (change sets come in order). Then "nothing more happened" can
    /// be asserted without sleeping.
    func drain(file: StaticString = #filePath, line: UInt = #line) throws {
        sentinels += 1
        let name = "\(sentinels)\(Self.sentinelSuffix)"
        try dir.write(name, try TestPaths.bytes("clip.mp4"))
        let p = path(name)
        XCTAssertTrue(
            recorder.wait { recorder.changes.contains { $0.inserted.contains { $0.path == p } } },
            "the sentinel was never reported", file: file, line: line)
    }

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

    /// A change inotify does not report (as on a NAS, where another computer writes): a file of
    /// the folder hard-linked from outside it and written through the outside name raises no
    /// event on the folder's watch (inotify tells a folder's watch of writes through its own
    /// entries); the periodic look (`--rescan`, the default on network file systems) finds it.
    func testARescanFindsWhatInotifyDoesNotSay() throws {
        let outside = try TemporaryDirectory()
        try outside.write("a.jpg", try TestPaths.bytes("mmexport1700000000000.jpg"))
        XCTAssertEqual(link(outside.path + "/a.jpg", path("a.jpg")), 0)
        try start(rescan: .milliseconds(200))
        XCTAssertTrue(
            recorder.all.contains {
                if case .note(let n) = $0 { return n == "looking at every file again every 200 ms" } else { return false }
            }, "\(recorder.all)")
        let h = try XCTUnwrap(FileHandle(forWritingAtPath: outside.path + "/a.jpg"))
        h.seekToEndOfFile()
        h.write(Data([0, 1, 2]))
        h.closeFile()
        XCTAssertTrue(recorder.wait { recorder.changed == [path("a.jpg")] }, "\(recorder.changes)")
    }

    /// Where folders come first (NFS, SMB; forced here on a local disk), a file rewritten in
    /// place through a hard link from outside changes no folder's times: the looks at folders
    /// pass it by, the look at every file (the fourth) finds it. `LiveLibraryTests` and
    /// `FolderTimesTests` show what the looks at folders do find.
    func testALookAtFoldersLeavesARewriteInPlaceToTheLookAtEveryFile() throws {
        let outside = try TemporaryDirectory()
        try outside.write("a.jpg", try TestPaths.bytes("mmexport1700000000000.jpg"))
        XCTAssertEqual(link(outside.path + "/a.jpg", path("a.jpg")), 0)
        try start(rescan: .milliseconds(300), wholeEvery: 4, suggestions: false)
        let note = "looking at its folders again every 300 ms and at every file every 1 s"
        XCTAssertTrue(recorder.all.contains { if case .note(note) = $0 { true } else { false } }, "\(recorder.all)")
        // Right after a look at every file (the fourth look), the next three look at folders.
        XCTAssertTrue(recorder.wait { tracked.looks >= 4 }, "\(tracked.looks) looks")
        let h = try XCTUnwrap(FileHandle(forWritingAtPath: outside.path + "/a.jpg"))
        h.seekToEndOfFile()
        h.write(Data([0, 1, 2]))
        h.closeFile()
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: outside.path + "/a.jpg")
        XCTAssertTrue(recorder.wait { recorder.changed == [path("a.jpg")] }, "\(recorder.changes)")
        XCTAssertGreaterThanOrEqual(tracked.looks, 7, "found by the eighth look, not by the looks at folders")
    }

    /// The file system decides the default: a network or FUSE one (not a local disk's FUSE,
    /// which has a real device) is named; this test's folder is local.
    func testSharedFileSystemsAreToldByTheirMagic() {
        XCTAssertEqual(SharedFileSystem.name(type: 0x6969, device: 0x2A), "NFS")
        XCTAssertEqual(SharedFileSystem.name(type: 0xFE53_4D42, device: 0x2A), "SMB2")
        XCTAssertEqual(SharedFileSystem.name(type: 0x6573_5546, device: 0x2A), "FUSE", "sshfs: major 0")
        XCTAssertNil(SharedFileSystem.name(type: 0x6573_5546, device: 0x801), "fuseblk on /dev/sda1 (8:1)")
        XCTAssertNil(SharedFileSystem.name(type: 0xEF53, device: 0x801), "ext4")
        XCTAssertNil(SharedFileSystem.name(of: dir.path))
        XCTAssertNil(SharedFileSystem.name(of: dir.path + "/missing"))
        // Folders first only where the server keeps folders' times.
        XCTAssertTrue(SharedFileSystem.foldersFollowChanges("NFS"))
        XCTAssertTrue(SharedFileSystem.foldersFollowChanges("SMB2"))
        XCTAssertFalse(SharedFileSystem.foldersFollowChanges("FUSE"))
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
        // A rename within the folder is one move, not a removal and an insertion.
        XCTAssertTrue(recorder.wait { recorder.changes.contains { !$0.moved.isEmpty } }, "\(recorder.changes)")
        let rename = recorder.changes.first { !$0.moved.isEmpty }
        XCTAssertEqual(rename?.moved.map(\.from), [path("a.jpg")])
        XCTAssertEqual(rename?.moved.map(\.to.path), [path("b.jpg")])
        XCTAssertEqual(rename?.moved.first?.to.asset.format, .jpeg, "inspected at its new path")
        XCTAssertEqual(recorder.removed, [])
        try FileManager.default.removeItem(atPath: path("b.jpg"))
        XCTAssertTrue(recorder.wait { recorder.removed == [path("b.jpg")] })
        XCTAssertEqual(recorder.inserted, [path("a.jpg")], "each reported once")
    }

    /// A sidecar written, changed or removed is a change of its picture (issue 23): the picture
    /// is inspected again and reported changed, with the sidecar's date; the sidecar itself is
    /// never reported.
    func testASidecarChangeIsAChangeOfItsPicture() throws {
        try start()
        let raw = TestPaths.fixtures.appendingPathComponent("sidecars/darktable/IMG_1234.CR2").path
        try dir.write("IMG_1234.CR2", Array(try Data(contentsOf: URL(fileURLWithPath: raw))))
        XCTAssertTrue(recorder.wait { recorder.inserted == [path("IMG_1234.CR2")] }, "\(recorder.inserted)")
        XCTAssertNotEqual(recorder.changes.first?.inserted.first?.asset.captured?.source.rawValue, "sidecar.xmp")
        let xmp = TestPaths.fixtures.appendingPathComponent("sidecars/darktable/IMG_1234.CR2.xmp").path
        try dir.write("IMG_1234.CR2.xmp", Array(try Data(contentsOf: URL(fileURLWithPath: xmp))))
        XCTAssertTrue(recorder.wait { recorder.changed == [path("IMG_1234.CR2")] }, "\(recorder.changes)")
        let changed = recorder.changes.flatMap(\.changed).first?.asset
        XCTAssertEqual(changed?.captured?.source.rawValue, "sidecar.xmp")
        XCTAssertFalse(recorder.inserted.contains(path("IMG_1234.CR2.xmp")), "a sidecar is not media")
        try FileManager.default.removeItem(atPath: path("IMG_1234.CR2.xmp"))
        XCTAssertTrue(recorder.wait { recorder.changed.count == 2 }, "\(recorder.changes)")
        XCTAssertNotEqual(recorder.changes.flatMap(\.changed).last?.asset.captured?.source.rawValue, "sidecar.xmp")
        XCTAssertEqual(recorder.removed, [], "the sidecar's removal is its picture's change")
    }

    /// A Live Photo copied one file at a time (a sync, a phone's upload): the still is reported
    /// as a photo, and when its movie lands the still's report changes (a Live Photo, paired);
    /// when the movie goes, it is a photo again.
    func testAMovieLandingAfterItsStillChangesTheStill() throws {
        try start(suggestions: false)
        try write("IMG_0001.HEIC", fixture: "IMG_0001.HEIC")
        XCTAssertTrue(recorder.wait { recorder.inserted == [path("IMG_0001.HEIC")] }, "\(recorder.inserted)")
        XCTAssertEqual(recorder.changes.first?.inserted.first?.asset.kind, .photo, "alone, a photo")
        try write("IMG_0001.MOV", fixture: "IMG_0001.MOV")
        XCTAssertTrue(recorder.wait { recorder.changed == [path("IMG_0001.HEIC")] }, "\(recorder.changes)")
        let still = recorder.changes.flatMap(\.changed).last?.asset
        XCTAssertEqual(still?.kind, .livePhoto)
        XCTAssertEqual(still?.livePhotoPair, path("IMG_0001.MOV"))
        XCTAssertEqual(recorder.inserted, [path("IMG_0001.HEIC"), path("IMG_0001.MOV")])
        try FileManager.default.removeItem(atPath: path("IMG_0001.MOV"))
        XCTAssertTrue(recorder.wait { recorder.changed.count == 2 }, "\(recorder.changes)")
        XCTAssertEqual(recorder.changes.flatMap(\.changed).last?.asset.kind, .photo, "its movie gone: a photo again")
        XCTAssertEqual(recorder.removed, [path("IMG_0001.MOV")])
        // A still whose extension a copy capitalised (`.Heic`) is found the same way.
        try write("IMG_0002.Heic", fixture: "IMG_0001.HEIC")
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("IMG_0002.Heic")) }, "\(recorder.changes)")
        try write("IMG_0002.MOV", fixture: "IMG_0001.MOV")
        XCTAssertTrue(recorder.wait { recorder.changed.contains(path("IMG_0002.Heic")) }, "\(recorder.changes)")
    }

    /// The library's watcher (no wakes: it waits on inotify itself) follows file systems
    /// mounted over a sub-folder, one over another at the same point included (a new mount ID,
    /// the same path), and what is hidden again when each goes.
    func testFileSystemsMountedOverASubFolderOneOverAnother() throws {
        let sub = path("sub")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        guard TemporaryMount.tmpfs(at: sub) else { throw XCTSkip("cannot mount a tmpfs here (not root?)") }
        defer { TemporaryMount.unmount(sub) }
        try write("sub/first.jpg")
        try start(suggestions: false)
        XCTAssertTrue(TemporaryMount.tmpfs(at: sub), "a second tmpfs over the first")
        defer { TemporaryMount.unmount(sub) }
        XCTAssertTrue(recorder.wait { recorder.removed == [path("sub/first.jpg")] }, "\(recorder.changes)")
        try write("sub/second.jpg")
        XCTAssertTrue(recorder.wait { recorder.inserted == [path("sub/second.jpg")] }, "\(recorder.changes)")
        TemporaryMount.unmount(sub)
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("sub/first.jpg")) }, "\(recorder.changes)")
    }

    /// A rename into another sub-folder, and a copy then delete (a new inode: not a rename).
    func testMovesBetweenFoldersAndCopies() throws {
        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: true)
        try start()
        try write("a.jpg")
        XCTAssertTrue(recorder.wait { recorder.inserted == [path("a.jpg")] }, "\(recorder.inserted)")
        try FileManager.default.moveItem(atPath: path("a.jpg"), toPath: path("sub/a.jpg"))
        XCTAssertTrue(recorder.wait { recorder.changes.contains { $0.moved.map(\.to.path) == [path("sub/a.jpg")] } })
        try FileManager.default.copyItem(atPath: path("sub/a.jpg"), toPath: path("c.jpg"))
        try FileManager.default.removeItem(atPath: path("sub/a.jpg"))
        XCTAssertTrue(recorder.wait { recorder.removed == [path("sub/a.jpg")] && recorder.inserted.contains(path("c.jpg")) })
        XCTAssertEqual(recorder.changes.flatMap(\.moved).count, 1)
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
        try drain()
        let inserted = recorder.inserted
        XCTAssertEqual(inserted.count, 1000, "each exactly once")
        XCTAssertEqual(Set(inserted).count, 1000)
    }

    /// A folder is listed before it is watched: a file made in between has no event, and is
    /// found only because the watcher lists each newly watched folder again. Forty folders
    /// filled as soon as they appear make that gap likely to be hit (without the second
    /// listing this lost a file in most runs).
    func testFilesMadeInFoldersAsTheyAppearAreAllReported() throws {
        try start(suggestions: false)
        let bytes = try TestPaths.bytes("mmexport1700000000000.jpg")
        for d in 0..<40 {
            for i in 0..<25 { try dir.write(String(format: "new%02d/deeper/f%02d.jpg", d, i), bytes) }
        }
        XCTAssertTrue(recorder.wait(timeout: 30) { recorder.inserted.count >= 1000 }, "\(recorder.inserted.count)")
        try drain()
        XCTAssertEqual(Set(recorder.inserted).count, 1000)
    }

    func testASlowlyWrittenFileIsReportedOnceComplete() throws {
        try start()
        let bytes = try TestPaths.bytes("IMG_20240315_093012.jpg")
        XCTAssertTrue(FileManager.default.createFile(atPath: path("slow.jpg"), contents: nil))
        let h = try XCTUnwrap(FileHandle(forWritingAtPath: path("slow.jpg")))
        let chunk = bytes.count / 5 + 1
        for i in 0..<5 {
            h.write(Data(bytes[min(bytes.count, i * chunk)..<min(bytes.count, (i + 1) * chunk)]))
            // The writer's pace (the subject of the test), not a wait for the watcher.
            Thread.sleep(forTimeInterval: 0.2)
            XCTAssertFalse(recorder.inserted.contains(path("slow.jpg")), "reported while half written (chunk \(i))")
        }
        h.closeFile()
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("slow.jpg")) })
        let asset = recorder.changes.flatMap(\.inserted).first { $0.path == path("slow.jpg") }?.asset
        XCTAssertEqual(asset?.truncated, false)
        XCTAssertEqual(asset?.make, "Google")
        try drain()
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
        try drain()
        XCTAssertEqual(recorder.inserted, [path("visible.jpg")])
    }

    /// Another process holding the memory's lock delays only the offer: the change is
    /// reported at once, the suggestion once the lock is gone (and only once recorded).
    func testALockedMemoryDelaysOnlyTheOffer() throws {
        try start()
        let holder = try SQLiteDatabase(path: state.path + "/state.sqlite3")
        try holder.execute("BEGIN EXCLUSIVE")
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd_HHmmss"
        let name = "IMG_\(f.string(from: Date())).jpg"
        try write(name)
        XCTAssertTrue(
            recorder.wait(timeout: 5) { recorder.inserted.contains(path(name)) }, "the change is not held up by the lock")
        XCTAssertEqual(recorder.suggestions.count, 0, "no offer before it is recorded")
        try holder.execute("ROLLBACK")
        XCTAssertTrue(recorder.wait(timeout: 35) { recorder.suggestions.count == 1 }, "\(recorder.all)")
        XCTAssertNotNil(try SuggestionMemory(path: state.path + "/state.sqlite3").remembered(profile: "default"))
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
        XCTAssertNotNil(try memory.remembered(profile: "default"))
        // An old photo arriving later is reported but not suggested.
        try write("IMG_20200101_000000.jpg")
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("IMG_20200101_000000.jpg")) })
        try drain()
        XCTAssertEqual(recorder.suggestions.count, 1)
    }

    /// A complete photo taken 2 s ago and a newer one cut short (half its bytes), named by
    /// their capture times; returns their names.
    func writePhotoAndANewerCutFile() throws -> (complete: String, cut: String) {
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd_HHmmss"
        let complete = "IMG_\(f.string(from: Date(timeIntervalSinceNow: -2))).jpg"
        let cut = "IMG_\(f.string(from: Date())).jpg"
        let bytes = [UInt8](try Data(contentsOf: TestPaths.thumbnails.appendingPathComponent("srgb.jpg")))
        try dir.write(complete, bytes)
        try dir.write(cut, Array(bytes.prefix(bytes.count / 2)))
        return (complete, cut)
    }

    /// A newer file cut short (a failed copy) holds the photo before it back while it may still
    /// be written; once it is called damaged (`stalledAfter`, 1 s here), the watch decides again
    /// without an event and offers the photo, as `suggest` would then.
    func testACutNewerFileHoldsTheOfferOnlyUntilItIsCalledDamaged() throws {
        try start { $0.stalledAfter = .seconds(1) }
        let (complete, cut) = try writePhotoAndANewerCutFile()
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path(cut)) }, "\(recorder.all)")
        XCTAssertTrue(recorder.wait { recorder.suggestions.count == 1 }, "\(recorder.all)")
        XCTAssertEqual(recorder.suggestions.first?.path, path(complete))
    }

    /// The newer file cut short, renamed to an old name (`IMG_2019...`), no longer holds the
    /// photo before it back: the watch inspects it again at its new name and offers the photo
    /// at once, not when the cut file is called damaged.
    func testACutFileRenamedToAnOldNameReleasesTheOffer() throws {
        try start()
        let (complete, cut) = try writePhotoAndANewerCutFile()
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path(cut)) }, "\(recorder.all)")
        XCTAssertEqual(recorder.suggestions.count, 0, "held back by the cut file")
        XCTAssertEqual(rename(path(cut), path("IMG_20190101_120000.jpg")), 0)
        XCTAssertTrue(recorder.wait(timeout: 10) { recorder.suggestions.count == 1 }, "\(recorder.all)")
        XCTAssertEqual(recorder.suggestions.first?.path, path(complete))
    }

    /// With videos, a Live Photo's movie that lands first is offered; its still, landing after
    /// it (in another batch), is the same moment and is not offered again (`MemoryRule`, as
    /// `suggest` decides). The fixtures were taken in 2024: the window reaches back to them.
    func testALivePhotoWhoseMovieLandsFirstIsOfferedOnce() throws {
        try start {
            $0.includeVideos = true
            $0.within = .seconds(3650 * 86_400)
        }
        try write("IMG_0001.MOV", fixture: "IMG_0001.MOV")
        XCTAssertTrue(recorder.wait { recorder.suggestions.count == 1 }, "\(recorder.all)")
        XCTAssertEqual(recorder.suggestions.first?.path, path("IMG_0001.MOV"))
        try write("IMG_0001.HEIC", fixture: "IMG_0001.HEIC")
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("IMG_0001.HEIC")) })
        try drain()
        XCTAssertEqual(recorder.suggestions.map(\.path), [path("IMG_0001.MOV")], "\(recorder.all)")
    }

    func testPollingFindsTheSameChanges() throws {
        try start(poll: 0.2)
        XCTAssertTrue(recorder.all.contains { if case .note(let n) = $0 { return n.contains("polling") } else { return false } })
        try write("p.jpg")
        XCTAssertTrue(recorder.wait { recorder.inserted == [path("p.jpg")] }, "\(recorder.inserted)")
        try FileManager.default.removeItem(atPath: path("p.jpg"))
        XCTAssertTrue(recorder.wait { recorder.removed == [path("p.jpg")] })
    }

    /// A tree deeper than `PATH_MAX` (22 folders of 200 bytes, made one inside the other after
    /// the watch began) is watched by inotify like any other folder, through a descriptor of
    /// each: a photo written in the deepest folder is reported, and the watcher never says it
    /// could not watch a folder or falls back to polling.
    func testAFolderDeeperThanPathMaxIsWatched() throws {
        try start()
        let name = String(repeating: "d", count: 200)
        var fd = open(dir.path, O_RDONLY | O_DIRECTORY)
        var deep = dir.path
        for _ in 0..<22 {
            XCTAssertEqual(mkdirat(fd, name, 0o755), 0)
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
            deep += "/" + name
        }
        defer { close(fd) }
        XCTAssertGreaterThan(deep.utf8.count, Int(PATH_MAX))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("mmexport1700000000000.jpg")))
        let photo = openat(fd, "deep.jpg", O_WRONLY | O_CREAT | O_EXCL, 0o644)
        XCTAssertGreaterThanOrEqual(photo, 0)
        XCTAssertEqual(bytes.withUnsafeBytes { Glibc.write(photo, $0.baseAddress, $0.count) }, bytes.count)
        close(photo)
        XCTAssertTrue(recorder.wait { recorder.inserted == [deep + "/deep.jpg"] }, "\(recorder.inserted)")
        let notes = recorder.all.compactMap { event -> String? in
            if case .note(let n) = event { return n } else { return nil }
        }
        XCTAssertEqual(notes, [], "no folder left unwatched")
    }

    func testTheWatchLimitFallsBackToPolling() throws {
        for f in ["a", "b", "c"] { try FileManager.default.createDirectory(atPath: path(f), withIntermediateDirectories: true) }
        try start(maximumWatches: 2)
        XCTAssertTrue(
            recorder.all.contains {
                if case .note(let n) = $0 { return n.contains("watch limit") && n.contains("polling") } else { return false }
            },
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
        let watcher = try DirectoryWatcher(folder: dir.path, options: DirectoryWatcher.Options(suggestions: nil))
        let stream = watcher.events()
        let target = dir.path + "/async.jpg"
        let data = Data(try TestPaths.bytes("mmexport1700000000000.jpg"))
        for await event in stream {
            if case .ready = event {
                try data.write(to: URL(fileURLWithPath: target))
            }
            if case .changes(let c) = event {
                XCTAssertEqual(c.inserted.map(\.path), [target])
                break
            }
        }
    }

    func testExcludedFoldersAreNotReported() throws {
        try FileManager.default.createDirectory(atPath: path("cache"), withIntermediateDirectories: true)
        try start(suggestions: false, exclude: ["cache", "*.tmp.jpg"])
        try write("cache/a.jpg")
        try write("b.tmp.jpg")
        try write("kept.jpg")
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("kept.jpg")) })
        try drain()
        XCTAssertEqual(recorder.inserted, [path("kept.jpg")])
    }

    /// mkdir sub; mv sub sub2; rm -r sub2 once ended the watch ("disappeared"): the kernel
    /// reuses the descriptor of the renamed folder.
    func testRenameThenDeleteOfASubfolderDoesNotEndTheWatch() throws {
        try start(suggestions: false)
        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: true)
        try drain()
        try FileManager.default.moveItem(atPath: path("sub"), toPath: path("sub2"))
        try drain()
        try FileManager.default.removeItem(atPath: path("sub2"))
        try drain()
        XCTAssertFalse(recorder.gone, "still watching")
        try write("after.jpg")
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("after.jpg")) })
    }

    func testASubfolderReplacedByAFileOfTheSameName() throws {
        try FileManager.default.createDirectory(atPath: path("x"), withIntermediateDirectories: true)
        try write("x/inner.jpg")
        try start(suggestions: false)
        try FileManager.default.removeItem(atPath: path("x"))
        try write("x")
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("x")) }, "\(recorder.all)")
        XCTAssertTrue(recorder.removed.contains(path("x/inner.jpg")))
        XCTAssertFalse(recorder.gone)
    }

    func testOnlyMediaFilesAndRealChangesAreNews() throws {
        try write("old.jpg")
        try start(suggestions: false)
        try dir.write("notes.txt", Array("not a photo".utf8))
        try write("x.jpg_original", fixture: "mmexport1700000000000.jpg")  // exiftool's backup: still a JPEG
        XCTAssertEqual(chmod(path("old.jpg"), 0o600), 0)
        try drain()
        XCTAssertEqual(recorder.inserted, [path("x.jpg_original")], "a JPEG whatever its name; notes.txt is not media")
        XCTAssertEqual(recorder.changed, [], "a chmod alone is not a change")
        try FileManager.default.removeItem(atPath: path("notes.txt"))
        try drain()
        XCTAssertEqual(recorder.removed, [], "nor is the removal of a file that was never news")
    }

    /// A browser: an empty ff.jpg first, the download in ff.jpg.part, renamed over it at the end.
    func testABrowserDownloadIsOneInsertion() throws {
        try start(suggestions: false)
        XCTAssertTrue(FileManager.default.createFile(atPath: path("ff.jpg"), contents: Data()))
        try write("ff.jpg.part")
        // That the empty file never counts as complete, however long it waits, is the tracker's
        // rule, tested by moving its clock (SettleTrackerTests.testAnEmptyFileIsNeverComplete).
        XCTAssertEqual(rename(path("ff.jpg.part"), path("ff.jpg")), 0)
        XCTAssertTrue(recorder.wait { recorder.inserted.contains(path("ff.jpg")) })
        try drain()
        XCTAssertEqual(recorder.inserted, [path("ff.jpg")])
        XCTAssertEqual(recorder.changed, [])
        let asset = recorder.changes.flatMap(\.inserted).first { $0.path == path("ff.jpg") }?.asset
        XCTAssertEqual(asset?.format, .jpeg)
    }

    /// Names that come and go leave nothing behind: bookkeeping follows the tree.
    func testChurnOfShortLivedNamesKeepsNothing() throws {
        try start(suggestions: false)
        for i in 0..<2_000 {
            let p = path("churn-\(i).jpg.part")
            XCTAssertTrue(FileManager.default.createFile(atPath: p, contents: Data([1, 2, 3])))
            try FileManager.default.removeItem(atPath: p)
            let q = path("churn-\(i).jpg")
            XCTAssertTrue(FileManager.default.createFile(atPath: q, contents: Data()))
            try FileManager.default.removeItem(atPath: q)
        }
        try drain()
        XCTAssertEqual(recorder.inserted, [], "nothing settled, nothing reported")
        // The sentinel's look tells its count just after its changes went out.
        XCTAssertTrue(recorder.wait { tracked.last != nil }, "the count of kept names was never told")
        XCTAssertEqual(tracked.last, 0, "no name kept once gone (peak \(tracked.peak))")
    }

    func testTheWatchedFolderMovedAwayEndsTheWatch() throws {
        try start(suggestions: false)
        let elsewhere = try TemporaryDirectory()
        try FileManager.default.moveItem(atPath: dir.path, toPath: elsewhere.path + "/moved")
        XCTAssertTrue(recorder.wait { recorder.gone })
        XCTAssertTrue(recorder.wait { recorder.thread?.isFinished == true }, "watching ends")
    }

    func testTemporaryNames() {
        for n in [
            ".x.jpg", "a.jpg~", "#a.jpg#", "#", "4913", "a.swp", "a.JPG.part", "a.crdownload", "a.tmp", "~$a.jpg",
            "photo.jpg.PARTIAL", "a.Kate-Swp", "x.jpg.CrDownload", "très.tmp", "a.jpg.!qB", "b.aria2",
            "IMG_0042.jpg.!sync", "c.jpg.opdownload",
            // Qt's QSaveFile: six random letters and digits after a picture's name.
            "Screenshot_20240101_120000.png.aB3xYz", "IMG_1.JPG.k2p9qa", "v.mp4.QWE123",
        ] {
            XCTAssertTrue(TemporaryNames.isTemporary(n), n)
            let p = "dir/" + n
            XCTAssertTrue(TemporaryNames.isTemporary(p[p.index(p.startIndex, offsetBy: 4)...]), n)
        }
        // Only the tail from the name's last dot is a suffix: a dot further back, or a tail
        // longer than any suffix, is none.
        for n in [
            "a.jpg", "IMG_0001.HEIC", "part.jpg", "tmp.png", "", "a.jpgpart", "ärger.jpg", "4913.jpg", "a.tmp.jpg",
            "a.crdownloadx", "a.part.x", "no dot at all", "a.x.crdownloads",
            // Six letters a person chose, or after a name that is no picture's.
            "photo.jpg.backup", "photo.jpg.BACKUP", "notes.txt.aB3xYz", "photo.jpg.aB3xY", "photo.jpg.aB3xYz1", "x.aB3xYz",
        ] {
            XCTAssertFalse(TemporaryNames.isTemporary(n), n)
        }
        // A name that is a slice of a longer path (what a scan passes) is judged on its own bytes.
        let path = "/photos/a.tmp/IMG_1.jpg"
        XCTAssertFalse(TemporaryNames.isTemporary(path[path.index(path.startIndex, offsetBy: 14)...]))
    }
}
