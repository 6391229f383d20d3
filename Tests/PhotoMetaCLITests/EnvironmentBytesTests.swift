import Foundation
import XCTest

/// The folders photometa's files go to are named by environment variables (`XDG_STATE_HOME`,
/// `XDG_CACHE_HOME`, `HOME`), whose bytes need not be UTF-8 (a home folder named in Latin-1):
/// the memory and the index are made in the folder those bytes name, not in one whose name has
/// U+FFFD where a byte was.
final class EnvironmentBytesTests: XCTestCase {
    func testStateAndIndexGoWhereBytesThatAreNotUTF8Say() throws {
        let scratch = try TemporaryDirectory(prefix: "pm-env")
        let library = scratch.path + "/photos"
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd_HHmmss"
        let photo = library + "/IMG_\(f.string(from: Date())).jpg"
        try FileManager.default.copyItem(atPath: Photometa.fixture("mmexport1700000000000.jpg"), toPath: photo)
        // Dated now by its name, written a while ago: settled, so it is offered and recorded.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: photo)
        // The shell makes the bytes (0xFF, 0xFE): a Swift string cannot carry them.
        let script =
            #"XDG_STATE_HOME="$(printf '%s/st\377ate' "$1")" XDG_CACHE_HOME="$(printf '%s/ca\376che' "$1")" "#
            + #"exec "$2" suggest "$3" --tz UTC --json --no-service"#
        let r = try Photometa.run(
            ["-c", script, "sh", scratch.path, Photometa.binary.path, library], executable: "/bin/sh")
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains(#""recorded":true"#), r.stdout)
        let names = Set(entries(of: scratch.path))
        XCTAssertTrue(names.contains(Array("st".utf8) + [0xFF] + Array("ate".utf8)), "\(names)")
        XCTAssertTrue(names.contains(Array("ca".utf8) + [0xFE] + Array("che".utf8)), "\(names)")
        XCTAssertEqual(names.count, 3, "the library and the two folders, no other: \(names)")
        XCTAssertTrue(exists(scratch.path, [Array("st".utf8) + [0xFF] + Array("ate".utf8)], "photometa/state.sqlite3"))
        XCTAssertTrue(exists(scratch.path, [Array("ca".utf8) + [0xFE] + Array("che".utf8)], "photometa/index.sqlite3"))
    }

    /// The names in `folder`, as bytes (`.` and `..` left out).
    private func entries(of folder: String) -> [[UInt8]] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != Array(".".utf8), name != Array("..".utf8) { names.append(name) }
        }
        return names
    }

    /// Whether `folder/name.../rest` exists, `names` being path components as bytes.
    private func exists(_ folder: String, _ names: [[UInt8]], _ rest: String) -> Bool {
        var path = Array(folder.utf8)
        for n in names { path += [UInt8(ascii: "/")] + n }
        path += Array(("/" + rest).utf8) + [0]
        return path.withUnsafeBufferPointer { p in
            p.baseAddress.map { access(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self), F_OK) == 0 } ?? false
        }
    }
}
