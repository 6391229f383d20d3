/// Walks a JPEG XL file [ISO/IEC 18181-2]: either a bare codestream (`FF 0A`), whose size is
/// read from its header and which holds no metadata, or the container: the `JXL ` signature
/// box, then ISO BMFF boxes [ISO/IEC 18181-2]: `Exif` (a 4-byte offset to the TIFF header,
/// then the TIFF stream), `xml ` (XMP), `jxlc` (the whole codestream) or `jxlp` (its parts,
/// each after a 4-byte index), and `brob` (another box, its 4-byte type then its body
/// compressed with Brotli, as `cjxl` stores Exif and XMP), decompressed through
/// `BrotliDecoder` into at most the size the box may have.
package enum JXLReader {
    /// [ISO/IEC 18181-2, JXL signature box] The signature box: size 12, type `JXL `, `0D 0A 87 0A`.
    package static let containerSignature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    package static func read(_ reader: BoundedReader) -> ContainerFindings {
        var out = ContainerFindings(format: .jxl)
        guard let head = try? reader.readAvailable(at: 0, count: JXLCodestream.headLength) else { return out }
        if head.hasPrefix(JXLCodestream.signature) {
            setSize(head, into: &out)
            return out
        }
        var sawCodestream = false
        var complete = false
        // The first `Exif` and the first `xml ` box (plain or compressed) are read; a file of a
        // hundred Brotli bombs costs one of each.
        var read: Set<String> = []
        let boxes = BoxWalker.children(reader, from: 0, to: reader.size, domain: "jxl", into: &out)
        for box in boxes {
            switch box.type {
            case "Exif", "xml ":
                guard read.insert(box.type).inserted else {
                    out.noteOnce("jxl", "more " + box.type, "more than one '\(box.type)' box; using the first")
                    continue
                }
                guard let body = BoxWalker.body(reader, box, domain: "jxl", into: &out) else { continue }
                keep(box.type, body, into: &out)
            case "brob":
                guard let head = try? reader.read(at: box.dataStart, count: 4) else { continue }
                let type = FourCC.string(head)
                guard type == "Exif" || type == "xml " else { continue }
                guard read.insert(type).inserted else {
                    out.noteOnce("jxl", "more " + type, "more than one '\(type)' box; using the first")
                    continue
                }
                guard let body = BoxWalker.body(reader, box, domain: "jxl", into: &out), body.count > 4 else { continue }
                decompress(type, Array(body[4...]), into: &out)
            case "jxlc", "jxlp":
                // [ISO/IEC 18181-2, jxlp] A `jxlp` starts with its 4-byte index, whose top bit
                // marks the last part; a `jxlc` is the whole codestream.
                let index = box.type == "jxlp" ? (try? reader.read(at: box.dataStart, count: 4)) : nil
                complete = box.type == "jxlc" || (index.map { $0[0] & 0x80 != 0 } ?? false)
                guard !sawCodestream else { continue }
                sawCodestream = true
                let skip: Int64 = box.type == "jxlp" ? 4 : 0
                let start = try? reader.readAvailable(
                    at: box.dataStart + skip, count: Int(min(Int64(JXLCodestream.headLength), max(0, box.dataLength - skip))))
                setSize(start ?? [], into: &out)
            default:
                break
            }
        }
        if !sawCodestream {
            out.truncated = true
            out.note("jxl", "no codestream box (jxlc or jxlp): the file is cut short")
        } else if !complete {
            out.truncated = true
            out.note("jxl", "the codestream's last part (a jxlp box marked last) is missing: the file is cut short")
        }
        if let last = boxes.last, last.end < reader.size {
            out.truncated = true
            out.note("jxl", "\(reader.size - last.end) bytes after the last box are not a whole box header")
        }
        return out
    }

    static func setSize(_ head: [UInt8], into out: inout ContainerFindings) {
        guard let (w, h) = JXLCodestream.size(head) else {
            out.note("jxl", "the codestream header cannot be read")
            if head.count < JXLCodestream.headLength { out.truncated = true }
            return
        }
        out.width = w
        out.height = h
        if let o = JXLCodestream.orientation(head) { out.evidence[.jxlCodestream] = FieldEvidence(orientation: o) }
    }

    /// [ISO/IEC 18181-2, brob] `brob`: the inner box's body is decompressed up to what such a
    /// box may hold (libexif's window for EXIF, the XMP and text limits for XMP).
    static func decompress(_ type: String, _ compressed: [UInt8], into out: inout ContainerFindings) {
        let limit = type == "Exif" ? 4 + ExifHeader.prefix.count + Limits.exifPayloadMax : min(Limits.xmpPayloadMax, out.textRoom)
        switch BrotliDecoder.decompress(compressed, limit: limit) {
        case .complete(let body):
            keep(type, body, into: &out)
        case .tooLarge(let prefix) where type == "Exif":
            out.note("jxl", "Brotli-compressed Exif box cut to \(limit) bytes (libexif's input limit)")
            keep(type, prefix, into: &out)
        case .tooLarge:
            out.spendText(limit)
            out.note("jxl", "Brotli-compressed XMP box over \(limit) bytes; skipped")
        case .corrupt:
            out.note("jxl", "Brotli-compressed '\(type)' box cannot be decompressed; skipped")
        }
    }

    /// An `Exif` body (its 4-byte offset to the TIFF header first [ISO/IEC 18181-2, Exif box]) or an
    /// `xml ` body (an XMP packet).
    static func keep(_ type: String, _ body: [UInt8], into out: inout ContainerFindings) {
        if type == "xml " {
            guard body.count <= Limits.xmpPayloadMax else {
                out.note("jxl", "XMP box of \(body.count) bytes exceeds \(Limits.xmpPayloadMax); skipped")
                return
            }
            out.addXMP(body, domain: "jxl")
            return
        }
        var r = ByteReader(body)
        guard let offset = r.u32be(), Int(offset) <= body.count - 4 else {
            out.note("jxl", "Exif box's TIFF header offset lies outside the box")
            return
        }
        let tiff = Array(body[(4 + Int(offset))...])
        out.setExif(Array(tiff.prefix(out.exifLength(tiff.count, domain: "jxl"))), domain: "jxl")
    }
}
