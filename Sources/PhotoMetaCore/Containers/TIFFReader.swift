/// TIFF, DNG and TIFF-based raw files: the file itself is the EXIF payload [TIFF 6.0 2].
/// A file that fits libexif's 64 KiB window is handed over whole; a larger one goes through
/// `TIFFCompactor`, which copies its directories and their values into a stream that fits
/// (writers that put the image data first, raws with far previews).
package enum TIFFReader {
    package static func read(_ reader: BoundedReader, format: MediaFormat = .tiff) -> ContainerFindings {
        var out = ContainerFindings(format: format)
        out.exifOffsetsAreFileOffsets = true
        do throws(ReadFailure) {
            var bytes = try reader.readAvailable(at: 0, count: Limits.exifPayloadMax)
            guard bytes.count >= 8 else {
                out.truncated = true
                out.note("tiff", "file ends inside the TIFF header")
                return out
            }
            // Panasonic RW2 ("IIU\0") and Olympus ORF ("IIRO", "IIRS", "MMOR") keep the TIFF
            // layout under a vendor magic number; libexif only accepts 0x2A.
            let littleEndian = bytes[0] == 0x49
            if littleEndian {
                bytes[2] = 0x2A
                bytes[3] = 0x00
            } else {
                bytes[2] = 0x00
                bytes[3] = 0x2A
            }
            let ifd0 = TIFFStructure.header(bytes)?.ifd0 ?? 0
            readXMP(reader, TIFFStructure(littleEndian: littleEndian), ifd0: ifd0, into: &out)
            if let full = TIFFImageSize.pictureSize(reader, format: format, littleEndian: littleEndian, ifd0: ifd0) {
                out.width = full.width
                out.height = full.height
            }
            if reader.size > Int64(Limits.exifPayloadMax) {
                // Directories or values may lie past libexif's window: hand it a compacted
                // copy of the metadata instead of the file's first 64 KiB.
                if let head = try? reader.read(at: Int64(ifd0), count: 2) {
                    let n = TIFFStructure(littleEndian: littleEndian).u16(head, 0)
                    if Int64(ifd0) + 2 + 12 * Int64(n) + 4 > reader.size {
                        out.truncated = true
                        out.note("tiff", "IFD0's \(n) entries run past the end of the file")
                    }
                } else {
                    out.truncated = true
                    out.note("tiff", "IFD0 at offset \(ifd0) lies past the end of the file")
                }
                if let stream = TIFFCompactor.compact(reader, littleEndian: littleEndian, ifd0: ifd0, into: &out) {
                    out.setExif(stream, domain: "tiff")
                } else if !out.truncated {
                    out.note("tiff", "IFD0 at offset \(ifd0) cannot be read")
                }
                return out
            }
            // [TIFF 6.0 2] IFD0 is a 2-byte entry count, 12-byte entries and a 4-byte next
            // offset; a file cut before its end has lost tags. (The entries themselves are
            // decoded by libexif, which also reports where the image data ends.)
            var c = ByteReader(bytes, offset: ifd0)
            if let n = littleEndian ? c.u16le() : c.u16be() {
                let tableEnd = Int64(ifd0) + 2 + 12 * Int64(n) + 4
                if tableEnd > reader.size {
                    out.truncated = true
                    out.note("tiff", "IFD0's \(n) entries run past the end of the file")
                }
            } else {
                out.truncated = true
                out.note("tiff", "IFD0 at offset \(ifd0) lies past the end of the file")
            }
            out.setExif(bytes, domain: "tiff")
        } catch {
            out.note("tiff", error, while: "reading header")
        }
        return out
    }

    /// [XMP Part 3 1.2.5, TIFF] The XMP packet of a TIFF (scanners, Photoshop, Lightroom's
    /// TIFF and DNG exports): IFD0's tag 700 (XMLPacket), BYTE or UNDEFINED, its value the
    /// packet. libexif does not hand it over, so the directory entry is found here and the
    /// bytes it points to are read as they are.
    static func readXMP(_ reader: BoundedReader, _ tiff: TIFFStructure, ifd0: Int, into out: inout ContainerFindings) {
        guard let directory = tiff.directory(reader, at: ifd0),
            let entry = directory.entries.first(where: { $0.tag == xmlPacket }), entry.type == 1 || entry.type == 7,
            entry.count > 4, entry.count <= Limits.xmpPayloadMax
        else { return }
        do throws(ReadFailure) {
            let packet = try reader.read(at: Int64(tiff.offset(entry)), count: entry.count)
            guard packet.count == entry.count else {
                out.note("tiff", "the XMP packet (tag 700) runs past the end of the file; ignored")
                return
            }
            out.addXMP(packet, domain: "tiff")
        } catch {
            out.note("tiff", error, while: "reading the XMP packet (tag 700)")
        }
    }

    /// [TIFF Technical Note / XMP Part 3] XMLPacket.
    static let xmlPacket = TIFFTag(700)
}
