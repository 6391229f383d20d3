import Foundation
import XCTest

@testable import PhotoMetaSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `UnixSocketListener` and `UnixSocket`: lines both ways, bounded waits, and a client that
/// trusts only a socket of this user's with a server of this user's (issue 20).
final class UnixSocketTests: XCTestCase {
    /// A private folder for sockets (TemporaryDirectory's own path can be long; sun_path is not).
    private func folder() throws -> TemporaryDirectory {
        let tmp = try TemporaryDirectory(prefix: "pm-sock")
        XCTAssertEqual(chmod(tmp.path, 0o700), 0)
        return tmp
    }

    func testLinesTravelBothWays() throws {
        let tmp = try folder()
        let path = tmp.path + "/s"
        let listener = try UnixSocketListener(path: path)
        let facts = try FileFacts.of(path, followLinks: false)
        XCTAssertEqual(facts.type, .other("a socket"))
        XCTAssertEqual(facts.permissions, 0o600)
        let client = try UnixSocket.connect(path: path, timeoutMilliseconds: 1000)
        let server = try XCTUnwrap(try listener.accept(timeoutMilliseconds: 1000))
        XCTAssertEqual(try client.peer().uid, geteuid())
        XCTAssertEqual(try server.peer().pid, getpid())
        try client.send(line: "recent -n 2")
        try client.send(line: "")
        XCTAssertEqual(try server.receiveLine(timeoutMilliseconds: 1000, maxBytes: 100), "recent -n 2")
        XCTAssertEqual(try server.receiveLine(timeoutMilliseconds: 1000, maxBytes: 100), "")
        try server.send(line: "{\"path\":\"/photos/été.jpg\"}")
        XCTAssertEqual(try client.receiveLine(timeoutMilliseconds: 1000, maxBytes: 100), "{\"path\":\"/photos/été.jpg\"}")
        XCTAssertThrowsError(try client.send(line: "two\nlines")) { XCTAssertEqual($0 as? UnixSocket.Failure, .notALine) }
        // The server hangs up between lines: the end of the stream, not an error.
        withExtendedLifetime(server) {}
        _ = consume server
        XCTAssertNil(try client.receiveLine(timeoutMilliseconds: 1000, maxBytes: 100))
        // Writing to it is an error (EPIPE), not SIGPIPE.
        XCTAssertThrowsError(try client.send(line: "anyone?")) { XCTAssertEqual($0 as? UnixSocket.Failure, .closed) }
        withExtendedLifetime(listener) {}
    }

