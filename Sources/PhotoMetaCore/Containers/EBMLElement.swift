/// One EBML element's header [RFC 8794 4, 5, 6]: the Element ID (a variable-size integer kept
/// with its marker bits, the way the specifications write IDs: `0x1A45DFA3`) and the size of
/// its data (a variable-size integer without its marker; all value bits set means unknown).
package struct EBMLElement: Sendable, Equatable {
    package var id: UInt32
    /// Bytes of the ID and the size together: the data starts this far after the element.
    package var headerLength: Int
    /// The data's size; nil when the element says its size is unknown [RFC 8794 6.2].
    package var size: UInt64?

    /// Why a header could not be decoded.
    package enum Problem: Error, Equatable {
        /// The bytes end inside the header.
        case cut
        /// An ID longer than 4 bytes or a size longer than 8 [RFC 8794 4.1, 5]: not EBML.
        case malformed
    }

    /// Decodes the header that starts at `at` in `bytes` and ends before `end`.
    package static func decode(_ bytes: [UInt8], at start: Int, end: Int) throws(Problem) -> EBMLElement {
        guard start >= 0, start < end, end <= bytes.count else { throw .cut }
        let idLength = try vintLength(bytes[start], max: 4)
        guard start + idLength < end else { throw .cut }
        var id: UInt32 = 0
        for b in bytes[start..<start + idLength] { id = id << 8 | UInt32(b) }
        let sizeStart = start + idLength
        let sizeLength = try vintLength(bytes[sizeStart], max: 8)
        guard sizeStart + sizeLength <= end else { throw .cut }
        // [RFC 8794 4.4] The marker bit is dropped from the value; every value bit set is the
        // reserved "unknown size" [RFC 8794 6.2].
        let valueBits = 7 * sizeLength
        var value = UInt64(bytes[sizeStart]) & ((1 << UInt64(8 - sizeLength)) - 1)
        for b in bytes[sizeStart + 1..<sizeStart + sizeLength] { value = value << 8 | UInt64(b) }
        let allOnes: UInt64 = (1 << UInt64(valueBits)) - 1
        return EBMLElement(id: id, headerLength: idLength + sizeLength, size: value == allOnes ? nil : value)
    }

    /// [RFC 8794 4.1] The length of a variable-size integer is one more than the count of
    /// leading zero bits of its first byte.
    static func vintLength(_ first: UInt8, max: Int) throws(Problem) -> Int {
        guard first != 0 else { throw .malformed }
        let n = first.leadingZeroBitCount + 1
        guard n <= max else { throw .malformed }
        return n
    }

    /// The most header bytes an element can have (a 4-byte ID and an 8-byte size).
    package static let maxHeaderLength = 12
}

/// The children of one master element held in memory [RFC 8794 6]: each child's ID and data,
/// each checked against the parent's end. After the walk, `problem` says whether it stopped
/// early (a child that runs past its parent, a malformed or unknown-size child, or more than
/// `Limits.structureCountMax` children).
package struct EBMLChildren {
    package let bytes: [UInt8]
    private var pos: Int
    private let end: Int
    private var count = 0
    package private(set) var problem: String?

    package init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.pos = max(0, start)
        self.end = min(bytes.count, end ?? bytes.count)
    }

    /// The next child: its ID and the range of its data in `bytes`.
    package mutating func next() -> (id: UInt32, data: Range<Int>)? {
        guard problem == nil, pos < end else { return nil }
        count += 1
        guard count <= Limits.structureCountMax else {
            problem = "more than \(Limits.structureCountMax) elements in one parent; stopped"
            return nil
        }
        let e: EBMLElement
        do throws(EBMLElement.Problem) {
            e = try EBMLElement.decode(bytes, at: pos, end: end)
        } catch {
            problem = error == .cut ? "an element header runs past its parent" : "a malformed element header"
            return nil
        }
        let dataStart = pos + e.headerLength
        guard let size = e.size else {
            problem = "element \(EBMLElement.hex(e.id)) has an unknown size inside a sized parent"
            return nil
        }
        guard size <= UInt64(end - dataStart) else {
            problem = "element \(EBMLElement.hex(e.id)) of \(size) bytes runs past its parent"
            return nil
        }
        pos = dataStart + Int(size)
        return (e.id, dataStart..<pos)
    }

    /// [RFC 8794 7.2] An unsigned integer of 0 to 8 bytes, big-endian (0 bytes is 0); nil for a
    /// longer one.
    package func unsigned(_ r: Range<Int>) -> UInt64? {
        guard r.count <= 8 else { return nil }
        return bytes[r].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// [RFC 8794 7.1] A signed integer of 1 to 8 bytes, two's complement, big-endian.
    package func signed(_ r: Range<Int>) -> Int64? {
        guard r.count >= 1, r.count <= 8, let u = unsigned(r) else { return nil }
        let shift = UInt64(64 - 8 * r.count)
        return Int64(bitPattern: u << shift) >> Int64(shift)
    }

    /// [RFC 8794 7.3] A float of 0, 4 or 8 bytes (IEEE 754, big-endian); nil for other sizes.
    package func float(_ r: Range<Int>) -> Double? {
        switch r.count {
        case 0: return 0
        case 4: return unsigned(r).map { Double(Float(bitPattern: UInt32(truncatingIfNeeded: $0))) }
        case 8: return unsigned(r).map { Double(bitPattern: $0) }
        default: return nil
        }
    }

    /// [RFC 8794 7.4, 7.5] A string (ASCII or UTF-8), ended early by a NUL, cleaned for reports.
    package func text(_ r: Range<Int>) -> String {
        Text.clean(String(decoding: bytes[r].prefix { $0 != 0 }, as: UTF8.self))
    }
}

extension EBMLElement {
    /// An ID as the specifications write it (`0x1549A966`), for diagnostics.
    package static func hex(_ id: UInt32) -> String {
        "0x" + String(id, radix: 16, uppercase: true)
    }
}
