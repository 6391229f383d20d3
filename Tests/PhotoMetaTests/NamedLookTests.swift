import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaSystem

/// A look at the entries inotify named (`NamedLook`) leaves the live library as a listing of
/// the folder would: after rounds of random new, rewritten, removed and temporary files, Live
/// Photo movies, sidecars and sub-folders (the last three make the folder listed whole), every
/// folder's candidates, in order, its skipped entries, its span and the counts equal those of a
/// library made afresh from the folders.
final class NamedLookTests: XCTestCase {
    func testLooksAtNamedEntriesGiveWhatAListingGives() throws {
        for seed in [42, 7, 2026] as [UInt64] { try rounds(seed: seed) }
    }

    private func rounds(seed: UInt64) throws {
        let dir = try TemporaryDirectory(prefix: "pm-named-look")
        let cache = try TemporaryDirectory(prefix: "pm-named-look-index")
        let root = try FileSystem.canonicalFolder(dir.path)
        let cam = root + "/cam"
        let plain = try TestPaths.bytes("mmexport1700000000000.jpg")  // dated by its name
        let dated = try TestPaths.bytes("IMG_20240315_093012.jpg")  // by its own Exif date
        let movie = try TestPaths.bytes("IMG_0001.MOV")
        let xmp = Array(
            ("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
                + "<rdf:Description xmlns:photoshop=\"http://ns.adobe.com/photoshop/1.0/\" "
                + "photoshop:DateCreated=\"2023-05-06T07:08:09\"/></rdf:RDF></x:xmpmeta>").utf8)
        func stem(_ i: Int) -> String { String(format: "IMG_20240101_%06d", i * 7 % 1000) }
        for i in 0..<120 { try dir.write("cam/\(stem(i)).jpg", plain) }
        try dir.write("cam/caf\u{E9}.jpg", dated)
        try dir.write("cam/cafe\u{301}.jpg", plain)
        try dir.write("IMG_20240101_120000.jpg", plain)
        var lib: LiveLibrary? = LiveLibrary(roots: [root], exclude: [], indexPath: cache.path + "/index.sqlite3")
        lib?.populate(entering: nil)
        var rng = SplitMix(seed: seed)
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        func put(_ name: String, _ bytes: [UInt8]?) throws {
            if let bytes {
                try dir.write("cam/" + name, bytes)
            } else {
                try? FileManager.default.removeItem(atPath: cam + "/" + name)
            }
        }
        // Rounds that name what a random one may miss: both spellings of a name at once, a name
        // that begins with a combining mark, a Live Photo pair made and unmade (the fixtures'
        // IMG_0001 pair), a sidecar beside a photo rewritten later.
        let fixed: [[(String, [UInt8]?)]] = [
            [("caf\u{E9}.jpg", plain), ("cafe\u{301}.jpg", dated)],
            [("\u{301}x.jpg", plain)], [("\u{301}x.jpg", nil), ("caf\u{E9}.jpg", nil)],
            [("IMG_0001.HEIC", try TestPaths.bytes("IMG_0001.HEIC"))], [("IMG_0001.MOV", movie)],
            [("IMG_0001.HEIC", try TestPaths.bytes("IMG_0001.HEIC"))], [("IMG_0001.MOV", nil)],
            [("\(stem(3)).jpg.xmp", xmp)], [("\(stem(3)).jpg", dated)], [("\(stem(3)).jpg", plain)],
        ]
        var byName = 0
        for round in 0..<(fixed.count + 16) {
            var names: [String] = []  // not a Set: `café` composed and decomposed are equal Strings
            if round < fixed.count {
                for (name, bytes) in fixed[round] {
                    try put(name, bytes)
                    names.append(name)
                }
            }
            for _ in 0..<(round < fixed.count ? 0 : 1 + pick(6)) {
                let s = stem(pick(160))
                var name = s + ".jpg"
                switch pick(16) {
                case 0..<5: try put(name, pick(2) == 0 ? plain : dated)
                case 5..<8: try put(name, nil)
                case 8:
                    name = s + ".jpg.part"
                    try put(name, pick(2) == 0 ? plain : nil)
                case 9:
                    name = pick(2) == 0 ? "caf\u{E9}.jpg" : "cafe\u{301}.jpg"
                    try put(name, pick(2) == 0 ? plain : dated)
                case 10:
                    name = s + ".MOV"
                    try put(name, pick(2) == 0 ? movie : nil)
                case 11:
                    name = s + ".jpg.xmp"
                    try put(name, pick(3) > 0 ? xmp : nil)
                case 12:
                    name = "sub\(pick(3))"
                    if FileManager.default.fileExists(atPath: cam + "/" + name) {
                        try FileManager.default.removeItem(atPath: cam + "/" + name)
                    } else {
                        try dir.write("cam/\(name)/IMG_20240202_020202.jpg", plain)
                    }
                    lib?.folderNameChanged(cam + "/" + name)  // as the service is told of a folder
                default: try put(name, pick(2) == 0 ? plain : dated)
                }
                names.append(name)
            }
            let before = lib?.looksByName ?? 0
            for name in names { lib?.changed(cam, name: name) }
            lib?.refresh(entering: nil)
            byName += (lib?.looksByName ?? 0) - before
            let fresh = LiveLibrary(roots: [root], exclude: [], indexPath: nil)
            fresh.populate(entering: nil)
            if let lib {
                same(
                    lib, fresh,
                    "seed \(seed) round \(round): \(names.map { $0.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() })")
            }
        }
        XCTAssertGreaterThan(byName, 8, "seed \(seed): looks at the names alone")
        // Last, a look that must be at the names alone (no movie, sidecar or folder near them):
        // three photos gone, three new; then the index the looks wrote is read (its writer
        // finishes with the library): a row for every file of the folder, none for one gone.
        let fm = FileManager.default
        let alone = (0..<160).map { stem($0) }.filter { s in
            fm.fileExists(atPath: "\(cam)/\(s).jpg") && !fm.fileExists(atPath: "\(cam)/\(s).MOV")
                && !fm.fileExists(atPath: "\(cam)/\(s).jpg.xmp")
        }
        let last = Array(alone.prefix(3)).map { $0 + ".jpg" } + (0..<3).map { String(format: "IMG_20240303_%06d.jpg", $0) }
        for name in last.prefix(3) { try put(name, nil) }
        for name in last.dropFirst(3) { try put(name, plain) }
        let before = lib?.looksByName ?? 0
        for name in last { lib?.changed(cam, name: name) }
        lib?.refresh(entering: nil)
        XCTAssertEqual(lib?.looksByName, before + 1, "seed \(seed): the last look was at the names alone")
        lib = nil
        let rows = try AssetIndex(path: cache.path + "/index.sqlite3").load(directory: cam).map { Array($0.path.utf8) }
        let fresh = LiveLibrary(roots: [root], exclude: [], indexPath: nil)
        fresh.populate(entering: nil)
        let files = (fresh.held.list(in: PathKey(cam)) ?? []).map { Array((cam + "/" + $0.path).utf8) }
        XCTAssertEqual(Set(rows), Set(files), "seed \(seed): the folder's index rows")
    }

