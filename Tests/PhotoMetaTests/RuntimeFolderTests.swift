import Foundation
import XCTest

@testable import PhotoMetaSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `RuntimeFolder`: `$XDG_RUNTIME_DIR/photometa`, located from an environment, created 0700,
/// refused when it or its base is a link, another user's, or writable by others (issue 20).
final class RuntimeFolderTests: XCTestCase {
    func testLocatedFromTheEnvironmentOrWhyNot() {
        XCTAssertEqual(RuntimeFolder.locate(environment: [:]), .failure(.unset))
        XCTAssertEqual(RuntimeFolder.locate(environment: ["XDG_RUNTIME_DIR": ""]), .failure(.unset))
        XCTAssertEqual(RuntimeFolder.locate(environment: ["XDG_RUNTIME_DIR": "run/user"]), .failure(.notAbsolute("run/user")))
        let folder = try? RuntimeFolder.locate(environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"]).get()
        XCTAssertEqual(folder?.base, "/run/user/1000")
        XCTAssertEqual(folder?.path, "/run/user/1000/photometa")
        XCTAssertEqual(folder?.file("serve.lock"), "/run/user/1000/photometa/serve.lock")
        XCTAssertTrue(RuntimeFolder.Unavailable.unset.description.contains("XDG_RUNTIME_DIR"))
    }

    func testPreparedFolderIsCreatedPrivateAndAcceptedAgain() throws {
        let tmp = try TemporaryDirectory()
        XCTAssertEqual(chmod(tmp.path, 0o700), 0)
        let folder = RuntimeFolder(base: tmp.path)
        XCTAssertThrowsError(try folder.check(), "a client creates nothing") {
            guard case .system(_, let e)? = $0 as? RuntimeFolder.Problem else { return XCTFail("\($0)") }
            XCTAssertEqual(e.errno, ENOENT)
        }
        try folder.prepare()
        let facts = try FileFacts.of(folder.path, followLinks: false)
        XCTAssertEqual(facts.type, .directory)
        XCTAssertEqual(facts.permissions, 0o700)
        try folder.prepare()
        try folder.check()
    }

    func testAMissingBaseIsNotCreated() throws {
        let tmp = try TemporaryDirectory()
        let folder = RuntimeFolder(base: tmp.path + "/gone")
        XCTAssertThrowsError(try folder.prepare()) {
            guard case .system(let path, let e)? = $0 as? RuntimeFolder.Problem else { return XCTFail("\($0)") }
            XCTAssertEqual(path, tmp.path + "/gone")
            XCTAssertEqual(e.errno, ENOENT)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.path + "/gone"))
    }

    func testLinksAreRefused() throws {
        let tmp = try TemporaryDirectory()
        let real = tmp.path + "/real"
        XCTAssertEqual(mkdir(real, 0o700), 0)
        XCTAssertEqual(symlink(real, tmp.path + "/base-link"), 0)
        let viaLink = RuntimeFolder(base: tmp.path + "/base-link")
        XCTAssertThrowsError(try viaLink.prepare()) {
            XCTAssertEqual($0 as? RuntimeFolder.Problem, .symbolicLink(path: tmp.path + "/base-link"))
        }
        // The photometa folder itself planted as a link to a folder elsewhere.
        XCTAssertEqual(mkdir(tmp.path + "/elsewhere", 0o700), 0)
        XCTAssertEqual(symlink(tmp.path + "/elsewhere", real + "/photometa"), 0)
        let planted = RuntimeFolder(base: real)
        XCTAssertThrowsError(try planted.prepare()) {
            XCTAssertEqual($0 as? RuntimeFolder.Problem, .symbolicLink(path: real + "/photometa"))
        }
        XCTAssertThrowsError(try planted.check())
    }

    func testFoldersOthersCanWriteAreRefused() throws {
        let tmp = try TemporaryDirectory()
        XCTAssertEqual(chmod(tmp.path, 0o777), 0)
        XCTAssertThrowsError(try RuntimeFolder(base: tmp.path).prepare()) {
            XCTAssertEqual($0 as? RuntimeFolder.Problem, .writableByOthers(path: tmp.path, permissions: 0o777))
            XCTAssertTrue("\($0)".contains("777"), "\($0)")
        }
        XCTAssertEqual(chmod(tmp.path, 0o700), 0)
        let folder = RuntimeFolder(base: tmp.path)
        try folder.prepare()
        XCTAssertEqual(chmod(folder.path, 0o777), 0)
        XCTAssertThrowsError(try folder.check()) {
            XCTAssertEqual($0 as? RuntimeFolder.Problem, .writableByOthers(path: folder.path, permissions: 0o777))
        }
    }

    func testAnotherUsersFolderIsRefused() throws {
        guard geteuid() == 0 else { throw XCTSkip("giving a folder to another user needs root") }
        let tmp = try TemporaryDirectory()
        let folder = RuntimeFolder(base: tmp.path)
        try folder.prepare()
        XCTAssertEqual(chown(folder.path, 65_534, 65_534), 0)
        XCTAssertThrowsError(try folder.prepare()) {
            XCTAssertEqual($0 as? RuntimeFolder.Problem, .ownedByAnotherUser(path: folder.path, owner: 65_534))
        }
    }
}
