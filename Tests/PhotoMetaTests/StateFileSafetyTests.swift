import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// The state and the index are opened only where no one else can redirect them, are private
/// to their user, and a damaged memory is never written (issue 13, items 5, 6, 9, 10).
final class StateFileSafetyTests: XCTestCase {
    func mode(_ path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// SQLite keeps statement journals and sorts in memory: a confined photometa may not write in
    /// /var/tmp or /tmp, where it would spill them (docs/sandbox.md).
    func testTemporaryFilesStayInMemory() throws {
        let dir = try TemporaryDirectory(prefix: "pm-tempstore")
        let db = try SQLiteDatabase(path: dir.path + "/t.sqlite3")
        XCTAssertEqual(try db.query("PRAGMA temp_store").first?.first?.int, 2, "2 is MEMORY")
    }

    /// `executeEach` binds every parameter of every row anew (nothing is cleared between
    /// rows), so a row with a value missing is refused, never stored with the row before's.
    func testARowWithAValueMissingIsRefused() throws {
        let dir = try TemporaryDirectory(prefix: "pm-binder")
        let db = try SQLiteDatabase(path: dir.path + "/t.sqlite3")
        try db.execute("CREATE TABLE t (a TEXT, b INTEGER)")
        try db.executeEach("INSERT INTO t VALUES (?, ?)", [[.text("x"), .integer(1)], [.text("y"), .null]])
        XCTAssertThrowsError(try db.executeEach("INSERT INTO t VALUES (?, ?)", [[.text("z"), .integer(2)], [.text("w")]]))
        let rows = try db.query("SELECT a, b FROM t ORDER BY a")
        // "z" went in before the short row was refused (no transaction here); "w" never did.
        XCTAssertEqual(rows, [[.text("x"), .integer(1)], [.text("y"), .null], [.text("z"), .integer(2)]])
    }

    func testNewFilesAndFoldersArePrivate() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/a/b/photometa/state.sqlite3"
        let memory = try SuggestionMemory(path: path)
        try memory.advance(profile: "x", to: 1, offered: nil, now: 2)
        XCTAssertEqual(try mode(path), 0o600)
        XCTAssertEqual(try mode(dir.path + "/a/b/photometa"), 0o700)
        XCTAssertEqual(try mode(dir.path + "/a"), 0o700)
    }

    func testAnOlderLooseFileIsMadePrivate() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/state.sqlite3"
        _ = try SuggestionMemory(path: path)
        XCTAssertEqual(chmod(path, 0o644), 0)
        _ = try SuggestionMemory(path: path)
        XCTAssertEqual(try mode(path), 0o600)
    }

    func testAPlantedSymbolicLinkIsNotFollowed() throws {
        let dir = try TemporaryDirectory()
        let target = dir.path + "/elsewhere.sqlite3"
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/state.sqlite3", withDestinationPath: target)
        XCTAssertThrowsError(try SuggestionMemory(path: dir.path + "/state.sqlite3")) { error in
            XCTAssertTrue("\(error)".contains("symbolic link"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: target), "nothing created at the link's target")
        // A linked folder is refused the same way.
        let real = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/photometa", withDestinationPath: real.path)
        XCTAssertThrowsError(try SuggestionMemory(path: dir.path + "/photometa/state.sqlite3"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: real.path), [])
    }

    /// A link above the state's own folder is the user's layout, not a planted one: a HOME
    /// reached through one (Fedora Silverblue's `/home` -> `var/home`) opens, writes, and reads
    /// back, read-only too, with the files in the real folder.
    func testALinkAboveTheFolderIsTheUsersLayout() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path + "/var-home", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/home", withDestinationPath: "var-home")
        let path = dir.path + "/home/.local/state/photometa/state.sqlite3"
        let memory = try SuggestionMemory(path: path)
        _ = try memory.advance(profile: "x", to: 5, offered: nil, now: 6)
        XCTAssertEqual(try SuggestionMemory(path: path, readOnly: true).remembered(profile: "x"), 5)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path + "/var-home/.local/state/photometa/state.sqlite3"))
    }

    /// A folder whose name is not UTF-8 (`st\xFF`): SQLite is given the exact bytes, as every
    /// other system call is, and the file opens, writes and reads back, read-only too.
    func testAFolderWhoseNameIsNotUTF8() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/" + PathBytes.decode(Array("st".utf8) + [0xFF]) + "/state.sqlite3"
        _ = try SuggestionMemory(path: path).advance(profile: "x", to: 5, offered: nil, now: 6)
        XCTAssertEqual(try SuggestionMemory(path: path, readOnly: true).remembered(profile: "x"), 5)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).count, 1, "one folder, no other")
    }

    func testAFolderOthersCanWriteIsRefused() throws {
        let dir = try TemporaryDirectory()
        XCTAssertEqual(chmod(dir.path, 0o777), 0)
        XCTAssertThrowsError(try SuggestionMemory(path: dir.path + "/state.sqlite3")) { error in
            XCTAssertTrue("\(error)".contains("can be written by other users"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/state.sqlite3"))
    }

    func testAPartlyDamagedMemoryIsRefusedAndLeftUntouched() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/state.sqlite3"
        do {
            let memory = try SuggestionMemory(path: path)
            for i in 0..<400 {
                try memory.advance(profile: "p\(i)-" + String(repeating: "x", count: 60), to: 1, offered: nil, now: 2)
            }
        }
        // Fold the WAL into the file, then zero its last page (a leaf of the table or of its
        // primary-key index: the header and the schema stay readable).
        let db = try SQLiteDatabase(path: path)
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertGreaterThan(size, 3 * 4096)
        let h = try XCTUnwrap(FileHandle(forUpdatingAtPath: path))
        try h.seek(toOffset: UInt64(size - 4096))
        h.write(Data(repeating: 0, count: 4096))
        try h.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try SuggestionMemory(path: path)) { error in
            switch error as? StateFileError {
            case .damaged?, .notADatabase?: break
            default: XCTFail("\(error)")
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "not written")
    }

    func testReadOnlyOpeningCreatesNothing() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/photometa/state.sqlite3"
        let memory = try SuggestionMemory(path: path, readOnly: true)
        XCTAssertNil(try memory.remembered(profile: "x"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/photometa"))
        XCTAssertThrowsError(try memory.advance(profile: "x", to: 1, offered: nil, now: 1))
    }

    func testNoFolderIsMadeAtTheTopOfTheFileSystem() throws {
        let home = "/photometa-no-such-home-\(UUID().uuidString)"
        XCTAssertThrowsError(try SuggestionMemory(path: home + "/.local/state/photometa/state.sqlite3")) { error in
            XCTAssertTrue("\(error)".contains("does not exist"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: home))
    }
}