    /// A phone's folder holding one raw of another shot: a new photo is looked at by its name
    /// alone; the picture of the raw's own shot makes the folder listed, and marks the raw.
    func testAPictureIsLookedAtByNameUnlessItsRawIsHeld() throws {
        let dir = try TemporaryDirectory(prefix: "pm-named-raw")
        let root = try FileSystem.canonicalFolder(dir.path)
        let cam = root + "/cam"
        let plain = try TestPaths.bytes("mmexport1700000000000.jpg")
        for i in 0..<20 { try dir.write(String(format: "cam/IMG_20240101_%06d.jpg", i), plain) }
        try dir.write("cam/IMG_20240102_000000.dng", [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0])
        let lib = LiveLibrary(roots: [root], exclude: [], indexPath: nil)
        lib.populate(entering: nil)
        func rawMarked() -> Bool? {
            lib.held.list(in: PathKey(cam))?.first { $0.path.hasSuffix(".dng") }?.hasDevelopedPicture
        }
        XCTAssertEqual(rawMarked(), false)
        try dir.write("cam/IMG_20240101_000099.jpg", plain)
        var before = lib.looksByName
        lib.changed(cam, name: "IMG_20240101_000099.jpg")
        lib.refresh(entering: nil)
        XCTAssertEqual(lib.looksByName, before + 1, "a photo of another shot: by its name")
        try dir.write("cam/IMG_20240102_000000.JPG", plain)
        before = lib.looksByName
        lib.changed(cam, name: "IMG_20240102_000000.JPG")
        lib.refresh(entering: nil)
        XCTAssertEqual(lib.looksByName, before, "the raw's own picture: the folder listed")
        XCTAssertEqual(rawMarked(), true)
    }

