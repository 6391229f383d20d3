import Foundation
import Synchronization
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaSystem

/// `inspect` and `suggest` pair Live Photos with one rule, so every file gets the same kind from
/// both (the issue that motivated the rule: they used to disagree).
final class KindAgreementTests: XCTestCase {
    func testInspectAndSuggestGiveEveryFixtureTheSameKind() throws {
        for folder in [TestPaths.library.path, TestPaths.pairing.path] {
            try checkAgreement(folder)
        }
        let library = TestPaths.library.path
        // A file inspected alone (no folder listing) pairs the same way.
        XCTAssertEqual(FileInspector.inspect(path: library + "/IMG_0001.HEIC").kind, .livePhoto)
        XCTAssertEqual(FileInspector.inspect(path: library + "/IMG_0001.MOV").livePhotoPair, library + "/IMG_0001.HEIC")
    }

    /// Halves with no date of their own: `suggest` dates every file by its file times (or a
    /// sidecar), so `inspect` reads a partner the same way, and both pair (or not) alike.
    func testUndatedHalvesPairAlikeInBothCommands() throws {
        let dir = try TemporaryDirectory()
        let thumbs = TestPaths.thumbnails
        let heic = try [UInt8](Data(contentsOf: thumbs.appendingPathComponent("plain.heic")))
        let clip = try [UInt8](Data(contentsOf: thumbs.appendingPathComponent("clip.mp4")))
        _ = try dir.write("IMG_0100.HEIC", heic)
        _ = try dir.write("IMG_0100.MOV", clip)
        // A still dated by its sidecar only, its clip by its file's time: far apart, no pair.
        _ = try dir.write("IMG_0101.HEIC", heic)
        _ = try dir.write("IMG_0101.MOV", clip)
        _ = try dir.write(
            "IMG_0101.HEIC.xmp",
            Array(
                """
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:DateTimeOriginal="2019-05-01T10:00:00+02:00"/>
                </rdf:RDF></x:xmpmeta>
                """.utf8))
        try checkAgreement(dir.path)
        XCTAssertEqual(FileInspector.inspect(path: dir.path + "/IMG_0100.HEIC").kind, .livePhoto)
        XCTAssertEqual(FileInspector.inspect(path: dir.path + "/IMG_0101.HEIC").kind, .photo)
    }

    /// The Live Photo rule's passes, through both commands: one identifier across two names,
    /// one name with close times and a short clip, one name that is not a Live Photo.
    func testThePairingFixtures() throws {
        let dir = TestPaths.pairing.path
        let still = FileInspector.inspect(path: dir + "/IMG_0007.JPG")
        XCTAssertEqual(still.livePhotoPair, dir + "/IMG_0007(1).MOV", "paired by identifier across names")
        XCTAssertEqual(still.livePhotoEvidence, .contentIdentifier)
        XCTAssertEqual(FileInspector.inspect(path: dir + "/IMG_0007(1).MOV").livePhotoPair, dir + "/IMG_0007.JPG")
        let walk = FileInspector.inspect(path: dir + "/walk.jpg")
        XCTAssertEqual(walk.kind, .livePhoto)
        XCTAssertEqual(walk.livePhotoEvidence, .baseNameAndTime)
        XCTAssertEqual(FileInspector.inspect(path: dir + "/fixture.jpg").kind, .photo, "a 12 s clip three years later")
        XCTAssertNil(FileInspector.inspect(path: dir + "/fixture.mov").livePhotoPair)
    }

    /// A name that is not ASCII reaches the disk composed or decomposed (a copy through macOS
    /// decomposes it): a Live Photo whose still is "Café" in one spelling and whose movie is in
    /// the other still pairs, in `inspect -r`, `suggest` and a file inspected alone.
    func testComposedAndDecomposedNamesPair() throws {
        let dir = try TemporaryDirectory()
        let pairing = TestPaths.pairing.path
        let still = try dir.copy(pairing + "/walk.jpg", as: "Caf\u{E9}.jpg")
        let movie = try dir.copy(pairing + "/walk.mov", as: "Cafe\u{301}.mov")
        XCTAssertEqual(FileSystem.entryNames(dir.path)?.count, 2, "two names on the disk")
        try checkAgreement(dir.path)
        let alone = FileInspector.inspect(path: still)
        XCTAssertEqual(alone.kind, .livePhoto)
        XCTAssertEqual(alone.livePhotoEvidence, .baseNameAndTime)
        XCTAssertEqual(alone.livePhotoPair.map { Array($0.utf8) }, Array(movie.utf8), "the movie's own spelling")
        XCTAssertEqual(FileInspector.inspect(path: movie).livePhotoPair.map { Array($0.utf8) }, Array(still.utf8))
        let kinds = Mutex<[String: MediaKind]>([:])
        InspectionRunner.run(
            paths: [dir.path], recursive: true, problem: { _ in }, render: { item, asset in (item.path, asset.kind) },
            emit: { r in kinds.withLock { $0[r.0] = r.1 } })
        XCTAssertEqual(kinds.withLock { $0[still] }, .livePhoto)
    }

