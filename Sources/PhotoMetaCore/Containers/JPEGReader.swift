/// Walks JPEG marker segments up to the start of scan and hands on APP1 Exif, APP1 XMP and the
/// SOF dimensions. Segments are walked here, not by libexif's loader, because that loader gives
/// up when other APP segments precede APP1 (as Huawei phones write) and reads only one APP1.
package enum JPEGReader {
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)

    package static func read(_ reader: BoundedReader) -> ContainerFindings {
        var out = ContainerFindings(format: .jpeg)
        var pos: Int64 = 2  // after SOI
        var segments = 0
        var sawEOI = false
        do throws(ReadFailure) {
            while pos < reader.size {
                segments += 1
                if segments > Limits.structureCountMax {
                    out.note("jpeg", "more than \(Limits.structureCountMax) segments; stopped")
                    break
                }
                // [ISO 10918-1 B.1.1.2] A marker is 0xFF then a code; extra 0xFF are fill bytes.
                let (fill, marker) = try reader.readPair(at: pos)
                guard fill == 0xFF else {
                    out.note("jpeg", "expected a marker at offset \(pos), found 0x\(hex(fill)); stopped")
                    break
                }
                if marker == 0xFF {
                    pos += 1
                    continue
                }
                pos += 2
                // Markers without a length field [ISO 10918-1 B.1.1.3]: SOI, EOI, RSTn, TEM.
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
                if marker == 0xD9 {
                    sawEOI = true
                    break
                }
                let (high, low) = try reader.readPair(at: pos)
                let length = Int(high) << 8 | Int(low)
                guard length >= 2 else {
                    out.note("jpeg", "segment 0xFF\(hex(marker)) at offset \(pos - 2) has length \(length) < 2; stopped")
                    break
                }
                let payloadStart = pos + 2
                let payloadLength = length - 2
                switch marker {
                case 0xE1:
                    readAPP1(reader, at: payloadStart, length: payloadLength, into: &out)
                case 0xED where !out.dates.contains(where: { $0.source == .iptcDateCreated }):
                    // APP13: Photoshop's resources, with the IPTC record (a segment is at most
                    // 64 KiB: its own length bounds the read).
                    if let payload = try? reader.read(at: payloadStart, count: payloadLength),
                        let clue = PhotoshopResources.iptcDate(app13: payload)
                    {
                        out.dates.append(clue)
                    }
                case 0xE2 where out.previewHints.mpfTIFFOffset == nil && payloadLength > 12:
                    // [CIPA DC-007 5.2] APP2 "MPF\0", then a TIFF header: the index of the
                    // other images (previews) stored after this one.
                    if let sig = try? reader.read(at: payloadStart, count: 4), sig == Array("MPF\0".utf8) {
                        out.previewHints.mpfTIFFOffset = payloadStart + 4
                    }
                case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                    // [ISO 10918-1 B.2.2] SOFn: P(8) Y(16) X(16) Nf(8)...
                    let sof = try reader.read(at: payloadStart, count: min(5, payloadLength))
                    var r = ByteReader(sof)
                    _ = r.u8()
                    if let h = r.u16be(), let w = r.u16be(), out.width == nil {
                        out.width = Int(w)
                        out.height = Int(h)
                    }
                case 0xDA:
                    // Start of scan: entropy-coded data follows; metadata after it is not read.
                    if payloadStart + Int64(payloadLength) > reader.size {
                        out.truncated = true
                        out.note("jpeg", "start of scan header at offset \(pos - 2) runs past the end of the file")
                    } else {
                        checkEnd(reader, scanData: payloadStart + Int64(payloadLength), into: &out)
                        MotionPhotoLocator.locate(reader, into: &out)
                    }
                    return out
                default:
                    break
                }
                pos = payloadStart + Int64(payloadLength)
                if pos > reader.size {
                    out.truncated = true
                    out.note("jpeg", "segment 0xFF\(hex(marker)) runs past the end of the file")
                }
            }
            if !sawEOI, pos >= reader.size, !out.truncated {
                out.truncated = true
                out.note("jpeg", "the file ends before the start of scan (SOS)")
            }
        } catch {
            out.note("jpeg", error, while: "reading segment at offset \(pos)")
        }
        if out.width == nil {
            out.truncated = true
            out.note("jpeg", "no frame header (SOF) before the end of the file")
        }
        return out
    }

    /// [ISO 10918-1 B.2.1] A JPEG ends with EOI (FFD9). Inside entropy-coded data a 0xFF byte is
    /// always followed by 0x00 or a restart marker, so an FFD9 after the start of scan is the
    /// end of an image: a file cut while it is written has none there. Phones append data after
    /// EOI, which is allowed: Samsung's trailer, a Motion Photo's movie or an Ultra HDR gain map
    /// (`MotionPhotoLocator.appendedStarts` says where they begin), so the picture is complete
    /// when its EOI is right before one of them. Padding with 0x00 or 0xFF is allowed too. A few
    /// small reads near the end; the image data itself is never read.
    static func checkEnd(_ reader: BoundedReader, scanData: Int64, into out: inout ContainerFindings) {
        for start in MotionPhotoLocator.appendedStarts(reader, xmp: out.xmp) where start > scanData + 2 {
            if case .eoi = tailEnd(reader, from: scanData, to: start) { return }
        }
        switch tailEnd(reader, from: scanData, to: reader.size) {
        case .eoi:
            return
        case .eoiBefore(let extra, let after):
            // The XMP says what follows the image (a Motion Photo's movie, a gain map) and where
            // it begins, and no place it gives held the end of image (the loop above): what
            // follows the last EOI is that item begun and cut short, or an EOI by chance inside
            // its data, the image's own further back. A file being written. Else a trailer of
            // a kind not known here: complete, with a note.
            if let announced = MotionPhotoLocator.announcedTail(xmp: out.xmp),
                extra < announced || !MotionPhotoLocator.startsAppendedItem(reader, at: after)
            {
                out.truncated = true
                out.note(
                    "jpeg",
                    "the XMP announces \(announced) bytes after the end of image (EOI), which the file does not hold: the file is cut short (still being written?)"
                )
                return
            }
            out.note("jpeg", "\(extra) bytes after the end of image (EOI); an unknown trailer")
        case .failed(let failure):
            out.note("jpeg", failure, while: "reading the end of the file")
        case .none:
            out.truncated = true
            out.note("jpeg", "no end of image (EOI) at the end of the file: the file is cut short (still being written?)")
        case .tooShort:
            out.truncated = true
            out.note("jpeg", "no end of image (EOI) after the start of scan: the file is cut short")
        }
    }

    /// How much of the end of the file is looked at for the end of image.
    static let tailLength = 16 << 10
    /// What is looked at first: a complete file's EOI and padding nearly always fit in its
    /// last 512 bytes (no JPEG of ../shared/corpus pads more than 60 bytes after its EOI), and
    /// the whole `tailLength` is read only when they do not (the answer is the same: the padding
    /// is skipped from the end either way).
    static let shortTailLength = 512

    enum TailEnd {
        /// EOI right before `end` (padding aside).
        case eoi
        /// EOI earlier in the tail, this many bytes before `end`'s padding; `after`: the offset
        /// right after it.
        case eoiBefore(Int64, after: Int64)
        case none
        case tooShort
        case failed(ReadFailure)
    }

    /// Where the last EOI lies in the bytes before `end` (at most `tailLength` of them, after
    /// the start of scan).
    static func tailEnd(_ reader: BoundedReader, from scanData: Int64, to end: Int64) -> TailEnd {
        if end - scanData > Int64(shortTailLength),
            case .eoi = tailEnd(reader, from: scanData, to: end, length: shortTailLength)
        {
            return .eoi
        }
        return tailEnd(reader, from: scanData, to: end, length: tailLength)
    }

    static func tailEnd(_ reader: BoundedReader, from scanData: Int64, to end: Int64, length: Int) -> TailEnd {
        let from = max(scanData, end - Int64(length))
        guard end - from >= 2 else { return .tooShort }
        let tail: [UInt8]
        do throws(ReadFailure) {
            tail = try reader.read(at: from, count: Int(end - from))
        } catch {
            return .failed(error)
        }
        var last = tail.count
        while last > 0, tail[last - 1] == 0x00 || (tail[last - 1] == 0xFF && last >= 2 && tail[last - 2] != 0xFF) { last -= 1 }
        if last >= 2, tail[last - 2] == 0xFF, tail[last - 1] == 0xD9 { return .eoi }
        if let i = (0..<max(0, last - 1)).reversed().first(where: { tail[$0] == 0xFF && tail[$0 + 1] == 0xD9 }) {
            return .eoiBefore(Int64(last - i - 2), after: from + Int64(i + 2))
        }
        return .none
    }

    private static func readAPP1(_ reader: BoundedReader, at start: Int64, length: Int, into out: inout ContainerFindings) {
        do throws(ReadFailure) {
            let sig = try reader.readAvailable(at: start, count: min(length, xmpSignature.count))
            // "Exif\0\0" [EXIF 2.32 4.7.2]; some Kodak cameras write "Exif\0" and another byte
            // (exiftool reads them, "Incorrect EXIF segment identifier"): the TIFF header after
            // it says it is EXIF all the same.
            let kodak =
                sig.count >= 10 && sig.starts(with: ExifHeader.prefix.prefix(5)) && sig[5] != 0
                && ExifHeader.startsTIFF(sig[6...])
            if sig.hasPrefix(ExifHeader.prefix) || kodak {
                // A cut file still yields the IFDs that precede the cut.
                var payload = try reader.readAvailable(at: start, count: length)
                if kodak {
                    out.note("jpeg", "APP1 Exif identifier ends in 0x\(hex(payload[5])), not NUL; read as EXIF")
                    payload[5] = 0
                }
                if payload.count < length {
                    out.truncated = true
                    out.note(
                        "jpeg",
                        "APP1 Exif at offset \(start) is cut short (\(payload.count) of \(length) bytes); decoding what is there")
                }
                let hadExif = out.hasExif
                out.setExif(payload, domain: "jpeg")
                if !hadExif, out.hasExif { out.previewHints.exifTIFFOffset = start + Int64(ExifHeader.prefix.count) }
            } else if sig == xmpSignature {
                let body = try reader.read(at: start + Int64(xmpSignature.count), count: length - xmpSignature.count)
                out.addXMP(body, domain: "jpeg")
            }
        } catch {
            out.note("jpeg", error, while: "reading APP1 at offset \(start)")
        }
    }
}

func hex(_ b: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
}
