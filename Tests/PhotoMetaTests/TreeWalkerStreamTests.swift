import Foundation
import PhotoMetaTestSupport
import XCTest

@testable import PhotoMetaCore
@testable import PhotoMetaSystem

/// A walker that streams a folder's files (`streamsFiles`, the watcher's) hands on exactly what
/// one that collects them does (`inspect -r`, `suggest`): the same files in the same order (byte
/// order of paths, a folder's name sorting as "name/"), with the same facts and link targets,
/// the same entries skipped and the same sub-folders; a name that is not UTF-8 by its bytes.
final class TreeWalkerStreamTests: XCTestCase {
    /// What a walk handed on, in order (skipped entries as a sorted list: a streaming walk
    /// reports them as it meets them).
    struct Seen: Equatable {
        var files: [String] = []
        var skipped: [String] = []
        var subfolders: [String] = []
        var done: [String] = []
    }

    static func record(_ events: (_ visit: (TreeWalker.Event) -> Void) -> Void) -> Seen {
        var seen = Seen()
        events { event in
            switch event {
            case .files(let folder, let run):
                for f in run {
                    XCTAssertEqual(
                        folder.relative.isEmpty ? f.relative : folder.relative + "/" + lastName(f.relative), f.relative)
                    let link = f.linkTarget.map { " -> " + $0 } ?? ""
                    seen.files.append("\(f.path) \(f.relative) \(f.key.size) \(f.key.inode)\(link)")
                }
            case .folderDone(let folder): seen.done.append(folder.relative)
            case .subfolder(let path, let rel): seen.subfolders.append(path + " " + rel)
            case .skipped(let path, let rel, let reason): seen.skipped.append("\(path) \(rel) \(reason)")
            }
        }
        seen.skipped.sort()
        return seen
    }

    static func lastName(_ rel: String) -> String { rel.split(separator: "/").last.map(String.init) ?? rel }

    func testStreamingHandsOnWhatCollectingDoes() throws {
        let tmp = try TemporaryDirectory(prefix: "pm-stream")
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        for name in ["b.jpg", "a.jpg", "a-b.jpg", "a/x.jpg", "a0/y.jpg", ".hidden.jpg", "\u{E9}.jpg", "skip/z.jpg", "e/.h/f.jpg"]
        {
            _ = try tmp.write("lib/" + name, jpeg)
        }
        // More files in one folder than one run holds, in an order readdir does not keep.
        for k in (0..<(TreeWalker.runLength * 2 + 7)).reversed() { _ = try tmp.write("lib/burst/IMG_\(k).jpg", jpeg) }
        let lib = try FileSystem.canonicalFolder(tmp.path + "/lib")
        // A Latin-1 name (not UTF-8), a FIFO, and links: to a file inside, to one outside, to a
        // folder, and to nothing.
        let raw = Array(lib.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8)
        let fd = open(raw.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        XCTAssertEqual(mkfifo(lib + "/pipe.jpg", 0o600), 0)
        _ = try tmp.write("outside.jpg", jpeg)
        XCTAssertEqual(symlink(lib + "/b.jpg", lib + "/in.jpg"), 0)
        XCTAssertEqual(symlink(tmp.path + "/outside.jpg", lib + "/out.jpg"), 0)
        XCTAssertEqual(symlink(lib + "/a", lib + "/folder.jpg"), 0)
        XCTAssertEqual(symlink(lib + "/nothing.jpg", lib + "/dangling.jpg"), 0)

        for policy in [TreeWalker.Policy.commandLine, .library] {
            var collecting = TreeWalker(policy: policy, exclude: [PathGlob("skip")].compactMap { $0 })
            var streaming = collecting
            streaming.streamsFiles = true
            collecting.streamsFiles = false
            XCTAssertEqual(Self.record { collecting.walk(lib, visit: $0) }, Self.record { streaming.walk(lib, visit: $0) })
            XCTAssertEqual(
                Self.record { collecting.listOne(lib, relative: "", root: lib, visit: $0) },
                Self.record { streaming.listOne(lib, relative: "", root: lib, visit: $0) })
            XCTAssertEqual(
                Self.record { collecting.walkSubtree(lib + "/burst", relative: "burst", root: lib, visit: $0) },
                Self.record { streaming.walkSubtree(lib + "/burst", relative: "burst", root: lib, visit: $0) })
        }

        // The order is the byte order of whole paths; the Latin-1 name is its bytes.
        let skip = [PathGlob("skip")].compactMap { $0 }
        let seen = Self.record { TreeWalker(policy: .library, exclude: skip).walk(lib, visit: $0) }
        let paths = seen.files.map { String($0.split(separator: " ")[0]) }
        XCTAssertEqual(paths, paths.sorted { PathBytes.encode($0).lexicographicallyPrecedes(PathBytes.encode($1)) })
        let names = paths.filter { !$0.contains("/burst/") }.map { String($0.dropFirst(lib.count + 1)) }
        let latin1 = PathBytes.decode(Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
        XCTAssertEqual(names, ["a-b.jpg", "a.jpg", "a/x.jpg", "a0/y.jpg", "b.jpg", latin1, "in.jpg", "\u{E9}.jpg"])
        XCTAssertEqual(paths.count, names.count + TreeWalker.runLength * 2 + 7)
        XCTAssertTrue(seen.files.contains { $0.hasPrefix(lib + "/in.jpg in.jpg ") && $0.hasSuffix(" -> " + lib + "/b.jpg") })
    }
}

/// A listed file keeps one string, its path: `relative` is the path's end, made when asked (a
/// burst's folder of 50,000 files held 3 MB of second strings), and one that is not the end of
/// the path is kept as given.
final class TreeWalkerFileTests: XCTestCase {
    func testARelativePathIsTheEndOfThePathOrKeptAsGiven() throws {
        let facts = try FileFacts.of("/")
        let decomposed = "cafe\u{301}/IMG_20240101_120000.jpg"
        for (path, relative) in [
            ("/photos/2024/" + decomposed, decomposed), ("/photos/a.jpg", "a.jpg"), ("/a.jpg", "/a.jpg"),
            ("/photos/a.jpg", ""), ("/photos/caf\u{E9}/IMG_20240101_120000.jpg", decomposed), ("/x", "elsewhere/x.jpg"),
        ] {
            let file = TreeWalker.File(path: path, relative: relative, facts: facts)
            XCTAssertEqual(Array(file.relative.utf8), Array(relative.utf8), "\(path) \(relative)")
            XCTAssertEqual(Array(file.path.utf8), Array(path.utf8))
        }
    }
}
