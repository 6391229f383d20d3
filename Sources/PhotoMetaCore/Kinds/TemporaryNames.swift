/// Names that editors and downloaders use for files in progress (`photo.jpg.part`, `.crdownload`,
/// vim's swap files...): never news for `watch`, never offered or listed by `suggest` and
/// `recent` (a download offered under its `.part` name never completes under that name). The
/// one home of the rule; hidden names are left out by the walker already.
package enum TemporaryNames {
    package static func isTemporary(_ name: String) -> Bool { isTemporary(name[...]) }

    /// Asked of every file a scan lists, so it looks at bytes in place: every mark below is
    /// ASCII, and the suffixes are compared without regard to ASCII case.
    package static func isTemporary(_ name: Substring) -> Bool {
        if let answer = name.utf8.withContiguousStorageIfAvailable({ isTemporary(bytes: $0) }) {
            return answer || isQtSave(name)
        }
        return Array(name.utf8).withUnsafeBufferPointer { isTemporary(bytes: $0) } || isQtSave(name)
    }

    /// Qt's `QSaveFile` (Spectacle, Gwenview, Krita where the file system has no `O_TMPFILE`)
    /// writes `photo.png.XXXXXX` (six random letters and digits, `QTemporaryFileEngine`'s
    /// template) and renames it over `photo.png`. Told by a picture's or video's extension
    /// (`NamedKind`) before a tail of exactly six letters and digits that mixes cases or
    /// digits: `photo.jpg.backup` or `photo.jpg.BACKUP` is a name someone chose.
    static func isQtSave(_ name: Substring) -> Bool {
        let u = name.utf8
        guard u.count > 7, let dot = u.lastIndex(of: UInt8(ascii: ".")), u.distance(from: dot, to: u.endIndex) == 7 else {
            return false
        }
        var lower = false
        var upper = false
        var digit = false
        for b in u[u.index(after: dot)...] {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): lower = true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): upper = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = true
            default: return false
            }
        }
        guard [lower, upper, digit].filter({ $0 }).count >= 2 else { return false }
        return NamedKind.promised(by: name[..<dot]) != nil
    }

    private static func isTemporary(bytes u: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = u.first, let last = u.last else { return false }
        if first == UInt8(ascii: ".") { return true }  // hidden, .#lock, .goutputstream
        if last == UInt8(ascii: "~") { return true }  // emacs, gedit backups
        if first == UInt8(ascii: "#"), last == UInt8(ascii: "#") { return true }  // emacs autosave
        if u.elementsEqual("4913".utf8) { return true }  // vim's write test
        if u.starts(with: "~$".utf8) { return true }  // office suites' lock files
        // Every suffix is a dot and a tail without one: a name ends with it exactly when the
        // name's last dot starts it, so only that one tail is compared, with the suffixes of its
        // length (none is longer than 11 bytes).
        var dot = u.count - 1
        while dot >= 0, u.count - dot <= 11, u[dot] != UInt8(ascii: ".") { dot -= 1 }
        guard dot >= 0, u[dot] == UInt8(ascii: "."), u.count - dot <= 11 else { return false }
        let tail = UnsafeBufferPointer(rebasing: u[dot...])
        return suffixes.contains { suffix in
            suffix.count == tail.count && zip(tail, suffix).allSatisfy { lowerASCII($0) == $1 }
        }
    }

    private static let suffixes: [[UInt8]] = [
        ".swp", ".swo", ".swx", ".tmp", ".temp", ".part", ".partial", ".crdownload", ".download",
        ".kate-swp", ".filepart", ".!qb", ".aria2",
        // Resilio (BitTorrent) Sync's file being synced, Opera's download.
        ".!sync", ".opdownload",
    ].map { Array($0.utf8) }

    private static func lowerASCII(_ b: UInt8) -> UInt8 {
        b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
    }
}
