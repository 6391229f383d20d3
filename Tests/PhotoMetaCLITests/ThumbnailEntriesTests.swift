import Foundation
import XCTest

/// `thumbnail`'s products where names and the shared cache could mislead: one output name per
/// file, and entries of the freedesktop cache used only when they are whole and large enough.
extension ThumbnailCommandTests {
    /// Copies `fixture` to `work/NAME`.
    func place(_ fixture: String, as name: String) throws -> String {
        let path = work.appendingPathComponent(name).path
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: self.fixture(fixture), toPath: path)
        return path
    }

    /// Two files called `x.jpg` and one called `x.jpg-2`: three pictures, three names (the
    /// second `x.jpg` became `x.jpg-2.png`, which was also the third's, and one was lost).
    func testEveryFileGetsItsOwnOutputName() throws {
        let files = try [
            place("orient1.jpg", as: "a/x.jpg"), place("orient6.jpg", as: "b/x.jpg"), place("srgb.jpg", as: "c/x.jpg-2"),
        ]
        let out = work.appendingPathComponent("out").path
        let r = try Photometa.run(["thumbnail", "--no-cache", "--out", out, "--jsonl"] + files, environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let paths = r.stdout.split(separator: "\n").compactMap {
            ((try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["thumbnail"] as? [String: Any])?["path"]
                as? String
        }
        XCTAssertEqual(paths, [out + "/x.jpg.png", out + "/x.jpg-2.png", out + "/x.jpg-2-2.png"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).count, 3)
    }

    /// A relative name is named as given, against the current folder as the shell shows it
    /// (inside a linked folder, `$PWD`, as GLib's `g_get_current_dir`): the same entry as the
    /// absolute path through the link.
    func testARelativeNameInsideALinkedFolderFindsTheSameEntry() throws {
        _ = try place("orient1.jpg", as: "data/a.jpg")
        let link = work.appendingPathComponent("Pictures").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: work.appendingPathComponent("data").path)
        var inLink = env
        inLink["PWD"] = link
        let first = try Photometa.run(["thumbnail", "a.jpg"], environment: inLink, cwd: link)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.hasSuffix("decoded)\n"), first.stdout)
        let again = try Photometa.run(["thumbnail", link + "/a.jpg"], environment: env)
        XCTAssertTrue(again.stdout.hasSuffix("cache)\n"), again.stdout)
        XCTAssertEqual(
            first.stdout.split(separator: " ").dropFirst(2).first, again.stdout.split(separator: " ").dropFirst(2).first)
    }
}
