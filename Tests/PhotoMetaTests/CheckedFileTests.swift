import Foundation
import XCTest

@testable import PhotoMetaSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `PrivateFiles.check`: the state file checked (device and inode), so what was checked is what
/// SQLite must then find under the name.
final class CheckedFileTests: XCTestCase {
    func testACheckedFileNoticesItsNameTakenByAnotherFile() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.path + "/state.sqlite3"
        let checked = try XCTUnwrap(PrivateFiles.check(path, create: true))
        XCTAssertTrue(checked.isStill(at: path))
        XCTAssertEqual(try FileFacts.of(path).permissions, 0o600)
        let other = try tmp.write("other", [1, 2, 3])
        XCTAssertEqual(rename(other, path), 0)
        XCTAssertFalse(checked.isStill(at: path), "another file under the name is not the file checked")
    }

    func testLinksAndSpecialFilesAreRefused() throws {
        let tmp = try TemporaryDirectory()
        let target = try tmp.write("target", [])
        XCTAssertEqual(symlink(target, tmp.path + "/link"), 0)
        XCTAssertThrowsError(try PrivateFiles.check(tmp.path + "/link", create: true)) {
            XCTAssertEqual($0 as? PrivateFiles.Problem, .symbolicLink(path: tmp.path + "/link"))
        }
        // A FIFO is refused, and nothing blocks on it (it is never opened).
        XCTAssertEqual(mkfifo(tmp.path + "/fifo", 0o600), 0)
        XCTAssertThrowsError(try PrivateFiles.check(tmp.path + "/fifo", create: false)) {
            XCTAssertEqual($0 as? PrivateFiles.Problem, .notARegularFile(path: tmp.path + "/fifo"))
        }
        XCTAssertNil(try PrivateFiles.check(tmp.path + "/missing", create: false))
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.path + "/missing"), "nothing created")
    }

    func testALooseFileIsTightened() throws {
        let tmp = try TemporaryDirectory()
        let path = try tmp.write("loose", [])
        XCTAssertEqual(chmod(path, 0o644), 0)
        _ = try XCTUnwrap(PrivateFiles.check(path, create: false))
        XCTAssertEqual(try FileFacts.of(path).permissions, 0o600)
    }
}
