/// A small streaming JSON writer: keys in the order written, strings escaped per RFC 8259 §7,
/// numbers without locale. Cheaper than building dictionaries for JSONSerialization, and the
/// key order makes golden files stable.
package struct JSONWriter {
    package private(set) var output = ""
    private var needsComma: [Bool] = [false]

    package init() { output.reserveCapacity(1024) }

    private mutating func separator() {
        if needsComma[needsComma.count - 1] { output += "," }
        needsComma[needsComma.count - 1] = true
    }

    package mutating func beginObject() {
        separator()
        output += "{"
        needsComma.append(false)
    }
    package mutating func endObject() {
        output += "}"
        needsComma.removeLast()
    }
    package mutating func beginArray() {
        separator()
        output += "["
        needsComma.append(false)
    }
    package mutating func endArray() {
        output += "]"
        needsComma.removeLast()
    }

    package mutating func key(_ k: String) {
        separator()
        JSONWriter.appendString(k, to: &output)
        output += ":"
        needsComma[needsComma.count - 1] = false
    }

    package mutating func string(_ s: String?) {
        separator()
        if let s { JSONWriter.appendString(s, to: &output) } else { output += "null" }
    }

    package mutating func int(_ v: Int?) {
        separator()
        output += v.map(String.init) ?? "null"
    }
    package mutating func bool(_ v: Bool?) {
        separator()
        output += v.map { $0 ? "true" : "false" } ?? "null"
    }
    package mutating func null() {
        separator()
        output += "null"
    }

    /// Finite doubles only; others become null (JSON has no NaN).
    package mutating func double(_ v: Double?) {
        separator()
        guard let v, v.isFinite else {
            output += "null"
            return
        }
        output += v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    /// Raw JSON text, already valid.
    package mutating func raw(_ json: String) {
        separator()
        output += json
    }

    package mutating func field(_ k: String, _ s: String?) {
        key(k)
        string(s)
    }
    package mutating func field(_ k: String, _ v: Int?) {
        key(k)
        int(v)
    }
    package mutating func field(_ k: String, _ v: Bool?) {
        key(k)
        bool(v)
    }
    package mutating func field(_ k: String, _ v: Double?) {
        key(k)
        double(v)
    }

    static func appendString(_ s: String, to out: inout String) {
        out += "\""
        // Nearly every string needs no escape: append it whole.
        // (C1 controls and invisible format characters start with 0xC2, 0xD8, 0xE2 or 0xEF; stand-ins for raw name bytes with 0xF4.)
        // (The bytes are looked at in place when the string has them contiguous, as native
        // strings do: a tenth of the cost of walking its UTF-8 view, on every key and value.)
        let needsEscape: (UInt8) -> Bool = {
            $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 || $0 == 0xEF
                || $0 == 0xF4
        }
        if !(s.utf8.withContiguousStorageIfAvailable { $0.contains(where: needsEscape) } ?? s.utf8.contains(where: needsEscape)) {
            out += s
            out += "\""
            return
        }
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // Controls, and the characters that would reorder or hide text on a terminal,
                // as \uXXXX: the value stays exact, the output stays inert.
                if PathBytes.rawByte(u) != nil {
                    // A byte of a name that is not UTF-8: JSON text is Unicode, so it reads as
                    // U+FFFD here; the exact bytes go beside it (`pathBytes`).
                    out += "\u{FFFD}"
                } else if u.value < 0x20 || (0x7F..<0xA0).contains(u.value) || TerminalText.isInvisibleFormat(u.value) {
                    let h = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
