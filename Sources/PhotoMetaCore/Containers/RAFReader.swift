/// Fujifilm RAF raws: a fixed header, then a full JPEG preview that carries the EXIF, then the
/// sensor data. The header (Fujifilm's layout, as exiftool's FujiFilm RAF table and LibRaw
/// read it; big-endian): "FUJIFILMCCD-RAW " (16 bytes), format version (4), camera id (8),
/// camera name (32), directory version (4), 20 reserved bytes, then at offset 84 the JPEG's
/// offset and length (u32 each). The JPEG is read as any JPEG, through a window onto the file.
package enum RAFReader {
    static let magic = Array("FUJIFILMCCD-RAW ".utf8)

    package static func read(_ reader: BoundedReader) -> ContainerFindings {
        var failed = ContainerFindings(format: .raf)
        let header: [UInt8]
        do throws(ReadFailure) {
            header = try reader.read(at: 0, count: 92)
        } catch {
            failed.note("raf", error, while: "reading the RAF header")
            return failed
        }
        var r = ByteReader(header, offset: 84)
        guard let offset32 = r.u32be(), let length32 = r.u32be(), length32 > 0 else {
            failed.note("raf", "RAF header names no JPEG")
            return failed
        }
        let offset = Int64(offset32)
        var length = Int64(length32)
        guard offset >= 92, offset < reader.size else {
            failed.truncated = offset >= reader.size
            failed.note("raf", "the JPEG offset \(offset) lies outside the file (\(reader.size) bytes)")
            return failed
        }
        var cut = false
        if length > reader.size - offset {
            length = reader.size - offset
            cut = true
        }
        let window = BoundedReader(WindowByteSource(reader.source, offset: offset, length: length), budget: reader.remaining)
        var out = JPEGReader.read(window)
        out.format = .raf
        // The window's offsets count from the JPEG; the hints count from the file.
        out.previewHints.exifTIFFOffset = out.previewHints.exifTIFFOffset.map { $0 + offset }
        out.previewHints.mpfTIFFOffset = out.previewHints.mpfTIFFOffset.map { $0 + offset }
        if length > 0 { out.previewHints.rawJPEG = offset...(offset + length - 1) }
        if cut {
            out.truncated = true
            out.note("raf", "the JPEG at offset \(offset) claims \(length32) bytes, past the end of the file")
        }
        return out
    }
}

/// A range of another source, seen as a source of its own (offsets from the range's start).
struct WindowByteSource: ByteSource {
    let base: ByteSource
    let offset: Int64
    let length: Int64

    init(_ base: ByteSource, offset: Int64, length: Int64) {
        self.base = base
        self.offset = offset
        self.length = length
    }

    var size: Int64 { length }

    func read(at position: Int64, count: Int) throws -> [UInt8] {
        guard position >= 0, count > 0, position < length else { return [] }
        return try base.read(at: offset + position, count: Int(min(Int64(count), length - position)))
    }
}
