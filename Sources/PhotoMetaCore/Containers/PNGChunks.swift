/// The one walker of PNG chunks [PNG 1.2 5.3]: after the 8-byte signature, chunks of a u32
/// big-endian data length (at most 2^31-1), a four-character type, the data and a CRC. It
/// reads only the 8-byte chunk headers; what a chunk's data means is the caller's business
/// (`PNGReader` for metadata, `PNGText` for thumbnail cache entries). CRCs are not checked.
package enum PNGChunks {
    /// [PNG 1.2 12.12] The signature.
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// One chunk's header and where its data lies in the file.
    package struct Chunk: Sendable, Equatable {
        /// The four-character type (`IHDR`, `tEXt`, `IEND`...).
        package var type: String
        /// The offset of the chunk's length field.
        package var offset: Int64
        package var length: Int
        package var dataStart: Int64 { offset + 8 }
        /// Where the next chunk starts (after the data and the 4-byte CRC).
        package var next: Int64 { dataStart + Int64(length) + 4 }
    }

    /// Why a walk ended.
    package enum End: Sendable, Equatable {
        /// Fewer than 8 bytes left: no further chunk header.
        case endOfData
        /// The visitor asked to stop (at IEND, IDAT, or what it was looking for).
        case stopped
        /// `limit` chunks were visited and another one follows.
        case tooManyChunks
        /// A length field over 2^31-1, at `offset` [PNG 1.2 5.3]; the walk cannot go on.
        case invalidLength(type: String, offset: Int64, length: UInt32)
    }

    /// Visits the chunks from offset 8 in file order, at most `limit` of them. `visit` returns
    /// false to stop. A chunk whose data runs past the end is still visited (the caller notes
    /// the cut); reading a header fails only when the reader's budget does, and that throws.
    package static func walk(
        _ reader: BoundedReader, limit: Int, _ visit: (Chunk) throws(ReadFailure) -> Bool
    ) throws(ReadFailure) -> End {
        var pos: Int64 = 8
        var visited = 0
        while pos + 8 <= reader.size {
            guard visited < limit else { return .tooManyChunks }
            visited += 1
            var h = ByteReader(try reader.read(at: pos, count: 8))
            guard let length = h.u32be(), let type = h.fourCC() else { return .endOfData }
            guard length <= 0x7FFF_FFFF else { return .invalidLength(type: type, offset: pos, length: length) }
            let chunk = Chunk(type: type, offset: pos, length: Int(length))
            guard try visit(chunk) else { return .stopped }
            pos = chunk.next
        }
        return .endOfData
    }
}
