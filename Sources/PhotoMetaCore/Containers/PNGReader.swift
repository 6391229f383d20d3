/// Walks PNG chunks [PNG 1.2 5.3] to IEND, including metadata chunks written after IDAT, which
/// many tools append. Image data is never read, only chunk headers.
package enum PNGReader {
    static let xmpKeyword = "XML:com.adobe.xmp"
    static let creationTimeKeyword = "Creation Time"
    /// [PNG 1.2 11.3.4.2] "Software used to create the image": screenshot tools name
    /// themselves here (`ScreenshotSoftware`).
    static let softwareKeyword = "Software"
    /// ImageMagick's (and exiv2's) EXIF in a text chunk, written before eXIf existed.
    static let rawExifKeywords: Set<String> = ["Raw profile type exif", "Raw profile type APP1"]

    /// ImageMagick raw profile text: "\n" name "\n" length (decimal, space padded) "\n", then
    /// `length` bytes as hex digits broken into lines. The length is checked against the text
    /// before anything is allocated.
    static func rawProfile(_ text: [UInt8]) -> [UInt8]? {
        var r = ByteReader(text)
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        while lines.count < 2, let c = r.u8() {
            if c == 0x0A {
                if !current.isEmpty { lines.append(current) }
                current = []
            } else {
                current.append(c)
            }
        }
        guard lines.count == 2,
            let length = Int(String(decoding: lines[1].filter { $0 != 0x20 && $0 != 0x09 }, as: UTF8.self)),
            length > 0, length <= r.remaining / 2
        else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        var high: UInt8?
        while bytes.count < length, let c = r.u8() {
            let v: UInt8
            switch c {
            case 0x30...0x39: v = c - 0x30
            case 0x61...0x66: v = c - 0x61 + 10
            case 0x41...0x46: v = c - 0x41 + 10
            case 0x0A, 0x0D, 0x20, 0x09: continue
            default: return nil
            }
            if let h = high {
                bytes.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        return bytes.count == length ? bytes : nil
    }

    package static func read(_ reader: BoundedReader) -> ContainerFindings {
        var out = ContainerFindings(format: .png)
        var sawIEND = false
        var sawIDAT = false
        var at: Int64 = 8
        do throws(ReadFailure) {
            let end = try PNGChunks.walk(reader, limit: Limits.structureCountMax) { chunk throws(ReadFailure) in
                at = chunk.offset
                if chunk.next > reader.size {
                    out.truncated = true
                    out.note("png", "chunk \(chunk.type) at offset \(chunk.offset) runs past the end of the file")
                }
                if chunk.type == "acTL", !sawIDAT {
                    try readAnimationControl(chunk, reader, into: &out)
                }
                sawIDAT = sawIDAT || chunk.type == "IDAT"
                try readChunk(chunk, reader, into: &out)
                sawIEND = chunk.type == "IEND"
                at = chunk.next
                return !sawIEND
            }
            switch end {
            case .tooManyChunks: out.note("png", "more than \(Limits.structureCountMax) chunks; stopped")
            case .invalidLength(let type, let offset, let length):
                out.note("png", "chunk \(type) at offset \(offset) has invalid length \(length); stopped")
            case .endOfData, .stopped: break
            }
        } catch {
            out.note("png", error, while: "reading chunk at offset \(at)")
        }
        if !sawIEND {
            out.truncated = true
            out.note("png", "no IEND chunk: the file is cut short")
        }
        return out
    }

    /// [APNG 1.0, "acTL"] An animated PNG states its frame count (`num_frames`, then
    /// `num_plays`) in an `acTL` before the first `IDAT`; one after it does not count (the
    /// file is a still PNG to a decoder), nor one that states no frames.
    static func readAnimationControl(_ chunk: PNGChunks.Chunk, _ reader: BoundedReader, into out: inout ContainerFindings)
        throws(ReadFailure)
    {
        guard out.animated == nil else { return }
        var r = ByteReader(try reader.read(at: chunk.dataStart, count: min(8, chunk.length)))
        guard chunk.length == 8, let frames = r.u32be(), frames > 0 else {
            out.note("png", "acTL of \(chunk.length) bytes states no frames; ignored")
            return
        }
        out.animated = true
        out.frameCount = Int(frames)
    }

    /// The chunks that hold metadata or the size; image data is never read.
    static func readChunk(_ chunk: PNGChunks.Chunk, _ reader: BoundedReader, into out: inout ContainerFindings)
        throws(ReadFailure)
    {
        switch chunk.type {
        case "IHDR":
            // [PNG 1.2 11.2.2] width, height (4 bytes each) first.
            var r = ByteReader(try reader.read(at: chunk.dataStart, count: min(8, chunk.length)))
            if let w = r.u32be(), let hgt = r.u32be() {
                out.width = Int(w)
                out.height = Int(hgt)
            }
        case "eXIf":
            // [PNG 3rd ed. 11.3.6] eXIf holds a TIFF stream without the "Exif\0\0" prefix.
            let length = out.exifLength(chunk.length, domain: "png")
            out.setExif(try reader.read(at: chunk.dataStart, count: length), domain: "png")
        case "tEXt", "iTXt", "zTXt":
            try readText(chunk.type, reader, at: chunk.dataStart, length: chunk.length, into: &out)
        default:
            break
        }
    }

    /// [PNG 1.2 11.3.4] tEXt: keyword NUL text (Latin-1). zTXt: keyword NUL method, then the
    /// text (Latin-1) as a zlib stream. iTXt: keyword NUL flag method language NUL translated
    /// NUL text (UTF-8), a zlib stream when the flag is 1. Compressed text is inflated up to the
    /// same limit as plain text, so a small chunk cannot expand without bound.
    private static func readText(
        _ type: String, _ reader: BoundedReader, at start: Int64, length: Int,
        into out: inout ContainerFindings
    ) throws(ReadFailure) {
        // The keyword is at most 79 bytes; peek at it before deciding to read the whole chunk.
        let peek = try reader.readAvailable(at: start, count: min(length, 80))
        guard let nul = peek.firstIndex(of: 0) else { return }
        let keyword = String(decoding: peek[0..<nul], as: UTF8.self)
        let isRawExif = rawExifKeywords.contains(keyword)
        guard keyword == xmpKeyword || keyword == creationTimeKeyword || keyword == softwareKeyword || isRawExif else {
            return
        }
        let limit = keyword == xmpKeyword ? Limits.xmpPayloadMax : isRawExif ? 2 * Limits.exifPayloadMax + 1024 : 1024
        guard length <= limit else {
            out.note("png", "\(type) '\(keyword)' of \(length) bytes exceeds \(limit); skipped")
            return
        }
        let data = try reader.read(at: start, count: length)
        var text: [UInt8]
        var wasInflated = false
        if type == "tEXt" || type == "zTXt" {
            if type == "zTXt" {
                guard nul + 2 <= data.count, let inflated = inflate(data[(nul + 2)...], type, keyword, limit, &out) else {
                    return
                }
                text = inflated
                wasInflated = true
            } else {
                text = Array(data[(nul + 1)...])
            }
            // Latin-1 to UTF-8.
            text = Array(String(text.map { Character(UnicodeScalar($0)) }).utf8)
        } else {
            var r = ByteReader(data, offset: nul + 1)
            guard let compressed = r.u8(), r.u8() != nil, r.cString() != nil, r.cString() != nil else {
                out.note("png", "malformed iTXt '\(keyword)'")
                return
            }
            if compressed != 0 {
                guard let inflated = inflate(data[r.offset...], type, keyword, limit, &out) else { return }
                text = inflated
                wasInflated = true
            } else {
                text = Array(data[r.offset...])
            }
        }
        if isRawExif {
            guard let exif = rawProfile(text) else {
                out.note("png", "\(type) '\(keyword)' is not a hex raw profile; ignored")
                return
            }
            out.setExif(Array(exif.prefix(Limits.exifPayloadMax + ExifHeader.prefix.count)), domain: "png")
        } else if keyword == xmpKeyword {
            // Inflated text was counted when it was inflated; plain text is counted here.
            out.addXMP(text, domain: "png", counted: !wasInflated)
        } else if keyword == softwareKeyword {
            // The first one counts, as for `Creation Time`.
            let name = Text.clean(String(decoding: text, as: UTF8.self))
            if out.evidence[.pngText]?.software == nil, !name.isEmpty {
                out.evidence[.pngText, default: FieldEvidence()].software = name
            }
        } else if !out.dates.contains(where: { $0.source == .pngCreationTime }) {
            out.dates.append(DateClue(.pngCreationTime, .text(String(decoding: text, as: UTF8.self), .freeform)))
        }
    }

    /// Inflates a compressed text, noting why when it cannot.
    private static func inflate(
        _ compressed: ArraySlice<UInt8>, _ type: String, _ keyword: String, _ limit: Int,
        _ out: inout ContainerFindings
    ) -> [UInt8]? {
        // Each chunk may inflate to its own limit, and all of a file's chunks together to what
        // is left of the per-file text budget.
        let room = min(limit, out.textRoom)
        guard room > 0 else {
            out.noteOnce(
                "png", "text budget",
                "\(type) '\(keyword)' and later compressed text not inflated: the \(Limits.expandedTextMax)-byte text budget of the file is spent"
            )
            return nil
        }
        switch Inflater.inflate(compressed, limit: room) {
        case .complete(let bytes):
            out.spendText(bytes.count)
            return bytes
        case .tooLarge:
            out.spendText(room)
            out.note("png", "\(type) '\(keyword)' inflates to more than \(room) bytes; skipped")
        case .corrupt:
            out.note("png", "\(type) '\(keyword)' is not a valid zlib stream; skipped")
        }
        return nil
    }
}
