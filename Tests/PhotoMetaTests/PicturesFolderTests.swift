import XCTest

@testable import PhotoMeta

/// `user-dirs.dirs` read as a shell reads it (docs/suggest.md, "The pictures folder").
final class PicturesFolderTests: XCTestCase {
    func entry(_ text: String) -> PicturesFolder.Entry { PicturesFolder.picturesDir(in: text, home: "/home/u") }

    func testTheFileAsXdgUserDirsUpdateWritesIt() {
        XCTAssertEqual(
            entry("# comment\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_PICTURES_DIR=\"$HOME/Bilder\"\n"), .folder("/home/u/Bilder"))
        XCTAssertEqual(entry("XDG_PICTURES_DIR=/srv/photos/"), .folder("/srv/photos"))
        XCTAssertEqual(entry("XDG_MUSIC_DIR=\"$HOME/Music\"\n"), .absent)
    }

    /// Escapes undone (`\"`, `\\`, `\$`), the last assignment wins, CR LF line ends.
    func testShellSyntax() {
        XCTAssertEqual(entry("XDG_PICTURES_DIR=\"$HOME/Pic\\\"s \\$x\\\\y\"\n"), .folder("/home/u/Pic\"s $x\\y"))
        XCTAssertEqual(entry("XDG_PICTURES_DIR=\"$HOME/a\"\nXDG_PICTURES_DIR=\"$HOME/b\"\n"), .folder("/home/u/b"))
        XCTAssertEqual(
            entry("XDG_DESKTOP_DIR=\"$HOME/Desktop\"\r\nXDG_PICTURES_DIR=\"$HOME/Fotos\"\r\n"), .folder("/home/u/Fotos"))
    }

    /// `$HOME` itself turns the folder off; a relative value is not used. Both say so.
    func testTurnedOffAndUnusable() {
        XCTAssertEqual(entry("XDG_PICTURES_DIR=\"$HOME/\"\n"), .turnedOff)
        XCTAssertEqual(entry("XDG_PICTURES_DIR=\"$HOME\"\n"), .turnedOff)
        XCTAssertEqual(entry("XDG_PICTURES_DIR=\"Pictures\"\n"), .unusable("Pictures"))
        let dir = NSTemporaryDirectory() + "/pictures-folder-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertTrue(
            FileManager.default.createFile(atPath: dir + "/user-dirs.dirs", contents: Data("XDG_PICTURES_DIR=\"$HOME/\"\n".utf8)))
        let (path, source) = PicturesFolder.locate(environment: ["HOME": "/home/u/", "XDG_CONFIG_HOME": dir])
        XCTAssertEqual(path, "/home/u/Pictures", "one slash, whatever HOME ends with")
        XCTAssertTrue(source.contains("is $HOME: the folder is turned off"), source)
    }
}
