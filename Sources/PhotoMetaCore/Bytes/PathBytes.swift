/// File names are bytes; Swift strings are Unicode. A name that is not valid UTF-8 (a Latin-1
/// `caf\xE9.jpg` from an old archive, a name made to confuse) must still be listed, opened,
/// inspected, suggested and watched, so photometa carries every path as a `String` in which
/// each byte that is not part of valid UTF-8 stands as one code point of a private block,
/// U+10FD80 + (byte − 0x80), the way Python's `surrogateescape` does it with lone surrogates
/// (which a Swift `String` cannot hold). `encode` gives the exact bytes back for every system
/// call; text output shows such a byte as `\xE9` (`TerminalText`), JSON as U+FFFD with the exact
/// bytes beside it in `pathBytes`.
///
/// (A real name could contain those private code points themselves; they are unassigned in
/// plane 16 and such a name is read as the bytes they stand for. No real file system is known to
/// hold one.)
package enum PathBytes {
    /// The first code point of the block that carries raw bytes 0x80...0xFF.
    static let base: UInt32 = 0x10_FD00

    /// The string for `bytes`: UTF-8 decoded where valid, each other byte kept as its stand-in.
    package static func decode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        // An ASCII name (nearly every one) is made from its bytes in place: the generic
        // validating initialiser cost ~2,000 instructions a name in a folder's listing.
        let ascii = bytes.withContiguousStorageIfAvailable { u -> String? in
            for b in u where b >= 0x80 { return nil }
            return String(decoding: u, as: UTF8.self)
        }
        if let ascii = ascii ?? nil { return ascii }
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        let b = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < b.count {
            if let (scalar, length) = utf8Scalar(b, at: i) {
                scalars.append(scalar)
                i += length
            } else {
                if let standIn = Unicode.Scalar(base + UInt32(b[i])) { scalars.append(standIn) }
                i += 1
            }
        }
        return String(scalars)
    }

    /// The exact bytes of a path made by `decode` (or of any string: plain UTF-8).
    package static func encode(_ s: String) -> [UInt8] {
        guard hasRawBytes(s) else { return Array(s.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            if let byte = rawByte(u) {
                out.append(byte)
            } else {
                out.append(contentsOf: String(u).utf8)
            }
        }
        return out
    }

    /// Calls `body` with the path as a NUL-terminated C string of its exact bytes.
    package static func withCPath<R>(_ path: String, _ body: (UnsafePointer<CChar>) -> R) -> R {
        if !hasRawBytes(path) { return path.withCString(body) }
        let bytes = encode(path).map { CChar(bitPattern: $0) } + [0]
        return bytes.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return "".withCString(body) }
            return body(base)
        }
    }

    /// The raw byte a stand-in code point carries, or nil.
    package static func rawByte(_ u: Unicode.Scalar) -> UInt8? {
        let v = u.value
        guard v >= base + 0x80, v <= base + 0xFF else { return nil }
        return UInt8(v - base)
    }

    /// True when the string carries raw bytes (its name was not valid UTF-8).
    package static func hasRawBytes(_ s: String) -> Bool {
        // Stand-ins are four-byte UTF-8 sequences starting with 0xF4. (Looked for in place when
        // the bytes are contiguous: every path passes here before each system call and report,
        // and a walk of the UTF-8 view cost ~1,000 instructions a path.)
        let mayHave = s.utf8.withContiguousStorageIfAvailable { u in
            for b in u where b == 0xF4 { return true }
            return false
        }
        guard mayHave ?? s.utf8.contains(0xF4) else { return false }
        return s.unicodeScalars.contains { rawByte($0) != nil }
    }

    /// The string with each raw byte shown as U+FFFD, the usual reading of invalid UTF-8.
    package static func lossy(_ s: String) -> String {
        guard hasRawBytes(s) else { return s }
        var scalars = String.UnicodeScalarView()
        for u in s.unicodeScalars { scalars.append(rawByte(u) == nil ? u : "\u{FFFD}") }
        return String(scalars)
    }

    /// The exact bytes in base64 [RFC 4648 4] (the report's `pathBytes`).
    package static func base64(_ s: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let b = encode(s)
        var out: [UInt8] = []
        out.reserveCapacity((b.count + 2) / 3 * 4)
        var i = 0
        while i < b.count {
            let n = min(3, b.count - i)
            let v = UInt32(b[i]) << 16 | (n > 1 ? UInt32(b[i + 1]) << 8 : 0) | (n > 2 ? UInt32(b[i + 2]) : 0)
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(n > 1 ? alphabet[Int(v >> 6 & 63)] : 0x3D)
            out.append(n > 2 ? alphabet[Int(v & 63)] : 0x3D)
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of base64 text, or nil when it is not base64.
    package static func fromBase64(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        for c in text.utf8 {
            switch c {
            case 0x41...0x5A: values.append(c - 0x41)
            case 0x61...0x7A: values.append(c - 0x61 + 26)
            case 0x30...0x39: values.append(c - 0x30 + 52)
            case 0x2B: values.append(62)
            case 0x2F: values.append(63)
            case 0x3D: continue
            default: return nil
            }
        }
        var out: [UInt8] = []
        var i = 0
        while i + 1 < values.count {
            let n = min(4, values.count - i)
            var v: UInt32 = 0
            for k in 0..<4 { v = v << 6 | (k < n ? UInt32(values[i + k]) : 0) }
            out.append(UInt8(v >> 16 & 0xFF))
            if n > 2 { out.append(UInt8(v >> 8 & 0xFF)) }
            if n > 3 { out.append(UInt8(v & 0xFF)) }
            i += 4
        }
        return out
    }

    /// One well-formed UTF-8 sequence at `i` [Unicode 15 3.9, Table 3-7], or nil.
    private static func utf8Scalar(_ b: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let b0 = b[i]
        if b0 < 0x80 { return (Unicode.Scalar(b0), 1) }
        let length: Int
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        guard let s = String(validating: b[i..<i + length], as: UTF8.self), let u = s.unicodeScalars.first,
            s.unicodeScalars.count == 1
        else { return nil }
        return (u, length)
    }
}
