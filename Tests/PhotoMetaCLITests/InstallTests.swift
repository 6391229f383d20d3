import Foundation
import XCTest

/// `make install` into a temporary DESTDIR: the binary runs from there, the man page renders
/// with `man -l` and names every command and exit code, the completions parse, and `make
/// uninstall` takes it all away again (issue 15).
final class InstallTests: XCTestCase {
    func run(_ exe: String, _ args: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        try Program.run(exe, args, environment: environment)
    }

    func testInstallIntoADestdir() throws {
        let scratch = try TemporaryDirectory(prefix: "pm-install")
        let destdir = scratch.path
        let root = Photometa.root.path
        let make = ["-C", root, "--no-print-directory", "DESTDIR=" + destdir, "PREFIX=/usr/local"]
        let (status, log) = try run("/usr/bin/make", make + ["install-files", "INSTALL_BIN=" + Photometa.binary.path])
        XCTAssertEqual(status, 0, log)

        let bin = destdir + "/usr/local/bin/photometa"
        let version = try run(bin, ["--version"])
        XCTAssertEqual(version.0, 0)
        XCTAssertTrue(version.1.hasPrefix("photometa "), version.1)
        let inspect = try run(bin, ["inspect", "--jsonl", root + "/Fixtures/library/DSC_0001.JPG"])
        XCTAssertEqual(inspect.0, 0, inspect.1)
        // The installed photometa finds its installed helper beside it.
        let thumb = try run(
            bin, ["thumbnail", "--no-cache", "--out", destdir + "/t", root + "/Fixtures/thumbnails/orient1.jpg"],
            environment: ["PHOTOMETA_THUMBNAILER": ""])
        XCTAssertEqual(thumb.0, 0, thumb.1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: destdir + "/t/orient1.jpg.png"), thumb.1)

        // The systemd user unit starts the installed binary (issue 20).
        let unit = destdir + "/usr/local/lib/systemd/user/photometa.service"
        let unitText = try String(contentsOfFile: unit, encoding: .utf8)
        for line in ["ExecStart=/usr/local/bin/photometa serve", "Restart=on-failure", "WantedBy=default.target"] {
            XCTAssertTrue(unitText.split(separator: "\n").contains(Substring(line)), "the unit says \(line):\n\(unitText)")
        }

        let page = destdir + "/usr/local/share/man/man1/photometa.1"
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else {
            throw XCTSkip("man is not installed (make test installs man-db)")
        }
        let (manStatus, text) = try run("/usr/bin/man", ["-l", page], environment: ["MANPAGER": "cat", "MANWIDTH": "100"])
        XCTAssertEqual(manStatus, 0, text)
        for word in ["inspect", "suggest", "dismiss", "forget", "watch", "--files-from", "--keep-going", "EXIT STATUS", "74"] {
            XCTAssertTrue(text.contains(word), "the man page names \(word)")
        }
        let (bashStatus, bashLog) = try run(
            "/bin/bash", ["-n", destdir + "/usr/local/share/bash-completion/completions/photometa"])
        XCTAssertEqual(bashStatus, 0, bashLog)
        XCTAssertTrue(FileManager.default.fileExists(atPath: destdir + "/usr/local/share/zsh/site-functions/_photometa"))

        let (uninstallStatus, uninstallLog) = try run("/usr/bin/make", make + ["uninstall"])
        XCTAssertEqual(uninstallStatus, 0, uninstallLog)
        XCTAssertFalse(FileManager.default.fileExists(atPath: bin))
        XCTAssertFalse(FileManager.default.fileExists(atPath: page))
        XCTAssertFalse(FileManager.default.fileExists(atPath: unit))
    }
}
