import XCTest

@testable import PhotoMetaCore

/// The one PNG chunk walker: where and why each walk ends.
final class PNGChunksTests: XCTestCase {
    let ihdr = ContainerReaderTests.pngChunk("IHDR", [0, 0, 0, 8, 0, 0, 0, 4, 8, 0, 0, 0, 0])
    let text = ContainerReaderTests.pngChunk("tEXt", Array("Thumb::MTime".utf8) + [0] + Array("1600000000".utf8))
    let iend = ContainerReaderTests.pngChunk("IEND", [])

    func walk(_ bytes: [UInt8], limit: Int = 10, stopAt: String? = nil) throws -> ([PNGChunks.Chunk], PNGChunks.End) {
        var seen: [PNGChunks.Chunk] = []
        let end = try PNGChunks.walk(BoundedReader(MemoryByteSource(bytes)), limit: limit) { chunk in
            seen.append(chunk)
            return chunk.type != stopAt
        }
        return (seen, end)
    }

    func testChunksInOrderWithTheirOffsets() throws {
        let (seen, end) = try walk(PNGChunks.signature + ihdr + text + iend)
        XCTAssertEqual(seen.map(\.type), ["IHDR", "tEXt", "IEND"])
        XCTAssertEqual(seen.map(\.offset), [8, 8 + 25, 8 + 25 + Int64(text.count)])
        XCTAssertEqual(seen[0].length, 13)
        XCTAssertEqual(seen[0].next, 33)
        XCTAssertEqual(end, .endOfData)
    }

    func testEachWayAWalkEnds() throws {
        XCTAssertEqual(try walk(PNGChunks.signature + ihdr + text + iend, stopAt: "tEXt").1, .stopped)
        let (seen, end) = try walk(PNGChunks.signature + ihdr + text + iend, limit: 2)
        XCTAssertEqual(seen.count, 2)
        XCTAssertEqual(end, .tooManyChunks)
        let huge: [UInt8] = [0x80, 0, 0, 0] + Array("tEXt".utf8)
        XCTAssertEqual(
            try walk(PNGChunks.signature + ihdr + huge).1, .invalidLength(type: "tEXt", offset: 33, length: 0x8000_0000))
        let (cut, cutEnd) = try walk(PNGChunks.signature + Array(ihdr.prefix(10)))
        XCTAssertEqual(cut.map(\.type), ["IHDR"], "a chunk whose data is cut is still visited")
        XCTAssertEqual(cutEnd, .endOfData)
        XCTAssertEqual(try walk(PNGChunks.signature + [0, 0, 0]).0, [], "no room for a header")
    }
}
