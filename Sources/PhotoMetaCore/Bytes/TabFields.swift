/// Lines of tab-separated fields, the protocol between `photometa` and `photometa-thumbnailer`:
/// inside a field a tab, a newline and a backslash are written `\t`, `\n` and `\\`, so any file
/// name (control characters included) travels in one line and comes back byte for byte.
package enum TabFields {
    /// One line (without its newline) of `fields`.
    package static func line(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: "\t")
    }

    package static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// The fields of one line's bytes (without its newline).
    package static func fields(_ line: ArraySlice<UInt8>) -> [String] {
        line.split(separator: 0x09, omittingEmptySubsequences: false).map(unescape)
    }

    static func unescape(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var escaped = false
        for b in bytes {
            if escaped {
                out.append(b == UInt8(ascii: "t") ? 0x09 : b == UInt8(ascii: "n") ? 0x0A : b)
                escaped = false
            } else if b == UInt8(ascii: "\\") {
                escaped = true
            } else {
                out.append(b)
            }
        }
        return PathBytes.decode(out)
    }

    /// The lines of `bytes` (split at newlines; a last line without one is a line too).
    package static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if result.last?.isEmpty == true { result.removeLast() }
        return result
    }
}
