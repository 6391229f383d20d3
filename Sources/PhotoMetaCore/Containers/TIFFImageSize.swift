/// The size of the picture a TIFF-based raw holds, which is not always IFD0's: NEF and DNG keep a
/// small preview in IFD0 and the full-resolution image in a SubIFD [TIFF 6.0 p.36
/// NewSubfileType; TIFF Technical Note 1 (SubIFDs, tag 0x014A); DNG 1.6 "IFD structure"]. libexif
/// does not follow SubIFDs, so this step walks the directories' structure (counts, tags, types
/// and the in-entry SHORT/LONG of three tags) the way `HEIFReader` reads `ispe`; every other
/// value stays libexif's to decode.
package enum TIFFImageSize {
    /// At most this many SubIFDs are looked at (DNG writes 1 to 3, NEF 2).
    static let subIFDsMax = 16

    /// One directory's image: NewSubfileType (0 when absent), width and height.
    struct Image {
        var subfileType: Int
        var width: Int
        var height: Int
        var subIFDs: [Int]
        /// JPEGInterchangeFormat / JPEGInterchangeFormatLength (0x0201/0x0202): a JPEG
        /// thumbnail or preview stored whole [TIFF 6.0 p.105; EXIF 2.32 4.6.5].
        var jpegOffset = 0
        var jpegLength = 0
        /// The next IFD's offset (IFD1 after IFD0), 0 for none.
        var next = 0
    }

    /// The full-resolution image's size when IFD0 points at SubIFDs: the largest image whose
    /// NewSubfileType says it is not a reduced-resolution copy (bit 0 clear), among IFD0 and its
    /// SubIFDs. Nil when there are no SubIFDs (IFD0's own size, which libexif reads, stands) or
    /// none qualifies.
    package static func fullResolution(_ reader: BoundedReader, littleEndian: Bool, ifd0: Int) -> (width: Int, height: Int)? {
        guard let root = image(reader, littleEndian, at: ifd0), !root.subIFDs.isEmpty else { return nil }
        var images = [root]
        for at in root.subIFDs.prefix(subIFDsMax) {
            if let i = image(reader, littleEndian, at: at) { images.append(i) }
        }
        let full = images.filter { $0.subfileType & 1 == 0 && $0.width > 0 && $0.height > 0 }
        guard
            let best = full.max(by: {
                $0.width.multipliedReportingOverflow(by: $0.height).partialValue
                    < $1.width.multipliedReportingOverflow(by: $1.height).partialValue
            })
        else {
            return nil
        }
        return (best.width, best.height)
    }

    /// Reads one IFD's entry table [TIFF 6.0 p.14: count, 12-byte entries, next offset].
    static func image(_ reader: BoundedReader, _ little: Bool, at offset: Int) -> Image? {
        let codec = TIFFCompactor.Codec(little: little)
        guard offset >= 8, Int64(offset) + 2 <= reader.size, let head = try? reader.read(at: Int64(offset), count: 2)
        else { return nil }
        let n = codec.u16(head, 0)
        guard n > 0, n <= TIFFCompactor.entriesMax,
            let table = try? reader.readAvailable(at: Int64(offset) + 2, count: 12 * n + 4), table.count >= 12 * n
        else { return nil }
        var result = Image(subfileType: 0, width: 0, height: 0, subIFDs: [])
        if table.count >= 12 * n + 4 { result.next = codec.u32(table, 12 * n) }
        for i in 0..<n {
            let e = 12 * i
            let tag = codec.u16(table, e)
            let type = codec.u16(table, e + 2)
            let count = codec.u32(table, e + 4)
            // SHORT (3) sits in the first two bytes of the field, LONG (4) and IFD (13) fill it.
            let inline: Int? =
                count != 1
                ? nil : type == 3 ? codec.u16(table, e + 8) : type == 4 || type == 13 ? codec.u32(table, e + 8) : nil
            switch tag {
            case 0x00FE: result.subfileType = inline ?? 0
            case 0x0100: result.width = inline ?? 0
            case 0x0101: result.height = inline ?? 0
            case 0x0201: result.jpegOffset = inline ?? 0
            case 0x0202: result.jpegLength = inline ?? 0
            case 0x014A where type == 4 || type == 13:
                if count == 1 {
                    result.subIFDs = [codec.u32(table, e + 8)]
                } else if count > 1 {
                    // More than one offset: the field points at an array of LONGs.
                    let k = min(count, subIFDsMax)
                    if let list = try? reader.read(at: Int64(codec.u32(table, e + 8)), count: 4 * k) {
                        result.subIFDs = (0..<k).map { codec.u32(list, 4 * $0) }
                    }
                }
            default: break
            }
        }
        return result
    }
}
