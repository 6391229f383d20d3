/// Walks the chunks of a RIFF WebP file [WebP container spec, "Extended File Format"]:
/// `VP8X` canvas size, `VP8 ` / `VP8L` frame sizes, `EXIF` and `XMP ` payloads, `ANIM`, and
/// the `ANMF` frames of an animation, counted from their chunk headers (a frame's data is never
/// read) within the chunk cap and the read budget: a walk stopped early, or a cut file, makes
/// the count a lower bound.
package enum WebPReader {
    package static func read(_ reader: BoundedReader) -> ContainerFindings {
        var out = ContainerFindings(format: .webp)
        var pos: Int64 = 12
        var chunks = 0
        var frames = 0
        var stoppedEarly = false
        do throws(ReadFailure) {
            let end = try RIFFForm.end(reader, domain: "webp", into: &out)
            while pos + 8 <= end {
                chunks += 1
                if chunks > Limits.structureCountMax {
                    out.note("webp", "more than \(Limits.structureCountMax) chunks; stopped")
                    stoppedEarly = true
                    break
                }
                var h = ByteReader(try reader.read(at: pos, count: 8))
                guard let type = h.fourCC(), let size32 = h.u32le() else { break }
                let size = Int(size32)
                let data = pos + 8
                if data + Int64(size) > reader.size {
                    out.truncated = true
                    out.note("webp", "chunk '\(type)' at offset \(pos) runs past the end of the file")
                }
                switch type {
                case "VP8X":
                    // flags(1) reserved(3) canvas width-1 (24 LE) canvas height-1 (24 LE).
                    var r = ByteReader(try reader.read(at: data, count: min(10, size)))
                    if let flags = r.u8(), r.skip(3), let w = r.u24le(), let hh = r.u24le() {
                        out.width = Int(w) + 1
                        out.height = Int(hh) + 1
                        out.animated = flags & 0x02 != 0
                    }
                case "VP8 ":
                    // [RFC 6386 9.1] 3-byte frame tag, start code 9d 01 2a, 14-bit width and height.
                    var r = ByteReader(try reader.read(at: data, count: min(10, size)))
                    if out.width == nil, r.skip(3), r.u8() == 0x9D, r.u8() == 0x01, r.u8() == 0x2A,
                        let w = r.u16le(), let hh = r.u16le()
                    {
                        out.width = Int(w & 0x3FFF)
                        out.height = Int(hh & 0x3FFF)
                    }
                case "VP8L":
                    // [WebP lossless 3.2] signature 0x2f, then 14 bits width-1, 14 bits height-1.
                    var r = ByteReader(try reader.read(at: data, count: min(5, size)))
                    if out.width == nil, r.u8() == 0x2F, let bits = r.u32le() {
                        out.width = Int(bits & 0x3FFF) + 1
                        out.height = Int((bits >> 14) & 0x3FFF) + 1
                    }
                case "EXIF":
                    // Some writers include "Exif\0\0", some start at the TIFF header: both accepted.
                    out.setExif(try reader.read(at: data, count: out.exifLength(size, domain: "webp")), domain: "webp")
                case "XMP ":
                    if size > Limits.xmpPayloadMax {
                        out.note("webp", "XMP chunk of \(size) bytes exceeds \(Limits.xmpPayloadMax); skipped")
                    } else {
                        out.addXMP(try reader.read(at: data, count: size), domain: "webp")
                    }
                case "ANIM":
                    out.animated = true
                case "ANMF":
                    // [WebP container spec, "Animation"] one chunk per frame.
                    frames += 1
                default:
                    break
                }
                // Chunks are padded to an even size.
                pos = data + Int64(size) + Int64(size & 1)
            }
        } catch {
            out.note("webp", error, while: "reading chunk at offset \(pos)")
            stoppedEarly = true
        }
        if frames > 0 {
            out.frameCount = frames
            out.frameCountIsLowerBound = stoppedEarly || out.truncated
        }
        return out
    }
}
