/// Canon CR3's EXIF, in a box of Canon's own inside `moov` (`QuickTimeReader` hands it here).
extension QuickTimeReader {
    /// Canon's CR3 metadata box, `moov/uuid` 85c0b687-820f-11e0-8111-f4ce462b6a48 (Canon's own
    /// layout, as exiftool's Canon CR3 tables and the lclevy/canon_cr3 notes describe it): boxes
    /// CNCV, CCTP, CTBO, then CMT1 (a TIFF stream: IFD0), CMT2 (the Exif IFD as a TIFF stream),
    /// CMT3 (the maker note) and CMT4 (the GPS IFD), then THMB. The streams are handed on
    /// whole, for libexif; the maker note is not read.
    static let canonMetadataUUID: [UInt8] = [
        0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
    ]

    static func readCanonMetadata(_ reader: BoundedReader, _ box: BoxHeader, out: inout ContainerFindings) {
        guard box.dataStart - box.start >= 24,
            let id = try? reader.readAvailable(at: box.dataStart - 16, count: 16), id == canonMetadataUUID
        else { return }
        for child in BoxWalker.children(reader, from: box.dataStart, to: box.end, domain: "cr3", into: &out) {
            guard child.type == "CMT1" || child.type == "CMT2" || child.type == "CMT4" else { continue }
            guard child.dataLength <= Int64(Limits.exifPayloadMax) else {
                out.note("cr3", "\(child.type) of \(child.dataLength) bytes exceeds libexif's input limit; skipped")
                continue
            }
            guard let stream = BoxWalker.body(reader, child, domain: "cr3", into: &out) else { continue }
            guard ExifHeader.startsTIFF(stream) else {
                out.note("cr3", "\(child.type) does not start with a TIFF header; ignored")
                continue
            }
            switch child.type {
            case "CMT1": out.setExif(stream, domain: "cr3")
            case "CMT2": out.addExifStream(stream, startingAt: .exif)
            default: out.addExifStream(stream, startingAt: .gps)
            }
        }
    }
}
