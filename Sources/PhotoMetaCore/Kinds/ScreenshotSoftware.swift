/// Programs that make nothing but screenshots and name themselves in the files they write: a
/// file whose software (`FieldPrecedence.software`: a PNG's `Software` text [PNG 1.2
/// 11.3.4.2], EXIF Software [EXIF 2.32 4.6.4 A]) is one of them is a screenshot whatever it
/// is called and wherever it lies (a renamed screenshot moved out of `Screenshots/`).
///
/// Only tools seen writing it in their source: GNOME Shell's screenshot UI and
/// gnome-screenshot write `Software` = `gnome-screenshot` in every PNG (gnome-shell
/// `src/shell-screenshot.c`, gnome-screenshot `src/screenshot-application.c`); Greenshot sets
/// `Software` = `Greenshot` (`ImageIO.cs`). KDE Spectacle, Flameshot, grim, scrot and
/// Xfce's screenshooter write no text; Android's SystemUI writes `Android ` and the build's
/// name, as a camera app may too, so it is no evidence (its names and folder are).
package enum ScreenshotSoftware {
    /// Lowercased ASCII.
    static let tools: [String] = ["gnome-screenshot", "greenshot"]

    /// True when `software` is one of `tools`, compared case-insensitively, alone or followed
    /// by a version after a blank (`Greenshot 1.3`).
    package static func isScreenshotTool(_ software: String) -> Bool {
        // The first word's bytes against each tool's, ASCII letters folded: no word or lowercased
        // copy is made (a camera JPEG's Software is looked at for every file). The names are
        // ASCII, so folding only ASCII letters answers as lowercasing the whole text would.
        var bytes = software.utf8[...]
        while bytes.first == UInt8(ascii: " ") { bytes = bytes.dropFirst() }
        let word = bytes.prefix { $0 != UInt8(ascii: " ") }
        return tools.contains { tool in
            tool.utf8.count == word.count
                && zip(tool.utf8, word).allSatisfy { t, b in t == (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) }
        }
    }
}
