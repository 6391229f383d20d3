/// A small streaming JSON writer: keys in the order written, strings escaped per RFC 8259 §7,
/// numbers without locale. Cheaper than building dictionaries for JSONSerialization, and the
/// key order makes golden files stable. It writes UTF-8 bytes: a row built by `String` appends
/// was a tenth of a warm `inspect -r` (docs/performance.md, "inspect, warm and cold"); keys are literals,
/// copied without a look for escapes.
package struct JSONWriter {
    /// The JSON text so far, UTF-8.
    package private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]

    /// Room for most rows (an `inspect` row is 700-900 bytes) in a block glibc takes from its
    /// small bins: a request of 1 KiB or more first consolidates its fast bins, which was 2 % of
    /// a warm `inspect -r` (docs/performance.md, "inspect, warm and cold").
    package init() { bytes.reserveCapacity(960) }

    /// The JSON text so far.
    package var output: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func separator() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    package mutating func beginObject() {
        separator()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }
    package mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma.removeLast()
    }
    package mutating func beginArray() {
        separator()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }
    package mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma.removeLast()
    }

    /// A key: a literal of the program's, never text from a file, so it needs no escape.
    package mutating func key(_ k: StaticString) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        append(k)
        append("\":")
        needsComma[needsComma.count - 1] = false
    }

    package mutating func string(_ s: String?) {
        separator()
        if let s { JSONWriter.appendString(s, to: &bytes) } else { append("null") }
    }

    package mutating func int(_ v: Int?) {
        separator()
        guard let v else { return append("null") }
        appendDecimal(v)
    }
    package mutating func bool(_ v: Bool?) {
        separator()
        guard let v else { return append("null") }
        v ? append("true") : append("false")
    }
    package mutating func null() {
        separator()
        append("null")
    }

    /// Finite doubles only; others become null (JSON has no NaN).
    package mutating func double(_ v: Double?) {
        separator()
        guard let v, v.isFinite else { return append("null") }
        if v == v.rounded() && abs(v) < 1e15 {
            appendDecimal(Int(v))
        } else {
            bytes.append(contentsOf: String(v).utf8)
        }
    }

    /// Raw JSON text, already valid.
    package mutating func raw(_ json: String) {
        separator()
        bytes.append(contentsOf: json.utf8)
    }

    package mutating func field(_ k: StaticString, _ s: String?) {
        key(k)
        string(s)
    }
    package mutating func field(_ k: StaticString, _ v: Int?) {
        key(k)
        int(v)
    }
    package mutating func field(_ k: StaticString, _ v: Bool?) {
        key(k)
        bool(v)
    }
    package mutating func field(_ k: StaticString, _ v: Double?) {
        key(k)
        double(v)
    }

    /// The digits of `v`, as `String(v)` writes them, without making the string.
    private mutating func appendDecimal(_ v: Int) {
        if v < 0 { bytes.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned: Int.min has no positive Int.
        var m = v.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 24 digits, last first
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[count] = UInt8(ascii: "0") + UInt8(m % 10)
                m /= 10
                count += 1
            } while m > 0 && count < d.count
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(d[i]) }
        }
    }

    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Nearly every string needs no escape: append it whole.
        // (C1 controls and invisible format characters start with 0xC2, 0xD8, 0xE2 or 0xEF; stand-ins for raw name bytes with 0xF4.)
        // (The bytes are looked at in place when the string has them contiguous, as native
        // strings do: a tenth of the cost of walking its UTF-8 view, on every key and value.)
        let needsEscape: (UInt8) -> Bool = {
            $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 || $0 == 0xEF
                || $0 == 0xF4
        }
        let plain: Bool? = s.utf8.withContiguousStorageIfAvailable { u in
            guard !u.contains(where: needsEscape) else { return false }
            out.append(contentsOf: u)
            return true
        }
        if plain ?? !s.utf8.contains(where: needsEscape) {
            if plain == nil { out.append(contentsOf: s.utf8) }
            out.append(UInt8(ascii: "\""))
            return
        }
        for u in s.unicodeScalars {
            switch u {
            case "\"": out.append(contentsOf: #"\""#.utf8)
            case "\\": out.append(contentsOf: #"\\"#.utf8)
            case "\n": out.append(contentsOf: #"\n"#.utf8)
            case "\r": out.append(contentsOf: #"\r"#.utf8)
            case "\t": out.append(contentsOf: #"\t"#.utf8)
            default:
                // Controls, and the characters that would reorder or hide text on a terminal,
                // as \uXXXX: the value stays exact, the output stays inert.
                if PathBytes.rawByte(u) != nil {
                    // A byte of a name that is not UTF-8: JSON text is Unicode, so it reads as
                    // U+FFFD here; the exact bytes go beside it (`pathBytes`).
                    out.append(contentsOf: "\u{FFFD}".utf8)
                } else if u.value < 0x20 || (0x7F..<0xA0).contains(u.value) || TerminalText.isInvisibleFormat(u.value) {
                    let h = String(u.value, radix: 16)
                    out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - h.count) + h).utf8)
                } else {
                    out.append(contentsOf: String(u).utf8)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
