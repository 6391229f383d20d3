/// Minolta / Konica Minolta MRW raws (Minolta's layout, as exiftool's MinoltaRaw table and
/// dcraw read it; big-endian): "\0MRM", a u32 length of the block area, then blocks of a
/// four-byte id ("\0PRD", "\0TTW", "\0WBG", "\0RIF"), a u32 length and the data. `PRD` holds
/// the sensor and image sizes; `TTW` is a whole TIFF stream (IFD0, Exif IFD), handed to
/// libexif. The sensor data after the blocks is never read.
package enum MRWReader {
    static let magic: [UInt8] = [0x00, 0x4D, 0x52, 0x4D]

    package static func read(_ reader: BoundedReader) -> ContainerFindings {
        var out = ContainerFindings(format: .mrw)
        do throws(ReadFailure) {
            var h = ByteReader(try reader.read(at: 4, count: 4))
            let areaEnd = Int64(h.u32be() ?? 0) + 8
            if areaEnd > reader.size {
                out.truncated = true
                out.note("mrw", "block area of \(areaEnd - 8) bytes runs past the end of the file")
            }
            let end = min(areaEnd, reader.size)
            var pos: Int64 = 8
            var blocks = 0
            while pos + 8 <= end {
                blocks += 1
                if blocks > Limits.structureCountMax {
                    out.note("mrw", "more than \(Limits.structureCountMax) blocks; stopped")
                    break
                }
                var b = ByteReader(try reader.read(at: pos, count: 8))
                guard let id = b.fourCC(), let length32 = b.u32be() else { break }
                let data = pos + 8
                let length = Int64(length32)
                if data + length > end {
                    out.truncated = true
                    out.note("mrw", "block '\(id.dropFirst())' at offset \(pos) runs past the end of the block area")
                }
                let available = max(0, min(length, end - data))
                switch id.dropFirst() {
                case "PRD" where available >= 16:
                    // version (8 bytes), sensor height, sensor width, image height, image width.
                    var r = ByteReader(try reader.read(at: data + 12, count: 4))
                    if let height = r.u16be(), let width = r.u16be(), width > 0, height > 0 {
                        out.width = Int(width)
                        out.height = Int(height)
                    }
                case "TTW":
                    let count = out.exifLength(Int(available), domain: "mrw")
                    out.setExif(try reader.read(at: data, count: count), domain: "mrw")
                default:
                    break
                }
                pos = data + length
            }
        } catch {
            out.note("mrw", error, while: "reading the MRW blocks")
        }
        return out
    }
}
