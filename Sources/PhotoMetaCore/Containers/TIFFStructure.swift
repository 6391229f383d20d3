/// The structure of a TIFF stream [TIFF 6.0 2]: its byte order, the header's IFD0 offset, and
/// directories (IFDs) as entry tables. The one reader of TIFF integers and directories for
/// the steps that walk TIFF structure themselves (`TIFFReader`, `TIFFCompactor`,
/// `TIFFImageSize`, `PreviewFinder`); values are libexif's to decode, so nothing here reads
/// more than the integers that locate things.
package struct TIFFStructure: Sendable {
    /// Bytes per component of TIFF field types 1...13 [TIFF 6.0 2, TIFF Technical Note 1].
    static let typeSizes: [Int] = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4]
    /// At most this many entries in one directory are read (real files have a few dozen).
    static let entriesMax = 1024

    /// One 12-byte directory entry: tag, type, count and the 4-byte field as stored (the value
    /// itself when it fits, else its offset).
    struct Entry: Sendable, Equatable {
        var tag: TIFFTag
        var type: Int
        var count: Int
        var field: [UInt8]
    }

    /// A directory: its entries in file order and the next directory's offset (0: none).
    struct Directory: Sendable {
        var entries: [Entry]
        var next: Int
    }

    /// "II" (Intel) or "MM" (Motorola) [TIFF 6.0 2, Image File Header].
    let littleEndian: Bool

    /// The byte order and IFD0's offset from a TIFF header ("II*\0" / "MM\0*", then a u32).
    static func header(_ head: [UInt8]) -> (structure: TIFFStructure, ifd0: Int)? {
        guard head.count >= 8 else { return nil }
        let s = TIFFStructure(littleEndian: head[0] == 0x49)
        return (s, s.u32(head, 4))
    }

    /// [TIFF 6.0 2, IFD] The directory at `offset`: a 2-byte entry count (1...`entriesMax`),
    /// 12-byte entries and a 4-byte next offset. Nil when the count or the entries cannot be
    /// read; a missing next offset (a cut file) reads as 0.
    func directory(_ reader: BoundedReader, at offset: Int) -> Directory? {
        guard offset >= 8, Int64(offset) + 2 <= reader.size, let head = try? reader.read(at: Int64(offset), count: 2)
        else { return nil }
        let n = u16(head, 0)
        guard n > 0, n <= Self.entriesMax,
            let table = try? reader.readAvailable(at: Int64(offset) + 2, count: 12 * n + 4), table.count >= 12 * n
        else { return nil }
        let entries = (0..<n).map { i in
            let e = 12 * i
            return Entry(
                tag: TIFFTag(u16(table, e)), type: u16(table, e + 2), count: u32(table, e + 4),
                field: Array(table[(e + 8)..<(e + 12)]))
        }
        return Directory(entries: entries, next: table.count >= 12 * n + 4 ? u32(table, 12 * n) : 0)
    }

    /// An entry's single integer stored in its field: SHORT (3) in the first two bytes, LONG
    /// (4) and IFD (13) filling it; nil for other types or counts.
    func inline(_ e: Entry) -> Int? {
        guard e.count == 1 else { return nil }
        switch e.type {
        case 3: return u16(e.field, 0)
        case 4, 13: return u32(e.field, 0)
        default: return nil
        }
    }

    /// The field read as a LONG: a value's offset, or an IFD pointer.
    func offset(_ e: Entry) -> Int { u32(e.field, 0) }

    /// An unsigned 16-bit integer at `at`; the caller has checked that `b` holds it.
    func u16(_ b: [UInt8], _ at: Int) -> Int {
        littleEndian ? Int(b[at]) | Int(b[at + 1]) << 8 : Int(b[at]) << 8 | Int(b[at + 1])
    }

    /// An unsigned 32-bit integer at `at`; the caller has checked that `b` holds it.
    func u32(_ b: [UInt8], _ at: Int) -> Int {
        littleEndian
            ? Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24
            : Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }

    func put16(_ v: Int) -> [UInt8] {
        let a = UInt8(truncatingIfNeeded: v)
        let b = UInt8(truncatingIfNeeded: v >> 8)
        return littleEndian ? [a, b] : [b, a]
    }

    func put32(_ v: Int) -> [UInt8] {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
        return littleEndian ? bytes : bytes.reversed()
    }
}
