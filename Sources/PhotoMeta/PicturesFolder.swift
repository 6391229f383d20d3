import Foundation
import PhotoMetaCore
import PhotoMetaSystem

/// The user's pictures folder, where `suggest`, `dismiss`, `forget` and `watch` look when no
/// folder is given: `XDG_PICTURES_DIR` of the XDG user dirs (`$XDG_CONFIG_HOME/user-dirs.dirs`,
/// else `~/.config/user-dirs.dirs`, as `xdg-user-dirs-update` writes it), else `~/Pictures`.
public enum PicturesFolder {
    /// The folder and where it came from (for `--explain`); it may not exist.
    public static func locate(environment: [String: String] = ProcessEnvironment.current)
        -> (path: String, source: String)
    {
        var home = HomeFolder.path(environment)
        while home.count > 1, home.hasSuffix("/") { home.removeLast() }
        let config = HomeFolder.base("XDG_CONFIG_HOME", environment) ?? home + "/.config"
        let file = config + "/user-dirs.dirs"
        // By its bytes: a folder named in Latin-1 is still that folder (`PathBytes`).
        let text = FileSystem.contents(file, limit: 1 << 20).map { PathBytes.decode($0) }
        switch text.map({ picturesDir(in: $0, home: home) }) {
        case .folder(let dir)?: return (dir, "XDG_PICTURES_DIR in \(file)")
        case .turnedOff?:
            return (home + "/Pictures", "the default ~/Pictures (XDG_PICTURES_DIR in \(file) is $HOME: the folder is turned off)")
        case .unusable(let value)?:
            return (
                home + "/Pictures",
                "the default ~/Pictures (XDG_PICTURES_DIR in \(file) is \(value), neither $HOME/... nor absolute)"
            )
        case .absent?, nil: return (home + "/Pictures", "the default ~/Pictures (no XDG_PICTURES_DIR in \(file))")
        }
    }

    /// What `user-dirs.dirs` says of the pictures folder.
    enum Entry: Equatable {
        case folder(String)
        /// `$HOME` itself: the user turned the folder off [xdg-user-dirs(1)].
        case turnedOff
        /// A value that is neither `$HOME/...` nor absolute (shown as written).
        case unusable(String)
        case absent
    }

    /// `XDG_PICTURES_DIR="$HOME/Pictures"` [xdg-user-dirs(1), user-dirs.dirs(5)]: shell syntax,
    /// as `xdg-user-dirs-update` writes it and a shell reads it: a double-quoted value in
    /// which `\` escapes the next character (`\"`, `\\`, `\$`), `$HOME/` or an absolute path;
    /// the last assignment wins, as when the file is sourced; lines may end in CR LF.
    static func picturesDir(in text: String, home: String) -> Entry {
        var found = Entry.absent
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("XDG_PICTURES_DIR=") else { continue }
            var value = unquoted(line.dropFirst("XDG_PICTURES_DIR=".count))
            while value.count > 1, value.hasSuffix("/") { value.removeLast() }
            if value == "$HOME" {
                found = .turnedOff
            } else if value.hasPrefix("$HOME/") {
                found = .folder(home + "/" + value.dropFirst("$HOME/".count))
            } else if value.hasPrefix("/") {
                found = .folder(value)
            } else {
                found = .unusable(value)
            }
        }
        return found
    }

    /// The value with its double quotes taken off and its backslash escapes undone.
    private static func unquoted(_ text: Substring) -> String {
        guard text.hasPrefix("\""), text.count >= 2 else { return String(text) }
        var out = ""
        var escaped = false
        for c in text.dropFirst() {
            if escaped {
                out.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "\"" {
                break  // the closing quote; anything after it is a comment or garbage
            } else {
                out.append(c)
            }
        }
        return out
    }
}
