import Foundation
import PhotoMetaSystem

/// The user's pictures folder, where `suggest`, `dismiss`, `forget` and `watch` look when no
/// folder is given: `XDG_PICTURES_DIR` of the XDG user dirs (`$XDG_CONFIG_HOME/user-dirs.dirs`,
/// else `~/.config/user-dirs.dirs`, as `xdg-user-dirs-update` writes it), else `~/Pictures`.
public enum PicturesFolder {
    /// The folder and where it came from (for `--explain`); it may not exist.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> (path: String, source: String)
    {
        let home = HomeFolder.path(environment)
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        let file = config + "/user-dirs.dirs"
        if let bytes = FileSystem.contents(file, limit: 1 << 20), let text = String(validating: bytes, as: UTF8.self),
            let dir = picturesDir(in: text, home: home)
        {
            return (dir, "XDG_PICTURES_DIR in \(file)")
        }
        return (home + "/Pictures", "the default ~/Pictures (no XDG_PICTURES_DIR in \(file))")
    }

    /// `XDG_PICTURES_DIR="$HOME/Pictures"` (shell syntax: a quoted value, `$HOME/` or an
    /// absolute path) [xdg-user-dirs(1)]. A value equal to `$HOME` alone means the feature is off.
    static func picturesDir(in text: String, home: String) -> String? {
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("XDG_PICTURES_DIR=") else { continue }
            var value = String(line.dropFirst("XDG_PICTURES_DIR=".count))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            if value == "$HOME" || value == "$HOME/" { return nil }
            if value.hasPrefix("$HOME/") { return home + "/" + value.dropFirst("$HOME/".count) }
            if value.hasPrefix("/") { return value }
            return nil
        }
        return nil
    }
}
