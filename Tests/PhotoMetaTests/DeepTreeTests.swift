import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A photo 60 folders deep, its path over `PATH_MAX` (4,096 bytes): the walker descends by
/// folder descriptor and lists it, and it is inspected like any other (`LongPath`).
final class DeepTreeTests: XCTestCase {
    let levels = 60
    let photoName = "IMG_20240315_093012.jpg"

    /// Builds the tree with mkdirat/openat (a path that long cannot be made by path); returns the
    /// photo's full path.
    func makeDeepTree(in root: String) throws -> String {
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        var path = root
        for level in 0..<levels {
            let name = String(format: "level-%02d-", level) + String(repeating: "x", count: 62)
            XCTAssertEqual(mkdirat(fd, name, 0o700), 0, "mkdirat \(level): \(errno)")
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            close(fd)
            XCTAssertGreaterThanOrEqual(next, 0)
            fd = next
            path += "/" + name
        }
        let bytes = try TestPaths.bytes(photoName)
        let file = openat(fd, photoName, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(file, 0)
        XCTAssertEqual(bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }, bytes.count)
        close(file)
        close(fd)
        return path + "/" + photoName
    }

    /// rm walks by descriptor too (FileManager cannot remove what it cannot reach by path).
    func removeTree(_ path: String) {
        let rm = Process()
        rm.executableURL = URL(fileURLWithPath: "/bin/rm")
        rm.arguments = ["-rf", path]
        try? rm.run()
        rm.waitUntilExit()
    }

    func testAPhotoDeeperThanPathMaxIsWalkedAndInspected() throws {
        let tmp = try TemporaryDirectory()
        let root = try FileSystem.canonicalFolder(tmp.path)
        defer { removeTree(root) }
        let photo = try makeDeepTree(in: root)
        XCTAssertGreaterThan(photo.utf8.count, Int(PATH_MAX), "the test needs a path over PATH_MAX")
        // What a walk by full path met: the kernel refuses the path in one piece.
        XCTAssertEqual(open(photo, O_RDONLY), -1)
        XCTAssertEqual(errno, ENAMETOOLONG)

        var found: [String] = []
        var skipped: [String] = []
        TreeWalker(policy: .library).walk(root) { event in
            switch event {
            case .files(_, let files): found += files.map(\.path)
            case .skipped(let path, _, let reason): skipped.append("\(path): \(reason)")
            case .folderDone, .subfolder: break
            }
        }
        XCTAssertEqual(found, [photo])
        XCTAssertEqual(skipped, [])

        // Reachable by its long path: statx, the byte source, the inspector.
        let bytes = try TestPaths.bytes(photoName)
        XCTAssertEqual(try FileFacts.of(photo).size, Int64(bytes.count))
        XCTAssertEqual(try FileByteSource(path: photo).read(at: 0, count: 4), Array(bytes.prefix(4)))
        let asset = FileInspector.inspect(path: photo)
        XCTAssertNil(asset.error)
        XCTAssertEqual(asset.format, .jpeg)
        XCTAssertEqual(asset.captured?.source, .exifDateTimeOriginal)
        XCTAssertEqual(asset.make, "Google")
    }

    /// The canonical path of a file past `PATH_MAX` (what the memory keeps of an offer, so
    /// `suggest --standing` finds it): `realpath(3)` refuses it, so its folder is made canonical
    /// and its name added; a link as the last name is refused rather than guessed.
    func testTheCanonicalPathOfAPhotoDeeperThanPathMax() throws {
        let tmp = try TemporaryDirectory()
        let root = try FileSystem.canonicalFolder(tmp.path)
        defer { removeTree(root) }
        let photo = try makeDeepTree(in: root)
        XCTAssertNil(realpath(photo, nil), "the test needs realpath to refuse it")
        XCTAssertEqual(try FileSystem.canonicalPath(photo), photo)
        // The same file through a link to the tree's root, and with a `.` in the path.
        let link = root + "/short"
        XCTAssertEqual(symlink(root, link), 0)
        let viaLink = link + photo.dropFirst(root.count)
        XCTAssertEqual(try FileSystem.canonicalPath(String(viaLink)), photo)
        let slash = try XCTUnwrap(photo.lastIndex(of: "/"))
        let name = photo[photo.index(after: slash)...]
        XCTAssertEqual(try FileSystem.canonicalPath(photo[..<slash] + "/./" + name), photo)
        let parent = try XCTUnwrap(photo[..<slash].lastIndex(of: "/"))
        XCTAssertEqual(try FileSystem.canonicalPath(photo[..<slash] + "/../" + photo[photo.index(after: parent)...]), photo)
        // A link as the last name: refused.
        let folder = String(photo[..<slash])
        let pictureLink = try LongPath.at(folder + "/link.jpg") { fd, name in symlinkat(photoName, fd, name) }
        XCTAssertEqual(pictureLink, 0)
        XCTAssertThrowsError(try FileSystem.canonicalPath(folder + "/link.jpg"))
    }

    func testTheWalkStopsAtTheDepthLimitAndSaysSo() throws {
        let tmp = try TemporaryDirectory()
        let root = try FileSystem.canonicalFolder(tmp.path)
        var path = root
        for _ in 0...TreeWalker.depthLimit { path += "/d" }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        var tooDeep: [String] = []
        TreeWalker(policy: .library).walk(root) { event in
            if case .skipped(_, let relative, .tooDeep) = event { tooDeep.append(relative) }
        }
        XCTAssertEqual(tooDeep.count, 1)
        XCTAssertEqual(tooDeep.first?.split(separator: "/").count, TreeWalker.depthLimit + 1)
    }
}
