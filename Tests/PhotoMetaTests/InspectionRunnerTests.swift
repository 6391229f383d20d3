import Foundation
import PhotoMetaCore
import PhotoMetaTestSupport
import Synchronization
import XCTest

@testable import PhotoMeta

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
    }

    private struct Outcome {
        var rows: [Row]
        var problems: [String]
        var renderedOnCaller: Bool
        var renderedElsewhere: Bool
    }

    private func run(_ paths: [String]) -> Outcome {
        let caller = pthread_self()
        let onCaller = Atomic<Bool>(false)
        let elsewhere = Atomic<Bool>(false)
        let rows = Mutex<[Row]>([])
        let problems = Mutex<[String]>([])
        InspectionRunner.run(
            paths: paths, recursive: false,
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
                    captured: asset.captured.map { "\($0)" }, error: asset.error.map { "\($0)" })
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
}
