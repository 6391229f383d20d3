import Foundation
import XCTest

@testable import PhotoMetaSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `ServiceLock`: liveness by a held `flock`, which the kernel drops when the holder dies, and a
/// probe that trusts no planted file (issue 20).
final class ServiceLockTests: XCTestCase {
    /// flock locks belong to open file descriptions, so a second one in the same process
    /// conflicts with the first: held and probed in one process.
    func testAHeldLockIsAliveWithItsPidAndRefusesASecondHolder() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.path + "/serve.lock"
        XCTAssertEqual(ServiceLock.probe(path), .notAlive(.missing))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "a probe creates nothing")
        let lock = try ServiceLock(path: path)
        XCTAssertEqual(try FileFacts.of(path).permissions, 0o600)
        XCTAssertEqual(ServiceLock.probe(path), .alive(pid: getpid()))
        XCTAssertThrowsError(try ServiceLock(path: path)) {
            XCTAssertEqual($0 as? ServiceLock.Failure, .held(path: path, pid: getpid()))
            XCTAssertTrue("\($0)".contains("pid \(getpid())"), "\($0)")
        }
        XCTAssertEqual(ServiceLock.probe(path), .alive(pid: getpid()), "the refused attempt took nothing away")
        withExtendedLifetime(lock) {}
    }

    func testAReleasedLockIsNotAliveAndCanBeTakenAgain() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.path + "/serve.lock"
        do {
            let lock = try ServiceLock(path: path)
            withExtendedLifetime(lock) {}
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "the file stays; only the lock goes")
        XCTAssertEqual(ServiceLock.probe(path), .notAlive(.released))
        // A longer pid left by an earlier holder is replaced whole.
        XCTAssertEqual(try tmp.write("serve.lock", Array("2147483647\n".utf8)), path)
        let again = try ServiceLock(path: path)
        XCTAssertEqual(ServiceLock.probe(path), .alive(pid: getpid()))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "\(getpid())\n")
        withExtendedLifetime(again) {}
    }

    func testPlantedFilesAreNeverTrusted() throws {
        let tmp = try TemporaryDirectory()
        let real = try tmp.write("real.lock", [])
        XCTAssertEqual(symlink(real, tmp.path + "/link.lock"), 0)
        let held = try ServiceLock(path: real)
        XCTAssertEqual(ServiceLock.probe(tmp.path + "/link.lock"), .notAlive(.untrusted(.symbolicLink)))
        XCTAssertThrowsError(try ServiceLock(path: tmp.path + "/link.lock")) {
            XCTAssertEqual($0 as? ServiceLock.Failure, .untrusted(path: tmp.path + "/link.lock", reason: .symbolicLink))
        }
        withExtendedLifetime(held) {}
        // A FIFO is refused without blocking on its open.
        XCTAssertEqual(mkfifo(tmp.path + "/fifo.lock", 0o600), 0)
        XCTAssertEqual(ServiceLock.probe(tmp.path + "/fifo.lock"), .notAlive(.untrusted(.notARegularFile(what: "a FIFO"))))
        XCTAssertThrowsError(try ServiceLock(path: tmp.path + "/fifo.lock"))
        guard geteuid() == 0 else { throw XCTSkip("giving a file to another user needs root") }
        let foreign = try tmp.write("foreign.lock", Array("1\n".utf8))
        XCTAssertEqual(chown(foreign, 65_534, 65_534), 0)
        XCTAssertEqual(ServiceLock.probe(foreign), .notAlive(.untrusted(.ownedByAnotherUser(65_534))))
        XCTAssertThrowsError(try ServiceLock(path: foreign)) {
            XCTAssertEqual($0 as? ServiceLock.Failure, .untrusted(path: foreign, reason: .ownedByAnotherUser(65_534)))
        }
    }

    /// Another process holds the lock (util-linux `flock`, which closes its descriptor before
    /// running `cat`, so only `flock` itself holds it); after `kill -9` no one is alive.
    func testAKilledHolderIsNotAlive() throws {
        let flock = "/usr/bin/flock"
        guard FileManager.default.isExecutableFile(atPath: flock) else { throw XCTSkip("util-linux flock is missing") }
        let tmp = try TemporaryDirectory()
        let path = tmp.path + "/serve.lock"
        let child = try ChildProcess(executable: flock, arguments: ["--close", "--exclusive", path, "cat"])
        defer { child.finishInput([]) }  // ends cat: its stdin closes
        XCTAssertTrue(waitFor { ServiceLock.probe(path) == .alive(pid: nil) }, "\(ServiceLock.probe(path))")
        XCTAssertThrowsError(try ServiceLock(path: path)) {
            XCTAssertEqual($0 as? ServiceLock.Failure, .held(path: path, pid: nil))
        }
        XCTAssertEqual(kill(child.pid, SIGKILL), 0)
        XCTAssertEqual(child.wait(), .signalled(SIGKILL))
        XCTAssertEqual(ServiceLock.probe(path), .notAlive(.released))
        let mine = try ServiceLock(path: path)
        XCTAssertEqual(ServiceLock.probe(path), .alive(pid: getpid()))
        withExtendedLifetime(mine) {}
    }

    /// Polls `condition` until it holds or 10 s pass (bounded; no fixed sleep).
    private func waitFor(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if condition() { return true }
            var none = pollfd()
            _ = poll(&none, 0, 5)
        }
        return condition()
    }
}
