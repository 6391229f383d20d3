/// A small streaming JSON writer: keys in the order written, strings escaped per RFC 8259 §7,
/// numbers without locale. Cheaper than building dictionaries for JSONSerialization, and the
/// key order makes golden files stable. It writes UTF-8 bytes: a row built by `String` appends
/// was a tenth of a warm `inspect -r` (docs/performance.md, "inspect, warm and cold"); keys are literals,
/// copied without a look for escapes.
package struct JSONWriter {
    /// The JSON text so far, UTF-8, in a buffer of its own: every key and value of every row
    /// is an append, and `Array.append(contentsOf:)` cost ten times a copy of the bytes
    /// (docs/performance.md, "The fourth pass"). Copied on write, as an array would be.
    private var buffer = ByteBuffer(capacity: 960)
    /// Bit n: the object or array open at depth n has a value, so the next one needs a comma.
    /// Bits, not an array: the writer is called for every key and value of every row.
    private var commas: UInt64 = 0
    private var depth = 0

    /// Room for most rows (an `inspect` row is 700-900 bytes) in a block glibc takes from its
    /// small bins: a request of 1 KiB or more first consolidates its fast bins, which was 2 % of
    /// a warm `inspect -r` (docs/performance.md, "inspect, warm and cold").
    package init() {}

    /// The JSON text so far, UTF-8.
    package var bytes: [UInt8] { buffer.withBytes { Array($0) } }

    /// The JSON text so far.
    package var output: String { buffer.withBytes { String(decoding: $0, as: UTF8.self) } }

    @inline(__always) private mutating func unique() {
        if !isKnownUniquelyReferenced(&buffer) { buffer = buffer.copy() }
    }

    private mutating func appendByte(_ b: UInt8) {
        unique()
        buffer.append(b)
    }

    @inline(__always) private mutating func append(_ s: StaticString) {
        unique()
        buffer.append(s)
    }

    private mutating func separator() {
        let bit: UInt64 = 1 << UInt64(depth)
        if commas & bit != 0 { appendByte(UInt8(ascii: ",")) }
        commas |= bit
    }

    /// One level deeper, with no value yet. photometa's rows nest a few levels; past 63 the
    /// levels share the last bit (never a trap).
    private mutating func descend() {
        depth = min(depth + 1, 63)
        commas &= ~(1 << UInt64(depth))
    }

    private mutating func ascend() { depth = max(depth - 1, 0) }

    package mutating func beginObject() {
        separator()
        appendByte(UInt8(ascii: "{"))
        descend()
    }
    package mutating func endObject() {
        appendByte(UInt8(ascii: "}"))
        ascend()
    }
    package mutating func beginArray() {
        separator()
        appendByte(UInt8(ascii: "["))
        descend()
    }
    package mutating func endArray() {
        appendByte(UInt8(ascii: "]"))
        ascend()
    }

    /// A key: a literal of the program's, never text from a file, so it needs no escape.
    /// The comma, the quoted key and its colon go in with one capacity check: a row has
    /// about 30 keys (docs/performance.md, "The sixth pass").
    package mutating func key(_ k: StaticString) {
        let bit: UInt64 = 1 << UInt64(depth)
        let comma = commas & bit != 0
        // The value that follows is the first after the key: no comma before it.
        commas &= ~bit
        unique()
        buffer.appendKey(k, comma: comma)
    }

    package mutating func string(_ s: String?) {
        separator()
        guard let s else { return append("null") }
        unique()
        JSONWriter.appendString(s, to: buffer)
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
            unique()
            buffer.append(contentsOf: String(v).utf8)
        }
    }

    /// Raw JSON text, already valid.
    package mutating func raw(_ json: String) {
        separator()
        unique()
        buffer.append(contentsOf: json.utf8)
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
        unique()
        if v < 0 { buffer.append(UInt8(ascii: "-")) }
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
            for i in stride(from: count - 1, through: 0, by: -1) { buffer.append(d[i]) }
        }
    }

    @inline(__always) private static func needsEscape(_ b: UInt8) -> Bool {
        b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F || b == 0xC2 || b == 0xD8 || b == 0xE2 || b == 0xEF || b == 0xF4
    }

    static func appendString(_ s: String, to out: inout [UInt8]) {
        let buffer = ByteBuffer(capacity: s.utf8.count + 2)
        appendString(s, to: buffer)
        buffer.withBytes { out.append(contentsOf: $0) }
    }

    private static func appendString(_ s: String, to out: ByteBuffer) {
        out.append(UInt8(ascii: "\""))
        // Nearly every string needs no escape: append it whole.
        // (C1 controls and invisible format characters start with 0xC2, 0xD8, 0xE2 or 0xEF; stand-ins for raw name bytes with 0xF4.)
        // (The bytes are looked at in place when the string has them contiguous, as native
        // strings do: a tenth of the cost of walking its UTF-8 view, on every key and value.)
        let plain: Bool? = s.utf8.withContiguousStorageIfAvailable { u in
            for b in u where needsEscape(b) { return false }
            out.append(u)
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

/// A growable run of bytes, for `JSONWriter`: appends are a capacity check and a copy.
private final class ByteBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    func copy() -> ByteBuffer {
        let c = ByteBuffer(capacity: capacity)
        c.base.initialize(from: base, count: count)
        c.count = count
        return c
    }

    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: base, count: count))
    }

    @inline(__always) private func reserve(_ n: Int) {
        if capacity - count < n { grow(n) }
    }

    @inline(never) private func grow(_ n: Int) {
        let grown = max(capacity * 2, count + n)
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        new.moveInitialize(from: base, count: count)
        base.deallocate()
        base = new
        capacity = grown
    }

    @inline(__always) func append(_ b: UInt8) {
        reserve(1)
        base[count] = b
        count += 1
    }

    @inline(__always) func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).initialize(from: from, count: bytes.count)
        count += bytes.count
    }

    /// `,"key":` (without the comma unless `comma`), reserved once and stored in place.
    @inline(__always) func appendKey(_ k: StaticString, comma: Bool) {
        let n = k.utf8CodeUnitCount
        reserve(n + 4)
        var p = base + count
        if comma {
            p.pointee = UInt8(ascii: ",")
            p += 1
        }
        p.pointee = UInt8(ascii: "\"")
        p += 1
        if k.hasPointerRepresentation {
            p.initialize(from: k.utf8Start, count: n)
        } else {
            k.withUTF8Buffer { for (i, b) in $0.enumerated() where i < n { p[i] = b } }
        }
        p += n
        p[0] = UInt8(ascii: "\"")
        p[1] = UInt8(ascii: ":")
        count = p + 2 - base
    }

    /// A literal's bytes: read in place (a one-scalar literal may be stored as its scalar).
    @inline(__always) func append(_ s: StaticString) {
        if s.hasPointerRepresentation {
            append(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
        } else {
            s.withUTF8Buffer { append($0) }
        }
    }

    func append<S: Sequence>(contentsOf bytes: S) where S.Element == UInt8 {
        if let done = bytes.withContiguousStorageIfAvailable({ append($0) }) { return done }
        for b in bytes { append(b) }
    }
}
