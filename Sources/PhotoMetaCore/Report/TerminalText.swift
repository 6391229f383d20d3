/// Text made safe for a terminal, the way `ls --quoting-style=escape` shows names: a file name
/// or a string read from a file can hold ESC, OSC title sequences, BEL, CR, C1 controls and
/// bidirectional overrides, which would clear the screen, set the title, forge output lines or
/// reorder what is shown. Text output shows them as escapes instead; JSON escapes them as
/// `\uXXXX` (`JSONWriter`), which keeps the value exact.
package enum TerminalText {
    /// `\e`, `\n`, `\t`, `\r`, `\a`, `\b`, `\f`, `\v`, `\\`, other C0 controls, DEL and C1
    /// controls as `\xNN`, and invisible format characters (bidirectional overrides and
    /// isolates, marks, line and paragraph separators) as `\u{XXXX}`. Everything else is kept.
    package static func escape(_ s: String) -> String {
        // The usual case: printable ASCII without a backslash comes back as it is.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C }) { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        for u in s.unicodeScalars {
            switch u.value {
            case 0x5C: out += "\\\\"
            case 0x07: out += "\\a"
            case 0x08: out += "\\b"
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0B: out += "\\v"
            case 0x0C: out += "\\f"
            case 0x0D: out += "\\r"
            case 0x1B: out += "\\e"
            case 0x00..<0x20, 0x7F..<0xA0: out += "\\x" + hex(u.value, 2)
            default:
                if let byte = PathBytes.rawByte(u) {
                    // A byte of a file name that is not UTF-8 (PathBytes).
                    out += "\\x" + hex(UInt32(byte), 2)
                } else if isInvisibleFormat(u.value) {
                    out += "\\u{" + hex(u.value, 4).uppercased() + "}"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }

    /// Characters that change how the text around them is shown without being seen: the
    /// Unicode bidirectional controls [UAX #9 2.1-2.7], line and paragraph separators, and
    /// zero-width marks used to hide text.
    package static func isInvisibleFormat(_ v: UInt32) -> Bool {
        switch v {
        case 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    private static func hex(_ v: UInt32, _ width: Int) -> String {
        let h = String(v, radix: 16)
        return h.count >= width ? h : String(repeating: "0", count: width - h.count) + h
    }
}