    func testSilenceTimesOut() throws {
        let tmp = try folder()
        let listener = try UnixSocketListener(path: tmp.path + "/s")
        let start = ContinuousClock.now
        XCTAssertNil(try listener.accept(timeoutMilliseconds: 50), "no client came")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(50))
        let client = try UnixSocket.connect(path: tmp.path + "/s", timeoutMilliseconds: 1000)
        let server = try XCTUnwrap(try listener.accept(timeoutMilliseconds: 1000))
        let asked = ContinuousClock.now
        XCTAssertThrowsError(try client.receiveLine(timeoutMilliseconds: 100, maxBytes: 100)) {
            XCTAssertEqual($0 as? UnixSocket.Failure, .timedOut(milliseconds: 100))
        }
        let waited = ContinuousClock.now - asked
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(100))
        XCTAssertLessThan(waited, .milliseconds(1000))
        // A line that comes within the time is taken at once.
        try server.send(line: "")
        XCTAssertEqual(try client.receiveLine(timeoutMilliseconds: 100, maxBytes: 100), "")
        withExtendedLifetime(server) {}
    }

    func testALineOverTheLimitIsRefused() throws {
        let tmp = try folder()
        let listener = try UnixSocketListener(path: tmp.path + "/s")
        let client = try UnixSocket.connect(path: tmp.path + "/s", timeoutMilliseconds: 1000)
        let server = try XCTUnwrap(try listener.accept(timeoutMilliseconds: 1000))
        try client.send(line: String(repeating: "x", count: 100))
        XCTAssertEqual(try server.receiveLine(timeoutMilliseconds: 1000, maxBytes: 100)?.count, 100)
        try client.send(line: String(repeating: "y", count: 101))
        XCTAssertThrowsError(try server.receiveLine(timeoutMilliseconds: 1000, maxBytes: 100)) {
            XCTAssertEqual($0 as? UnixSocket.Failure, .lineTooLong(maxBytes: 100))
        }
        // Refused as soon as the limit is passed, without waiting for a newline that never comes.
        let endless = try UnixSocket.connect(path: tmp.path + "/s", timeoutMilliseconds: 1000)
        let other = try XCTUnwrap(try listener.accept(timeoutMilliseconds: 1000))
        try endless.send(line: String(repeating: "z", count: 5000))
        XCTAssertThrowsError(try other.receiveLine(timeoutMilliseconds: 1000, maxBytes: 64)) {
            XCTAssertEqual($0 as? UnixSocket.Failure, .lineTooLong(maxBytes: 64))
        }
    }

    func testPlantedFilesAtTheSocketPathAreRefused() throws {
        let tmp = try folder()
        let planted = try tmp.write("planted", Array("not a socket".utf8))
        XCTAssertThrowsError(try UnixSocket.connect(path: planted, timeoutMilliseconds: 100)) {
            XCTAssertEqual($0 as? UnixSocket.Failure, .untrusted(path: planted, what: "a regular file"))
        }
        XCTAssertThrowsError(try UnixSocketListener(path: planted), "a listener removes only a socket") {
            XCTAssertEqual($0 as? UnixSocket.Failure, .untrusted(path: planted, what: "a regular file"))
        }
        XCTAssertEqual(try String(contentsOfFile: planted, encoding: .utf8), "not a socket")
        // A link to a real, listening socket is still refused.
        let listener = try UnixSocketListener(path: tmp.path + "/real")
        XCTAssertEqual(symlink(tmp.path + "/real", tmp.path + "/link"), 0)
        XCTAssertThrowsError(try UnixSocket.connect(path: tmp.path + "/link", timeoutMilliseconds: 100)) {
            XCTAssertEqual($0 as? UnixSocket.Failure, .untrusted(path: tmp.path + "/link", what: "a symbolic link"))
        }
        XCTAssertThrowsError(try UnixSocket.connect(path: tmp.path + "/none", timeoutMilliseconds: 100)) {
            XCTAssertEqual($0 as? UnixSocket.Failure, .missing(path: tmp.path + "/none"))
        }
        guard geteuid() == 0 else { throw XCTSkip("giving a socket to another user needs root") }
        XCTAssertEqual(lchown(tmp.path + "/real", 65_534, 65_534), 0)
        XCTAssertThrowsError(try UnixSocket.connect(path: tmp.path + "/real", timeoutMilliseconds: 100)) {
            let foreign = UnixSocket.Failure.untrusted(path: tmp.path + "/real", what: "a socket of another user (uid 65534)")
            XCTAssertEqual($0 as? UnixSocket.Failure, foreign)
        }
        withExtendedLifetime(listener) {}
    }

    /// A dead service's socket file: refused by clients, replaced by the next listener; the
    /// listener removes its own file when it goes, and only its own.
    func testAStaleSocketIsReplacedAndTheListenersOwnFileRemoved() throws {
        let tmp = try folder()
        let path = tmp.path + "/s"
        do {
            let first = try UnixSocketListener(path: tmp.path + "/first")
            XCTAssertEqual(rename(tmp.path + "/first", path), 0)
            withExtendedLifetime(first) {}
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "a file the listener no longer names is left")
        XCTAssertThrowsError(try UnixSocket.connect(path: path, timeoutMilliseconds: 100)) {
            XCTAssertEqual($0 as? UnixSocket.Failure, .refused(path: path))
        }
        do {
            let second = try UnixSocketListener(path: path)
            let client = try UnixSocket.connect(path: path, timeoutMilliseconds: 1000)
            XCTAssertNotNil(try second.accept(timeoutMilliseconds: 1000))
            withExtendedLifetime(client) {}
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testAPathTooLongForSunPathIsRefusedClearly() throws {
        let path = "/tmp/" + String(repeating: "p", count: 110)
        XCTAssertThrowsError(try UnixSocketListener(path: path)) {
            XCTAssertEqual($0 as? UnixSocket.Failure, .pathTooLong(path: path, bytes: 115))
            XCTAssertTrue("\($0)".contains("107 bytes"), "\($0)")
        }
        XCTAssertThrowsError(try UnixSocket.connect(path: path, timeoutMilliseconds: 100)) {
            XCTAssertEqual($0 as? UnixSocket.Failure, .pathTooLong(path: path, bytes: 115))
        }
    }
}
