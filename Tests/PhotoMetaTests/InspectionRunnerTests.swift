import Foundation
import PhotoMetaCore
import PhotoMetaTestSupport
import Synchronization
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaSystem

/// `InspectionRunner.run` inspects a few files named on the command line on the calling thread
/// and everything else on its workers; both give the same results, in the same order, with the
/// same problems.
final class InspectionRunnerTests: XCTestCase {
    private struct Row: Equatable, Sendable {
        var path: String
        var explicit: Bool
        var format: MediaFormat?
        var captured: String?
        var error: String?
        var size: Int64?
        var pair: String?
    }

    private struct Outcome {
        var rows: [Row]
        var problems: [String]
        var renderedOnCaller: Bool
        var renderedElsewhere: Bool
    }

    private func run(_ paths: [String], recursive: Bool = false) -> Outcome {
        let caller = pthread_self()
        let onCaller = Atomic<Bool>(false)
        let elsewhere = Atomic<Bool>(false)
        let rows = Mutex<[Row]>([])
        let problems = Mutex<[String]>([])
        InspectionRunner.run(
            paths: paths, recursive: recursive,
            problem: { p in
                switch p {
                case .unreadable(let path, let reason): problems.withLock { $0.append("\(path): \(reason)") }
                case .notAFile(let path): problems.withLock { $0.append("\(path): not a file") }
                }
            },
            render: { item, asset in
                if pthread_equal(pthread_self(), caller) != 0 {
                    onCaller.store(true, ordering: .relaxed)
                } else {
                    elsewhere.store(true, ordering: .relaxed)
                }
                return Row(
                    path: item.path, explicit: item.explicit, format: asset.format,
                    captured: asset.captured.map { "\($0)" }, error: asset.error.map { "\($0)" }, size: asset.fileSize,
                    pair: asset.livePhotoPair)
            },
            emit: { row in rows.withLock { $0.append(row) } })
        return Outcome(
            rows: rows.withLock { $0 }, problems: problems.withLock { $0 },
            renderedOnCaller: onCaller.load(ordering: .relaxed), renderedElsewhere: elsewhere.load(ordering: .relaxed))
    }

    func testAFewNamedFilesAreInspectedOnTheCallingThreadAsTheWorkersWould() {
        let names = [
            "IMG_20240315_093012.jpg", "DSC_0001.JPG", "IMG_0001.HEIC", "truncated.jpg", "clip.mp4", "anim.gif",
        ]
        let named = names.map(TestPaths.fixture)
        // A duplicate, a folder without -r and a missing file, among the files.
        let few = named + [named[0], TestPaths.library.path]
        let missing = TestPaths.fixture("zz-missing.jpg")
        XCTAssertTrue(InspectionRunner.runsInline(paths: few, recursive: false, fileList: nil))
        XCTAssertFalse(InspectionRunner.runsInline(paths: few + [missing], recursive: false, fileList: nil))
        XCTAssertFalse(InspectionRunner.runsInline(paths: [named[0]], recursive: true, fileList: nil))

        let inline = run(few)
        XCTAssertTrue(inline.renderedOnCaller)
        XCTAssertFalse(inline.renderedElsewhere, "a few named files need no worker")
        let threaded = run(few + [missing])
        XCTAssertFalse(threaded.renderedOnCaller)
        XCTAssertTrue(threaded.renderedElsewhere)

        // In path order, each file once, the folder a problem, the missing file a row with its error.
        XCTAssertEqual(inline.rows.map(\.path), named.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        XCTAssertEqual(inline.problems, ["\(TestPaths.library.path): is a directory (use -r to inspect its contents)"])
        XCTAssertEqual(threaded.rows.dropLast(), inline.rows[...])
        XCTAssertEqual(threaded.problems, inline.problems)
        XCTAssertEqual(threaded.rows.last?.path, missing)
        XCTAssertNotNil(threaded.rows.last?.error)
        XCTAssertTrue(inline.rows.allSatisfy { $0.explicit && $0.error == nil }, "\(inline.rows)")
    }

    /// A walked folder's regular files are handed on as the listing names them, without a
    /// `statx` each (`TreeWalker.examinesListedFiles`): their size and file times come from the
    /// descriptor that reads them, and a Live Photo's partner from its own `statx`. Every row
    /// is the one inspecting the file by its name gives.
    func testWalkedFilesReportWhatTheirOpeningTellsAsNamedFilesDo() throws {
        let dir = try TemporaryDirectory()
        for name in ["IMG_0001.HEIC", "IMG_0001.MOV", "still.gif", "DSC_0001.JPG", "truncated.jpg"] {
            try FileManager.default.copyItem(atPath: TestPaths.fixture(name), toPath: dir.path + "/" + name)
        }
        // File times that date the undated GIF, set apart from the copy's time.
        let old = Date(timeIntervalSince1970: 1_600_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: dir.path + "/still.gif")
        try FileManager.default.createSymbolicLink(
            atPath: dir.path + "/link.jpg", withDestinationPath: dir.path + "/DSC_0001.JPG")
        try Data().write(to: URL(fileURLWithPath: dir.path + "/empty.jpg"))

        let scan = CommandLinePaths(recursive: true).collect([dir.path])
        XCTAssertEqual(scan.items.count, 7)
        for item in scan.items {
            let isLink = item.path.hasSuffix("/link.jpg")
            XCTAssertEqual(item.unexamined, !isLink, item.path)
            XCTAssertEqual(item.facts == nil, !isLink, "a link is examined (where it leads), a listed file is not: \(item.path)")
        }

        let walked = run([dir.path], recursive: true)
        XCTAssertEqual(walked.problems, [])
        let named = scan.items.map { item in
            let asset = FileInspector.inspect(path: item.path)
            return Row(
                path: item.path, explicit: false, format: asset.format, captured: asset.captured.map { "\($0)" },
                error: asset.error.map { "\($0)" }, size: asset.fileSize, pair: asset.livePhotoPair)
        }
        XCTAssertEqual(walked.rows, named)
        let gif = walked.rows.first { $0.path.hasSuffix("/still.gif") }
        XCTAssertEqual(
            gif?.captured.map { $0.contains("2020-09-13") }, true, "dated by its file time: \(String(describing: gif))")
        XCTAssertNotNil(walked.rows.first { $0.path.hasSuffix("/IMG_0001.HEIC") }?.pair, "the partner found and paired")
        XCTAssertEqual(walked.rows.first { $0.path.hasSuffix("/empty.jpg") }?.size, 0)
    }
}
