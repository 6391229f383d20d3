/// A cursor over an in-memory byte array with bounds-checked integer reads.
/// Every read returns nil instead of trapping when the data ends early.
package struct ByteReader {
    package let bytes: [UInt8]
    package private(set) var offset: Int
    package let end: Int

    package init(_ bytes: [UInt8], offset: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.offset = max(0, offset)
        self.end = min(bytes.count, max(0, end ?? bytes.count))
    }

    package var remaining: Int { max(0, end - offset) }
    package var isAtEnd: Bool { offset >= end }

    package mutating func skip(_ n: Int) -> Bool {
        guard n >= 0, n <= remaining else { return false }
        offset += n
        return true
    }

    package mutating func seek(_ n: Int) -> Bool {
        guard n >= 0, n <= end else { return false }
        offset = n
        return true
    }

    package mutating func u8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    package mutating func u16be() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    package mutating func u16le() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { offset += 2 }
        return UInt16(bytes[offset + 1]) << 8 | UInt16(bytes[offset])
    }

    package mutating func u24be() -> UInt32? {
        guard remaining >= 3 else { return nil }
        defer { offset += 3 }
        return UInt32(bytes[offset]) << 16 | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2])
    }

    package mutating func u24le() -> UInt32? {
        guard remaining >= 3 else { return nil }
        defer { offset += 3 }
        return UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset])
    }

    package mutating func u32be() -> UInt32? {
        guard remaining >= 4 else { return nil }
        defer { offset += 4 }
        var v: UInt32 = 0
        for i in 0..<4 { v = v << 8 | UInt32(bytes[offset + i]) }
        return v
    }

    package mutating func u32le() -> UInt32? {
        guard remaining >= 4 else { return nil }
        defer { offset += 4 }
        var v: UInt32 = 0
        for i in (0..<4).reversed() { v = v << 8 | UInt32(bytes[offset + i]) }
        return v
    }

    package mutating func u64be() -> UInt64? {
        guard remaining >= 8 else { return nil }
        defer { offset += 8 }
        var v: UInt64 = 0
        for i in 0..<8 { v = v << 8 | UInt64(bytes[offset + i]) }
        return v
    }

    /// Reads an unsigned big-endian integer of 0, 2, 4 or 8 bytes (ISO BMFF variable-size fields).
    package mutating func uintBE(size: Int) -> UInt64? {
        switch size {
        case 0: return 0
        case 2: return u16be().map(UInt64.init)
        case 4: return u32be().map(UInt64.init)
        case 8: return u64be()
        default: return nil
        }
    }

    package mutating func bytes(_ n: Int) -> [UInt8]? {
        guard n >= 0, n <= remaining else { return nil }
        defer { offset += n }
        return Array(bytes[offset..<offset + n])
    }

    package mutating func fourCC() -> String? {
        guard let b = bytes(4) else { return nil }
        return FourCC.string(b)
    }

    /// A NUL-terminated string (the NUL is consumed); nil when no NUL occurs before the end.
    package mutating func cString() -> String? {
        var i = offset
        while i < end, bytes[i] != 0 { i += 1 }
        guard i < end else { return nil }
        let s = String(decoding: bytes[offset..<i], as: UTF8.self)
        offset = i + 1
        return s
    }
}

package enum FourCC {
    /// The four bytes as text, with non-printable bytes shown as `?` so a report never carries
    /// control characters.
    package static func string(_ b: [UInt8]) -> String {
        // Written into the string's bytes (a string built of Characters cost ~1,300
        // instructions, and every box and trailer of every file asks).
        String(unsafeUninitializedCapacity: b.count) { out in
            for (i, byte) in b.enumerated() { out[i] = (byte >= 0x20 && byte < 0x7f) ? byte : UInt8(ascii: "?") }
            return b.count
        }
    }
}

extension Array where Element == UInt8 {
    /// True when the array starts with `prefix`.
    func hasPrefix(_ prefix: [UInt8]) -> Bool {
        count >= prefix.count && self[0..<prefix.count].elementsEqual(prefix)
    }

    /// True when `other` occurs at `offset`.
    func matches(_ other: [UInt8], at offset: Int) -> Bool {
        offset >= 0 && count - offset >= other.count && self[offset..<offset + other.count].elementsEqual(other)
    }
}
