/// Samsung's trailer at the end of a JPEG (exiftool's "SamsungTrailer"; no published
/// specification): data blocks, then a directory block "SEFH" (version, entry count, 12-byte
/// entries: 2 bytes of zeros, a 16-bit type, the block's offset counted back from the
/// directory's start, its size), its length (32-bit, little-endian) and "SEFT". Each data block
/// starts with 2 bytes of zeros, its type, the length of its name and the name; type 0x0A30
/// (`MotionPhoto_Data`) holds a Motion Photo's MP4.
package struct SamsungTrailer: Sendable, Equatable {
    /// One directory entry: the block's type, first byte and size in the file.
    package struct Block: Sendable, Equatable {
        package var type: UInt16
        package var offset: Int64
        package var size: Int64
    }

    /// Where the first data block starts: the JPEG ends before it.
    package var start: Int64
    package var blocks: [Block]

    /// The `MotionPhoto_Data` block's type.
    package static let motionPhotoType: UInt16 = 0x0A30
    /// exiftool reads directories below 64 KiB; real ones hold a few dozen entries.
    static let directoryMax = 0x10000

    /// The trailer at the end of the file, or nil when there is none. A directory whose sizes
    /// do not fit is a diagnostic (`problem`) and no trailer.
    package static func read(_ reader: BoundedReader) -> (trailer: SamsungTrailer?, problem: String?) {
        let size = reader.size
        guard size >= 8, let tail = try? reader.read(at: size - 8, count: 8), FourCC.string(Array(tail[4..<8])) == "SEFT" else {
            return (nil, nil)
        }
        var r = ByteReader(tail)
        guard let length32 = r.u32le() else { return (nil, nil) }
        let length = Int64(length32)
        guard length >= 12, length < Int64(directoryMax), length + 8 <= size else {
            return (nil, "Samsung trailer directory of \(length) bytes does not fit the file")
        }
        let directoryStart = size - 8 - length
        guard let dir = try? reader.read(at: directoryStart, count: Int(length)), FourCC.string(Array(dir[0..<4])) == "SEFH"
        else { return (nil, "Samsung trailer without its SEFH directory") }
        var d = ByteReader(dir, offset: 8)
        guard let count32 = d.u32le(), Int64(count32) * 12 + 12 <= length else {
            return (nil, "Samsung trailer directory lists more entries than it holds")
        }
        var blocks: [Block] = []
        var start = directoryStart
        for _ in 0..<Int(count32) {
            guard d.skip(2), let type = d.u16le(), let back = d.u32le(), let blockSize = d.u32le() else { break }
            // [exiftool Samsung.pm] a block lies before the directory and holds its own header.
            guard Int64(back) <= directoryStart, blockSize <= back, blockSize >= 8 else {
                return (nil, "Samsung trailer entry of type 0x\(String(type, radix: 16)) points outside the file")
            }
            let offset = directoryStart - Int64(back)
            blocks.append(Block(type: type, offset: offset, size: Int64(blockSize)))
            start = min(start, offset)
        }
        return (SamsungTrailer(start: start, blocks: blocks), nil)
    }

    /// Where the directory block starts when the file ends in "SEFT" after a length that fits,
    /// whether or not the directory itself reads: the JPEG ends at or before it.
    package static func directoryStart(_ reader: BoundedReader) -> Int64? {
        let size = reader.size
        guard size >= 8, let tail = try? reader.read(at: size - 8, count: 8), FourCC.string(Array(tail[4..<8])) == "SEFT" else {
            return nil
        }
        var r = ByteReader(tail)
        guard let length = r.u32le(), Int64(length) + 8 < size else { return nil }
        return size - 8 - Int64(length)
    }

    /// The Motion Photo video's range: the `MotionPhoto_Data` block after its header and name.
    package func motionVideo(_ reader: BoundedReader) -> (offset: Int64, length: Int64)? {
        guard let b = blocks.first(where: { $0.type == Self.motionPhotoType }),
            let head = try? reader.read(at: b.offset, count: 8)
        else { return nil }
        var r = ByteReader(head, offset: 4)
        guard let nameLength = r.u32le(), Int64(nameLength) + 8 < b.size else { return nil }
        let skip = 8 + Int64(nameLength)
        return (b.offset + skip, b.size - skip)
    }
}
