import Foundation
import XCTest

/// The offer's life under names that are not UTF-8, end to end with the binary: every path of
/// a `moved` change and of a `withdrawn` event carries its exact bytes beside it (`fromBytes`,
/// `toBytes`, `pathBytes`, `removedBytes`), so a client can name the file. Waits are bounded and
/// event-driven.
final class RawNameEventTests: XCTestCase {
    var scratch: TemporaryDirectory!
    var folder: String { scratch.url.appendingPathComponent("photos").path }
    var state: String { scratch.url.appendingPathComponent("s.sqlite3").path }

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "pm-rawev")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { scratch = nil }

    /// The folder's path and a name as bytes.
    func raw(_ name: [UInt8]) -> [UInt8] { Array(folder.utf8) + [0x2F] + name }

    func events(_ w: RunningPhotometa, named name: String) -> [[String: Any]] {
        w.stdout.split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == name }
    }

    /// The bytes of a base64 key of `object`.
    func bytes(_ object: [String: Any]?, _ key: String) -> [UInt8]? {
        (object?[key] as? String).flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) }
    }

    /// rename(2) by exact bytes (FileManager would take the names as UTF-8).
    func move(_ from: [UInt8], _ to: [UInt8]) {
        let r = rename(from.map { CChar(bitPattern: $0) } + [0], to.map { CChar(bitPattern: $0) } + [0])
        XCTAssertEqual(r, 0, "rename: errno \(errno)")
    }

    func testMovedAndWithdrawnCarryTheExactBytes() throws {
        let w = try RunningPhotometa(["watch", folder, "--jsonl", "--tz", "UTC", "--state", state], environment: ["TZ": "UTC"])
        XCTAssertTrue(w.wait { w.stdout.contains(#""event":"ready""#) }, w.stdout + w.stderr)
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd_HHmmss"
        let dated = Array("IMG_\(f.string(from: Date())).jpg".utf8)
        try FileManager.default.copyItem(
            atPath: TestPaths.fixture("mmexport1700000000000.jpg"), toPath: String(decoding: raw(dated), as: UTF8.self))
        XCTAssertTrue(w.wait { !self.events(w, named: "suggestion").isEmpty }, w.stdout + w.stderr)

        // UTF-8 to Latin-1: the new name's bytes in `toBytes`, none for the UTF-8 one.
        let cafe = raw(Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
        move(raw(dated), cafe)
        XCTAssertTrue(w.wait { self.events(w, named: "withdrawn").count == 1 }, w.stdout + w.stderr)
        let first = events(w, named: "withdrawn").first
        XCTAssertEqual(first?["reason"] as? String, "moved")
        XCTAssertEqual(first?["path"] as? String, String(decoding: raw(dated), as: UTF8.self))
        XCTAssertNil(first?["pathBytes"], "only for a name that is not UTF-8")
        XCTAssertEqual(first?["to"] as? String, folder + "/caf\u{FFFD}.jpg")
        XCTAssertEqual(bytes(first, "toBytes"), cafe)

        // Latin-1 to another name that is not UTF-8: both sides exact, in both events.
        let other = raw([0x78, 0xFF, 0x2E, 0x6A, 0x70, 0x67])
        move(cafe, other)
        XCTAssertTrue(w.wait { self.events(w, named: "withdrawn").count == 2 }, w.stdout + w.stderr)
        let second = events(w, named: "withdrawn").last
        XCTAssertEqual(bytes(second, "pathBytes"), cafe)
        XCTAssertEqual(bytes(second, "toBytes"), other)
        let move = (events(w, named: "changes").last?["moved"] as? [[String: Any]])?.first
        XCTAssertEqual(bytes(move, "fromBytes"), cafe)
        XCTAssertEqual(bytes(move, "toBytes"), other)

        // Deleted: the withdrawn path and the removed name, exact.
        XCTAssertEqual(unlink(other.map { CChar(bitPattern: $0) } + [0]), 0)
        XCTAssertTrue(w.wait { self.events(w, named: "withdrawn").count == 3 }, w.stdout + w.stderr)
        let deleted = events(w, named: "withdrawn").last
        XCTAssertEqual(deleted?["reason"] as? String, "deleted")
        XCTAssertEqual(bytes(deleted, "pathBytes"), other)
        let removed = events(w, named: "changes").last?["removedBytes"] as? [Any]
        XCTAssertEqual((removed?.first as? String).flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) }, other)
        kill(w.process.processIdentifier, SIGTERM)
        XCTAssertEqual(w.finish(), 0, w.stderr)
    }

    /// A watched folder whose name is not UTF-8: `ready` names it exactly (`foldersBytes`), and
    /// the --exec hook gets the offered file's exact path in PHOTOMETA_PATH, whether the hook is
    /// started by the spawner (confined) or directly (PHOTOMETA_SANDBOX_OFF=1, a test build).
    func testReadyAndTheHookNameARawFolderExactly() throws {
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd_HHmmss"
        for off in ["0", "1"] {
            let root = raw([0x66, 0xF6, 0x74, 0x6F] + Array(off.utf8))  // "f\xF6to0", a folder per run
            XCTAssertEqual(mkdir(root.map { CChar(bitPattern: $0) } + [0], 0o755), 0, "mkdir: errno \(errno)")
            let ran = scratch.url.appendingPathComponent("ran-\(off)").path
            // The raw byte reaches argv through the shell (Process passes arguments as UTF-8).
            let script =
                "exec \"$BIN\" watch \"$(printf '%s/f\\366to%s' \"$DIR\" \"$OFF\")\" "
                + "--jsonl --tz UTC --state \"$STATE\" "
                + "--exec 'printf %s \"$PHOTOMETA_PATH\" > \"$RAN\"; echo hook-ran >&2'"
            let w = try RunningPhotometa(
                ["-c", script],
                environment: [
                    "BIN": Photometa.binary.path, "DIR": folder, "STATE": state + off, "RAN": ran, "OFF": off, "TZ": "UTC",
                    "PHOTOMETA_SANDBOX_OFF": off,
                ],
                executable: URL(fileURLWithPath: "/bin/sh"))
            XCTAssertTrue(w.wait { w.stdout.contains(#""event":"ready""#) }, w.stdout + w.stderr)
            let ready = events(w, named: "ready").first
            XCTAssertEqual((ready?["folders"] as? [String])?.count, 1)
            let exact = (ready?["foldersBytes"] as? [Any])?.first as? String
            XCTAssertEqual(exact.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) }, root, w.stdout)
            let name = Array("IMG_\(f.string(from: Date()))_\(off).jpg".utf8)
            let file = root + [0x2F] + name
            let bytes = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("mmexport1700000000000.jpg")))
            let fd = open(file.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            XCTAssertGreaterThanOrEqual(fd, 0)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            XCTAssertTrue(w.wait { w.stderr.contains("hook-ran") }, w.stdout + w.stderr)
            XCTAssertEqual(FileManager.default.contents(atPath: ran).map { [UInt8]($0) }, file, "PHOTOMETA_SANDBOX_OFF=\(off)")
            kill(w.process.processIdentifier, SIGTERM)
            XCTAssertEqual(w.finish(), 0, w.stderr)
        }
    }
}
