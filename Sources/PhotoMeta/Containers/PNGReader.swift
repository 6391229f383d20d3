/// Walks PNG chunks [PNG 1.2 5.3] to IEND, including metadata chunks written after IDAT, which
/// many tools append. Image data is never read, only chunk headers.
public enum PNGReader: ContainerReader {
    static let xmpKeyword = "XML:com.adobe.xmp"
    static let creationTimeKeyword = "Creation Time"

    public static func read(_ reader: BoundedReader) -> ContainerPayloads {
        var out = ContainerPayloads(format: .png)
        var pos: Int64 = 8
        var chunks = 0
        var sawIEND = false
        do throws(ReadFailure) {
            while pos + 8 <= reader.size {
                chunks += 1
                if chunks > Limits.structureCountMax {
                    out.note("png", "more than \(Limits.structureCountMax) chunks; stopped")
                    break
                }
                var h = ByteReader(try reader.read(at: pos, count: 8))
                guard let len32 = h.u32be(), let type = h.fourCC() else { break }
                // [PNG 1.2 5.3] length is at most 2^31-1.
                guard len32 <= 0x7FFF_FFFF else {
                    out.note("png", "chunk \(type) at offset \(pos) has invalid length \(len32); stopped")
                    break
                }
                let length = Int(len32)
                let dataStart = pos + 8
                if dataStart + Int64(length) + 4 > reader.size {
                    out.truncated = true
                    out.note("png", "chunk \(type) at offset \(pos) runs past the end of the file")
                }
                switch type {
                case "IHDR":
                    // [PNG 1.2 11.2.2] width, height (4 bytes each) first.
                    var r = ByteReader(try reader.read(at: dataStart, count: min(8, length)))
                    if let w = r.u32be(), let hgt = r.u32be() {
                        out.width = Int(w)
                        out.height = Int(hgt)
                    }
                case "eXIf":
                    // [PNG 3rd ed. 11.3.6] eXIf holds a TIFF stream without the "Exif\0\0" prefix.
                    out.setExif(try reader.read(at: dataStart, count: out.exifLength(length, domain: "png")), domain: "png")
                case "tEXt", "iTXt", "zTXt":
                    try readText(type, reader, at: dataStart, length: length, into: &out)
                case "IEND":
                    sawIEND = true
                default:
                    break
                }
                if sawIEND { break }
                pos = dataStart + Int64(length) + 4
            }
        } catch {
            out.note("png", error, while: "reading chunk at offset \(pos)")
        }
        if !sawIEND {
            out.truncated = true
            out.note("png", "no IEND chunk: the file is cut short")
        }
        return out
    }

    /// [PNG 1.2 11.3.4] tEXt: keyword NUL text (Latin-1). iTXt: keyword NUL flag method
    /// language NUL translated NUL text (UTF-8). zTXt is always compressed.
    private static func readText(_ type: String, _ reader: BoundedReader, at start: Int64, length: Int,
                                 into out: inout ContainerPayloads) throws(ReadFailure) {
        // The keyword is at most 79 bytes; peek at it before deciding to read the whole chunk.
        let peek = try reader.readAvailable(at: start, count: min(length, 80))
        guard let nul = peek.firstIndex(of: 0) else { return }
        let keyword = String(decoding: peek[0..<nul], as: UTF8.self)
        guard keyword == xmpKeyword || keyword == creationTimeKeyword else { return }
        let limit = keyword == xmpKeyword ? Limits.xmpPayloadMax : 1024
        guard length <= limit else {
            out.note("png", "\(type) '\(keyword)' of \(length) bytes exceeds \(limit); skipped")
            return
        }
        if type == "zTXt" {
            out.note("png", "compressed zTXt '\(keyword)' is not decoded")
            return
        }
        let data = try reader.read(at: start, count: length)
        var text: [UInt8]
        if type == "tEXt" {
            text = Array(data[(nul + 1)...])
            // Latin-1 to UTF-8.
            text = Array(String(text.map { Character(UnicodeScalar($0)) }).utf8)
        } else {
            var r = ByteReader(data, offset: nul + 1)
            guard let compressed = r.u8(), r.u8() != nil, r.cString() != nil, r.cString() != nil else {
                out.note("png", "malformed iTXt '\(keyword)'")
                return
            }
            if compressed != 0 {
                out.note("png", "compressed iTXt '\(keyword)' is not decoded")
                return
            }
            text = Array(data[r.offset...])
        }
        if keyword == xmpKeyword {
            out.xmp.append(text)
        } else if out.pngCreationTime == nil {
            out.pngCreationTime = String(decoding: text, as: UTF8.self)
        }
    }
}
