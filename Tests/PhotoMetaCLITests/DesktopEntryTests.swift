import Foundation
import XCTest

/// photometa as the desktop's thumbnailer (issue 25): `make install` into a temporary PREFIX,
/// then the installed `photometa.thumbnailer` run as GNOME Files runs it: its `Exec` split
/// like gnome-desktop does (`g_shell_parse_argv`), `%i`, `%o`, `%s` substituted in each word
/// (`expand_thumbnailing_elem`), in the layout of gnome-desktop's sandbox (input and output in
/// one fresh folder, `gnome-desktop-file-to-thumbnail.EXT` and `gnome-desktop-thumbnailer.png`).
final class DesktopEntryTests: XCTestCase {
    var scratch: TemporaryDirectory!
    var prefix: String { scratch.path + "/prefix" }
    /// No cache for the desktop's thumbnailer: this folder must stay absent.
    var env: [String: String] { ["PHOTOMETA_THUMBNAILER": "", "XDG_CACHE_HOME": scratch.path + "/cache"] }

    /// A decodable fixture of each type the entry may claim, and the type the system's
    /// shared-mime-info gives it (`gio info -a standard::content-type`; image/heic is an alias
    /// of image/heif there). The library's HEIC, AVIF and MOV hold no picture (metadata
    /// fixtures): they are the failures below.
    static let fixtures: [(path: String, type: String)] = [
        ("thumbnails/plain.heic", "image/heif"), ("thumbnails/plain.avif", "image/avif"),
        ("formats/fuji.raf", "image/x-fuji-raf"), ("thumbnails/clip.mp4", "video/mp4"),
        ("thumbnails/rotated.mp4", "video/mp4"), ("thumbnails/clip.mov", "video/quicktime"),
        ("thumbnails/clip.webm", "video/webm"), ("formats/panasonic.rw2", "image/x-panasonic-rw2"),
        ("thumbnails/clip.m2ts", "video/mp2t"), ("thumbnails/clip.mpg", "video/mpeg"),
    ]
    static let aliases = ["image/heic": "image/heif"]

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "pm-desktop")
        let make = ["-C", Photometa.root.path, "--no-print-directory", "DESTDIR=", "PREFIX=" + prefix]
        let (status, log) = try Program.run("/usr/bin/make", make + ["install-files", "INSTALL_BIN=" + Photometa.binary.path])
        XCTAssertEqual(status, 0, log)
    }

    override func tearDownWithError() throws { scratch = nil }

    /// The installed entry's keys.
    func entry() throws -> [String: String] {
        let text = try String(contentsOfFile: prefix + "/share/thumbnailers/photometa.thumbnailer", encoding: .utf8)
        var keys: [String: String] = [:]
        var group = ""
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("[") {
                group = String(line)
            } else if group == "[Thumbnailer Entry]", let eq = line.firstIndex(of: "=") {
                keys[String(line[..<eq])] = String(line[line.index(after: eq)...])
            }
        }
        return keys
    }

    /// Runs the entry's Exec on `input` into `output` at `size`, as gnome-desktop does.
    func runEntry(input: String, output: String, size: Int) throws -> (Int32, String) {
        let exec = try XCTUnwrap(try entry()["Exec"])
        let argv = try XCTUnwrap(ShellWords.split(exec), exec).map { word in
            GnomeExpansion.expand(word, input: input, output: output, size: size)
        }
        return try Program.run(argv[0], Array(argv.dropFirst()), environment: env)
    }

    /// The width and height of a PNG's IHDR [PNG 11.2.2], nil when `bytes` is not a PNG.
    func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count > 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        func be32(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    func testTheEntryInstallsAndClaimsOnlyWhatItThumbnails() throws {
        let keys = try entry()
        XCTAssertEqual(keys["TryExec"], prefix + "/bin/photometa")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: try XCTUnwrap(keys["TryExec"])))
        let claimed = Set(try XCTUnwrap(keys["MimeType"]).split(separator: ";").map { Self.aliases[String($0)] ?? String($0) })
        XCTAssertEqual(
            claimed, Set(Self.fixtures.map(\.type)), "every type claimed has a fixture, and each fixture's type is claimed")
        let (status, log) = try Program.run(
            "/usr/bin/make", ["-C", Photometa.root.path, "--no-print-directory", "DESTDIR=", "PREFIX=" + prefix, "uninstall"])
        XCTAssertEqual(status, 0, log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: prefix + "/share/thumbnailers/photometa.thumbnailer"))
    }

    func testEveryClaimedFormatGivesOnePNGWithinTheSize() throws {
        for (fixture, type) in Self.fixtures {
            for size in [32, 256] {
                let folder = scratch.path + "/run-\(size)-" + fixture.replacingOccurrences(of: "/", with: "-")
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
                let ext = (fixture as NSString).pathExtension
                let input = folder + "/gnome-desktop-file-to-thumbnail." + ext
                let output = folder + "/gnome-desktop-thumbnailer.png"
                try FileManager.default.copyItem(atPath: Photometa.root.path + "/Fixtures/" + fixture, toPath: input)
                let (status, log) = try runEntry(input: input, output: output, size: size)
                XCTAssertEqual(status, 0, "\(fixture) (\(type)) at \(size): \(log)")
                let png = try XCTUnwrap(pngSize([UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))), fixture)
                XCTAssertLessThanOrEqual(max(png.0, png.1), size, fixture)
                if size == 256 { XCTAssertLessThanOrEqual(max(png.0, png.1), 64, "\(fixture): never enlarged") }
                if fixture.hasSuffix("rotated.mp4") { XCTAssertLessThan(png.0, png.1, "portrait, as shown") }
                // Nothing else left behind: gnome-desktop removes the folder and warns otherwise.
                let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
                XCTAssertEqual(left, ["gnome-desktop-file-to-thumbnail." + ext, "gnome-desktop-thumbnailer.png"], fixture)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/cache"), "the shared cache is not touched")
    }

    func testABrokenFileFailsWithNothingWritten() throws {
        let broken = scratch.path + "/broken.heic"
        let heic = try Data(contentsOf: URL(fileURLWithPath: Photometa.root.path + "/Fixtures/thumbnails/plain.heic"))
        try heic.prefix(300).write(to: URL(fileURLWithPath: broken))
        let noPicture = ["library/IMG_0001.HEIC", "library/sample.avif", "library/IMG_0001.MOV", "library/clip.mp4"]
        for input in [broken] + noPicture.map({ Photometa.root.path + "/Fixtures/" + $0 }) {
            let folder = scratch.path + "/out-" + (input as NSString).lastPathComponent
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            let (status, log) = try runEntry(input: input, output: folder + "/gnome-desktop-thumbnailer.png", size: 128)
            XCTAssertNotEqual(status, 0, "\(input): \(log)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "\(input): nothing written")
        }
    }

    /// gnome-desktop's bubblewrap sandbox (`add_bwrap` in gnome-desktop-thumbnail-script.c):
    /// only /usr, /etc/ld.so.cache, /etc/alternatives, /proc, /dev, the input bound at
    /// /tmp/gnome-desktop-file-to-thumbnail.EXT and a fresh /tmp; photometa's own confinement
    /// runs inside it. Two binds are added: the install (PREFIX /opt/photometa, as /usr would be
    /// bound) and the debug build's Swift runtime (a toolchain outside /usr: docs/thumbnails.md).
    func testInsideGnomeDesktopsSandbox() throws {
        let bwrap = "/usr/bin/bwrap"
        guard FileManager.default.isExecutableFile(atPath: bwrap) else {
            throw XCTSkip("bubblewrap is not installed (make test installs it)")
        }
        guard try Program.run(bwrap, ["--ro-bind", "/", "/", "--unshare-all", "/bin/true"]).0 == 0 else {
            throw XCTSkip("bubblewrap cannot make namespaces here")
        }
        let stage = scratch.path + "/stage"
        let make = ["-C", Photometa.root.path, "--no-print-directory", "DESTDIR=" + stage, "PREFIX=/opt/photometa"]
        let (status, log) = try Program.run("/usr/bin/make", make + ["install-files", "INSTALL_BIN=" + Photometa.binary.path])
        XCTAssertEqual(status, 0, log)
        // Read to the end: /proc files report size 0.
        let maps = String(
            decoding: FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        let core = maps.split(separator: "\n").compactMap { $0.split(separator: " ").last }.first {
            $0.hasSuffix("/libswiftCore.so")
        }
        let runtime = core.map { ($0 as NSString).deletingLastPathComponent }.flatMap { $0.hasPrefix("/usr/") ? nil : $0 }
        let exec = try XCTUnwrap(
            try String(contentsOfFile: stage + "/opt/photometa/share/thumbnailers/photometa.thumbnailer", encoding: .utf8)
                .split(separator: "\n").first { $0.hasPrefix("Exec=") }?.dropFirst(5))
        for (fixture, _) in Self.fixtures {
            let outdir = scratch.path + "/gnome-" + (fixture as NSString).lastPathComponent
            try FileManager.default.createDirectory(atPath: outdir, withIntermediateDirectories: false)
            let infile = "/tmp/gnome-desktop-file-to-thumbnail." + (fixture as NSString).pathExtension
            var argv = [
                "--ro-bind", "/usr", "/usr", "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache",
                "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin",
                "--ro-bind-try", "/etc/alternatives", "/etc/alternatives", "--proc", "/proc", "--dev", "/dev", "--chdir", "/",
                "--setenv", "GIO_USE_VFS", "local", "--unshare-all", "--die-with-parent",
                "--ro-bind", stage + "/opt/photometa", "/opt/photometa",
            ]
            if let runtime { argv += ["--ro-bind", runtime, runtime] }
            argv += ["--bind", outdir, "/tmp", "--ro-bind", Photometa.root.path + "/Fixtures/" + fixture, infile]
            argv += try XCTUnwrap(ShellWords.split(String(exec))).map {
                GnomeExpansion.expand($0, input: infile, output: "/tmp/gnome-desktop-thumbnailer.png", size: 128)
            }
            let (status, log) = try Program.run(bwrap, argv, environment: env)
            XCTAssertEqual(status, 0, "\(fixture): \(log)")
            let png = try XCTUnwrap(
                pngSize([UInt8](try Data(contentsOf: URL(fileURLWithPath: outdir + "/gnome-desktop-thumbnailer.png")))))
            XCTAssertLessThanOrEqual(max(png.0, png.1), 128, fixture)
        }
    }

    /// `%u`: a file:// URI with escapes reaches the file; another scheme is refused, clearly.
    func testAFileURIAsInput() throws {
        let folder = scratch.path + "/a b"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try FileManager.default.copyItem(
            atPath: Photometa.root.path + "/Fixtures/thumbnails/plain.heic", toPath: folder + "/é.heic")
        let uri = "file://" + scratch.path + "/a%20b/%C3%A9.heic"
        let ok = try Photometa.run(["thumbnail", "--output", scratch.path + "/u.png", "--size", "32", uri], environment: env)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(pngSize([UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/u.png"))))?.0, 32)
        let smb = try Photometa.run(
            ["thumbnail", "--output", scratch.path + "/v.png", "smb://server/share/x.heic"], environment: env)
        XCTAssertEqual(smb.status, 64)
        XCTAssertTrue(smb.stderr.contains("photometa reads local files only"), smb.stderr)
        let host = try Photometa.run(
            ["thumbnail", "--output", scratch.path + "/v.png", "file://server/x.heic"], environment: env)
        XCTAssertEqual(host.status, 64)
        XCTAssertTrue(host.stderr.contains("on host 'server'"), host.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/v.png"))
    }

    func testOutputRefusesWhatItCannotKeep() throws {
        let heic = Photometa.root.path + "/Fixtures/thumbnails/plain.heic"
        let cases: [([String], Int32, String)] = [
            (["--output", scratch.path + "/x.png", heic, heic], 64, "exactly one INPUT"),
            (["--output", scratch.path + "/x.png", "--crop", heic], 64, "--crop does not go with --output"),
            (["--output", scratch.path + "/x.png", "--out", scratch.path, heic], 64, "--out does not go with --output"),
            (["--output", scratch.path + "/missing/x.png", heic], 74, "its folder does not exist"),
            // A control character in the name is escaped once (`\n`), not twice (`\\n`).
            (["--output", scratch.path + "/miss\ning/x.png", heic], 74, "/miss\\ning/x.png: its folder does not exist"),
            (["--output", heic, heic], 74, "is the input itself"),
            // Replaced by a rename, a device or a FIFO would become a regular file (`--output
            // /dev/null` run as root): refused, and left as it was.
            (["--output", "/dev/null", heic], 74, "is a device, not a regular file"),
            (["--output", scratch.path + "/fifo", heic], 74, "is a FIFO, not a regular file"),
        ]
        XCTAssertEqual(mkfifo(scratch.path + "/fifo", 0o600), 0)
        for (args, status, message) in cases {
            let r = try Photometa.run(["thumbnail"] + args, environment: env)
            XCTAssertEqual(r.status, status, r.stderr)
            XCTAssertTrue(r.stderr.contains(message), r.stderr)
        }
        var st = stat()
        XCTAssertEqual(lstat(scratch.path + "/fifo", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "still a FIFO")
        XCTAssertEqual(lstat("/dev/null", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFCHR, "still a device")
    }
}

/// `g_shell_parse_argv`: words split at blanks and newlines outside quotes; '…' literal; "…"
/// with `\` escaping `$`, backquote, `"`, `\` and newline; `\` outside quotes escaping any
/// character; `#` at a word's start a comment to the end of the line. Nil for an unterminated
/// quote (GLib's error).
enum ShellWords {
    static func split(_ text: String) -> [String]? {
        var words: [String] = []
        var word: String?
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            switch c {
            case " ", "\t", "\n":
                if let w = word { words.append(w) }
                word = nil
            case "#" where word == nil:
                while let d = chars.first, d != "\n" { chars.removeFirst() }
            case "'":
                guard let end = chars.firstIndex(of: "'") else { return nil }
                word = (word ?? "") + String(chars[..<end])
                chars = chars[(end + 1)...]
            case "\"":
                var w = word ?? ""
                var closed = false
                while let d = chars.popFirst() {
                    if d == "\"" {
                        closed = true
                        break
                    }
                    if d == "\\", let e = chars.first, "$`\"\\\n".contains(e) {
                        chars.removeFirst()
                        if e != "\n" { w.append(e) }
                    } else {
                        w.append(d)
                    }
                }
                guard closed else { return nil }
                word = w
            case "\\":
                guard let e = chars.popFirst() else { return nil }
                if e != "\n" { word = (word ?? "") + String(e) }
            default: word = (word ?? "") + String(c)
            }
        }
        if let w = word { words.append(w) }
        return words
    }
}

/// gnome-desktop's `expand_thumbnailing_elem`: in each word, `%u` the input's URI
/// (`g_filename_to_uri`), `%i` its path, `%o` the output path, `%s` the size, `%%` a `%`; any
/// other `%x` vanishes.
enum GnomeExpansion {
    static func expand(_ word: String, input: String, output: String, size: Int) -> String {
        var out = ""
        var chars = word[...]
        while let c = chars.popFirst() {
            guard c == "%" else {
                out.append(c)
                continue
            }
            switch chars.popFirst() {
            case "u": out += "file://" + uriEscaped(input)
            case "i": out += input
            case "o": out += output
            case "s": out += String(size)
            case "%": out += "%"
            default: break
            }
        }
        return out
    }

    /// A path as `g_filename_to_uri` escapes it: bytes outside the unreserved and path
    /// characters as %XX.
    static func uriEscaped(_ path: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/".utf8)
        return path.utf8.map { allowed.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
    }
}