    private func checkAgreement(_ folder: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let state = try TemporaryDirectory()
        var o = Suggester.Options(settings: SuggestionSettings(zone: utcZone))
        o.settings.includeVideos = true
        // Far in the future: every file is turned down (by recency at the latest), and each
        // rejection carries the kind the rules saw.
        o.now = Date(timeIntervalSince1970: 4_000_000_000)
        o.statePath = state.path + "/state.sqlite3"
        o.indexPath = nil
        o.record = false
        let outcome = try Suggester(options: o).run(folder: folder)
        XCTAssertNil(outcome.decision.suggestion)
        let fromSuggest = Dictionary(uniqueKeysWithValues: outcome.decision.rejected.map { ($0.path, $0.kind) })

        let collected = Mutex<[String: MediaKind]>([:])
        InspectionRunner.run(
            paths: [folder], recursive: true, problem: { _ in }, render: { item, asset in (item.path, asset.kind) },
            emit: { r in collected.withLock { $0[r.0] = r.1 } })
        let fromInspect = collected.withLock { $0 }
        XCTAssertEqual(Set(fromSuggest.keys), Set(fromInspect.keys), file: file, line: line)
        for (path, kind) in fromInspect {
            XCTAssertEqual(fromSuggest[path], kind, path, file: file, line: line)
            // And one file alone, without the folder's listing.
            XCTAssertEqual(FileInspector.inspect(path: path).kind, kind, path, file: file, line: line)
        }
        XCTAssertTrue(fromInspect.values.contains(.livePhoto), "each folder has a Live Photo", file: file, line: line)
    }
}

/// The walker's one depth limit is the same for both policies and is reported when hit.
final class TreeWalkerTests: XCTestCase {
    func testTheDepthLimitIsReportedNotSilent() throws {
        let dir = try TemporaryDirectory()
        var rel = ""
        for i in 0...(TreeWalker.depthLimit + 1) {
            rel += (rel.isEmpty ? "" : "/") + "d\(i)"
        }
        try dir.write(rel + "/deep.jpg", try TestPaths.bytes("mmexport1700000000000.jpg"))
        try dir.write("top.jpg", try TestPaths.bytes("mmexport1700000000000.jpg"))
        for policy in [TreeWalker.Policy.commandLine, .library] {
            var files: [String] = []
            var skipped: [(String, TreeWalker.SkipReason)] = []
            TreeWalker(policy: policy).walk(try FileSystem.canonicalFolder(dir.path)) { event in
                switch event {
                case .files(_, let f): files += f.map(\.relative)
                case .folderDone, .subfolder: break
                case .skipped(_, let r, let reason): skipped.append((r, reason))
                }
            }
            XCTAssertEqual(files, ["top.jpg"])
            XCTAssertEqual(skipped.count, 1)
            XCTAssertEqual(skipped.first?.1, .tooDeep)
            XCTAssertEqual(skipped.first?.0.split(separator: "/").count, TreeWalker.depthLimit + 1)
        }
        // Both commands say so.
        let scan = CommandLinePaths(recursive: true).collect([dir.path])
        XCTAssertEqual(scan.errors.count, 1)
        XCTAssertTrue(scan.errors.first?.reason.contains("deeper than 64") == true, "\(scan.errors)")
        let state = try TemporaryDirectory()
        var o = Suggester.Options(settings: SuggestionSettings(zone: utcZone))
        o.statePath = state.path + "/state.sqlite3"
        o.indexPath = nil
        let outcome = try Suggester(options: o).run(folder: dir.path)
        XCTAssertEqual(outcome.skipped.map(\.reason), [TreeWalker.SkipReason.tooDeep.description])
    }

    func testAFolderReachedTwiceIsWalkedOnce() throws {
        let dir = try TemporaryDirectory()
        try dir.write("a/x.jpg", try TestPaths.bytes("mmexport1700000000000.jpg"))
        let scan = CommandLinePaths(recursive: true).collect([dir.path, dir.path + "/"])
        XCTAssertEqual(scan.items.map(\.path), [dir.path + "/a/x.jpg"])
    }
}
