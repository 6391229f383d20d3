/// Walks JPEG marker segments up to the start of scan and hands on APP1 Exif, APP1 XMP and the
/// SOF dimensions. Segments are walked here, not by libexif's loader, because that loader gives
/// up when other APP segments precede APP1 (as Huawei phones write) and reads only one APP1.
package enum JPEGReader {
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)

    package static func read(_ reader: BoundedReader) -> ContainerPayloads {
        var out = ContainerPayloads(format: .jpeg)
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
                let head = try reader.read(at: pos, count: 2)
                guard head[0] == 0xFF else {
                    out.note("jpeg", "expected a marker at offset \(pos), found 0x\(hex(head[0])); stopped")
                    break
                }
                let marker = head[1]
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
                let lengthBytes = try reader.read(at: pos, count: 2)
                let length = Int(lengthBytes[0]) << 8 | Int(lengthBytes[1])
                guard length >= 2 else {
                    out.note("jpeg", "segment 0xFF\(hex(marker)) at offset \(pos - 2) has length \(length) < 2; stopped")
                    break
                }
                let payloadStart = pos + 2
                let payloadLength = length - 2
                switch marker {
                case 0xE1:
                    readAPP1(reader, at: payloadStart, length: payloadLength, into: &out)
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
                    // A cut inside the image data is not detected: finding EOI would mean reading
                    // the whole image, and Motion Photos append a movie after EOI anyway.
                    if payloadStart + Int64(payloadLength) > reader.size {
                        out.truncated = true
                        out.note("jpeg", "start of scan header at offset \(pos - 2) runs past the end of the file")
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

    private static func readAPP1(_ reader: BoundedReader, at start: Int64, length: Int, into out: inout ContainerPayloads) {
        do throws(ReadFailure) {
            let sig = try reader.readAvailable(at: start, count: min(length, xmpSignature.count))
            if sig.hasPrefix(ExifHeader.prefix) {
                // A cut file still yields the IFDs that precede the cut.
                let payload = try reader.readAvailable(at: start, count: length)
                if payload.count < length {
                    out.truncated = true
                    out.note(
                        "jpeg",
                        "APP1 Exif at offset \(start) is cut short (\(payload.count) of \(length) bytes); decoding what is there")
                }
                out.setExif(payload, domain: "jpeg")
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