    /// A name is what follows the last `/` byte, whatever it begins with (a combining mark
    /// joins the slash into one `Character`).
    func testANameIsCutAtTheLastSlashByte() {
        for (path, name) in [
            ("cam/\u{301}x.jpg", "\u{301}x.jpg"), ("/a/b/IMG_1.jpg", "IMG_1.jpg"), ("IMG_1.jpg", "IMG_1.jpg"),
            ("d/\u{200D}\u{1F600}.jpg.part", "\u{200D}\u{1F600}.jpg.part"), ("d/caf\u{E9}.jpg", "caf\u{E9}.jpg"),
        ] {
            XCTAssertEqual(Array(FolderSnapshot.lastComponent(path).utf8), Array(name.utf8), path)
        }
        XCTAssertTrue(TemporaryNames.isTemporary(FolderSnapshot.lastComponent("d/\u{301}x.jpg.part")))
    }

    /// The two libraries hold the same folders, candidates (in order), skipped entries, spans
    /// and counts.
    private func same(_ a: LiveLibrary, _ b: LiveLibrary, _ message: String, line: UInt = #line) {
        XCTAssertEqual(Set(a.held.keys.map(\.path)), Set(b.held.keys.map(\.path)), message, line: line)
        for key in b.held.keys {
            let (x, y) = (a.held.list(in: key) ?? [], b.held.list(in: key) ?? [])
            let (px, py) = (x.map { PathBytes.encode($0.path) }, y.map { PathBytes.encode($0.path) })
            if px != py {
                let (only, missing) = (Set(px).subtracting(py), Set(py).subtracting(px))
                XCTFail(
                    "\(message): \(key.path): names differ; only in the library \(only.map { String(decoding: $0, as: UTF8.self) }),"
                        + " missing \(missing.map { String(decoding: $0, as: UTF8.self) })\(only.isEmpty && missing.isEmpty ? " (order)" : "")",
                    line: line)
                continue
            }
            for (c, d) in zip(x, y) where c != d {
                XCTFail(
                    "\(message): \(key.path)/\(c.path): \(c.kind) \(String(describing: c.captured)) \(c.size) != \(d.kind) \(String(describing: d.captured)) \(d.size)",
                    line: line)
            }
            XCTAssertEqual(a.skipped[key] ?? [], b.skipped[key] ?? [], "\(message): skipped in \(key.path)", line: line)
        }
        XCTAssertEqual(a.fileCount, b.fileCount, message, line: line)
        XCTAssertEqual(a.held.count(inRoot: a.roots[0]), b.held.count(inRoot: b.roots[0]), message, line: line)
        // The spans (folders of equal latest capture come in either order).
        var (ha, hb) = (a.held, b.held)
        XCTAssertEqual(
            ha.datedNewestFirst().map { "\($0.latest) \($0.folder.path)" }.sorted(),
            hb.datedNewestFirst().map { "\($0.latest) \($0.folder.path)" }.sorted(), message, line: line)
    }
}
