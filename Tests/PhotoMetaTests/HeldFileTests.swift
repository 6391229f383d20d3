import Foundation
import XCTest

@testable import PhotoMetaSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `PrivateFiles.hold`: the state file checked through the descriptor that is held, so what was
/// checked is what SQLite must then find under the name.
final class HeldFileTests: XCTestCase {
    func testAHeldFileNoticesItsNameTakenByAnotherFile() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.path + "/state.sqlite3"
        let held = try XCTUnwrap(PrivateFiles.hold(path, create: true))
        XCTAssertTrue(held.isStill(at: path))
        XCTAssertEqual(try FileFacts.of(path).permissions, 0o600)
        let other = try tmp.write("other", [1, 2, 3])
        XCTAssertEqual(rename(other, path), 0)
        XCTAssertFalse(held.isStill(at: path), "another file under the name is not the file checked")
    }

    func testLinksAndSpecialFilesAreRefusedThroughTheDescriptor() throws {
        let tmp = try TemporaryDirectory()
        let target = try tmp.write("target", [])
        XCTAssertEqual(symlink(target, tmp.path + "/link"), 0)
        XCTAssertThrowsError(try PrivateFiles.hold(tmp.path + "/link", create: true)) {
            XCTAssertEqual($0 as? PrivateFiles.Problem, .symbolicLink(path: tmp.path + "/link"))
        }
        // A FIFO is refused without blocking the open (O_NONBLOCK).
        XCTAssertEqual(mkfifo(tmp.path + "/fifo", 0o600), 0)
        XCTAssertThrowsError(try PrivateFiles.hold(tmp.path + "/fifo", create: false)) {
            XCTAssertEqual($0 as? PrivateFiles.Problem, .notARegularFile(path: tmp.path + "/fifo"))
        }
        XCTAssertNil(try PrivateFiles.hold(tmp.path + "/missing", create: false))
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.path + "/missing"), "nothing created")
    }

    func testALooseFileIsTightenedThroughTheDescriptor() throws {
        let tmp = try TemporaryDirectory()
        let path = try tmp.write("loose", [])
        XCTAssertEqual(chmod(path, 0o644), 0)
        _ = try XCTUnwrap(PrivateFiles.hold(path, create: false))
        XCTAssertEqual(try FileFacts.of(path).permissions, 0o600)
    }
}
