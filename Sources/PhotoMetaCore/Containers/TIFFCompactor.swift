/// Rebuilds a TIFF file's metadata directories as one small TIFF stream that fits libexif's
/// 64 KiB window, for files whose IFDs or values lie further in (ImageMagick and libtiff
/// write IFD0 after the image data; Sony ARW's IFD0 points at a preview far away, and libexif
/// abandons the rest of an IFD at the first value past its window).
///
/// It relocates bytes and decodes nothing [TIFF 6.0 2, EXIF 2.32 4.6.2-4.6.3]: IFD0, the Exif,
/// GPS and Interoperability IFDs and IFD1 are copied entry by entry; a value longer than the
/// 4-byte field is copied into the new stream and its offset rewritten; the sub-IFD pointers
/// (0x8769, 0x8825, 0xA005) and IFD1's thumbnail (0x0201) are pointed at their copies. A value
/// that lies outside the file, or does not fit, is dropped with its entry, and so is IFD0's
/// JPEGInterchangeFormat pair (a raw's preview, not a thumbnail). Other values stay as the
/// file holds them (StripOffsets still count from the start of the file).
package enum TIFFCompactor {
    struct Entry {
        var tag: TIFFTag
        var type: Int
        var count: Int
        /// The 4-byte field as stored (a value, or an offset).
        var field: [UInt8]
        /// The out-of-line value, copied.
        var value: [UInt8]?
    }

    struct Directory {
        var entries: [Entry]
        var next: Int
    }

    /// Reads directories and copies their out-of-line values within the stream's budget.
    struct Copier {
        let reader: BoundedReader
        let codec: TIFFStructure
        /// Bytes left in libexif's window after the header.
        var budget = Limits.exifPayloadMax - 8

        init(_ reader: BoundedReader, _ codec: TIFFStructure) {
            self.reader = reader
            self.codec = codec
        }

        /// The directory at `at`, its entries of unknown type or impossible size left out.
        mutating func load(_ at: Int) -> Directory? {
            guard let d = codec.directory(reader, at: at) else { return nil }
            let typeSizes = TIFFStructure.typeSizes
            let entries: [Entry] = d.entries.compactMap { e in
                guard e.type >= 1, e.type < typeSizes.count else { return nil }
                let (size, overflow) = typeSizes[e.type].multipliedReportingOverflow(by: e.count)
                guard !overflow else { return nil }
                return Entry(tag: e.tag, type: e.type, count: e.count, field: e.field, value: size > 4 ? [] : nil)
            }
            budget -= 2 + 12 * entries.count + 4
            return Directory(entries: entries, next: d.next)
        }

        /// Copies the out-of-line values that fit; drops the entries whose values do not.
        mutating func fill(_ d: inout Directory, dropPreview: Bool, into out: inout ContainerFindings) {
            var kept: [Entry] = []
            for entry in d.entries {
                var e = entry
                if dropPreview, e.tag == .jpegInterchangeFormat || e.tag == .jpegInterchangeFormatLength { continue }
                guard e.value != nil else {
                    kept.append(e)
                    continue
                }
                let size = TIFFStructure.typeSizes[e.type] * e.count
                let at = codec.u32(e.field, 0)
                guard size <= budget, Int64(at) + Int64(size) <= reader.size,
                    let bytes = try? reader.read(at: Int64(at), count: size)
                else {
                    out.noteOnce("tiff", "compact drop", "TIFF values that do not fit libexif's window were left out")
                    continue
                }
                budget -= size + (size & 1)
                e.value = bytes
                kept.append(e)
            }
            d.entries = kept
        }

        /// A sub-IFD pointer or a thumbnail's offset or length: one LONG (or IFD) in the field.
        func pointer(_ d: Directory, _ tag: TIFFTag) -> Int? {
            guard let e = d.entries.first(where: { $0.tag == tag }), e.count == 1, e.type == 4 || e.type == 13 else {
                return nil
            }
            return codec.u32(e.field, 0)
        }
    }

    /// The compacted stream (TIFF header first), or nil when IFD0 cannot be read.
    package static func compact(
        _ reader: BoundedReader, littleEndian: Bool, ifd0 offset: Int, into out: inout ContainerFindings
    ) -> [UInt8]? {
        var copier = Copier(reader, TIFFStructure(littleEndian: littleEndian))
        guard var ifd0 = copier.load(offset) else { return nil }
        var exif = copier.pointer(ifd0, .exifIFDPointer).flatMap { copier.load($0) }
        var gps = copier.pointer(ifd0, .gpsIFDPointer).flatMap { copier.load($0) }
        var interop: Directory? = exif.flatMap { copier.pointer($0, .interoperabilityIFDPointer) }.flatMap { copier.load($0) }
        var ifd1 = ifd0.next > 0 ? copier.load(ifd0.next) : nil
        copier.fill(&ifd0, dropPreview: true, into: &out)
        if var d = exif {
            copier.fill(&d, dropPreview: false, into: &out)
            if interop == nil { d.entries.removeAll { $0.tag == .interoperabilityIFDPointer } }
            exif = d
        }
        if var d = gps {
            copier.fill(&d, dropPreview: false, into: &out)
            gps = d
        }
        if var d = interop {
            copier.fill(&d, dropPreview: false, into: &out)
            interop = d
        }
        // IFD1's thumbnail: copied when it fits, else IFD1 keeps its tags without it.
        var thumbnail: [UInt8]?
        if var d = ifd1 {
            copier.fill(&d, dropPreview: false, into: &out)
            if let at = copier.pointer(d, .jpegInterchangeFormat), let length = copier.pointer(d, .jpegInterchangeFormatLength),
                length > 0, length <= copier.budget, Int64(at) + Int64(length) <= reader.size,
                let bytes = try? reader.read(at: Int64(at), count: length)
            {
                thumbnail = bytes
            } else {
                d.entries.removeAll { $0.tag == .jpegInterchangeFormat || $0.tag == .jpegInterchangeFormatLength }
            }
            ifd1 = d
        }
        if exif == nil { ifd0.entries.removeAll { $0.tag == .exifIFDPointer } }
        if gps == nil { ifd0.entries.removeAll { $0.tag == .gpsIFDPointer } }

        return layout(
            codec: copier.codec, ifd0: ifd0, exif: exif, gps: gps, interop: interop, ifd1: ifd1, thumbnail: thumbnail)
    }

    /// The stream: each directory, then its values, in the order IFD0, Exif, GPS, Interop, IFD1,
    /// thumbnail; offsets are known once the sizes are.
    static func layout(
        codec: TIFFStructure, ifd0: Directory, exif: Directory?, gps: Directory?, interop: Directory?, ifd1: Directory?,
        thumbnail: [UInt8]?
    ) -> [UInt8] {
        func size(_ d: Directory) -> Int {
            2 + 12 * d.entries.count + 4 + d.entries.reduce(0) { $0 + (($1.value?.count ?? 0) + 1) & ~1 }
        }
        var position = 8
        let at0 = position
        position += size(ifd0)
        let atExif = exif.map { _ in position } ?? 0
        position += exif.map(size) ?? 0
        let atGPS = gps.map { _ in position } ?? 0
        position += gps.map(size) ?? 0
        let atInterop = interop.map { _ in position } ?? 0
        position += interop.map(size) ?? 0
        let at1 = ifd1.map { _ in position } ?? 0
        position += ifd1.map(size) ?? 0
        let atThumbnail = position

        func emit(_ d: Directory, at start: Int, next: Int, patch: [TIFFTag: Int]) -> [UInt8] {
            var table = codec.put16(d.entries.count)
            var data: [UInt8] = []
            let dataStart = start + 2 + 12 * d.entries.count + 4
            for e in d.entries {
                var field = e.field
                if let target = patch[e.tag] {
                    field = codec.put32(target)
                } else if let v = e.value {
                    field = codec.put32(dataStart + data.count)
                    data += v
                    if v.count & 1 == 1 { data.append(0) }
                }
                table += codec.put16(e.tag.number) + codec.put16(e.type) + codec.put32(e.count) + field
            }
            return table + codec.put32(next) + data
        }
        var stream: [UInt8] = codec.littleEndian ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A]
        stream += codec.put32(at0)
        stream += emit(ifd0, at: at0, next: at1, patch: [.exifIFDPointer: atExif, .gpsIFDPointer: atGPS])
        if let exif { stream += emit(exif, at: atExif, next: 0, patch: [.interoperabilityIFDPointer: atInterop]) }
        if let gps { stream += emit(gps, at: atGPS, next: 0, patch: [:]) }
        if let interop { stream += emit(interop, at: atInterop, next: 0, patch: [:]) }
        if let ifd1 { stream += emit(ifd1, at: at1, next: 0, patch: [.jpegInterchangeFormat: atThumbnail]) }
        if let thumbnail { stream += thumbnail }
        return stream
    }
}
