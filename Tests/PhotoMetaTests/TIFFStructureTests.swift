import XCTest

@testable import PhotoMetaCore

/// The one TIFF directory reader, in both byte orders and on cut or hostile tables.
final class TIFFStructureTests: XCTestCase {
    /// A stream with IFD0 at 8: ImageWidth SHORT 640, SubIFDs LONG 0x1234, next IFD at 0x40.
    static func stream(littleEndian: Bool) -> [UInt8] {
        let t = TIFFStructure(littleEndian: littleEndian)
        let magic: [UInt8] = littleEndian ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A]
        return magic + t.put32(8) + t.put16(2)
            + t.put16(0x0100) + t.put16(3) + t.put32(1) + t.put16(640) + [0, 0]
            + t.put16(0x014A) + t.put16(4) + t.put32(1) + t.put32(0x1234)
            + t.put32(0x40)
    }

    func testBothByteOrdersReadTheSameDirectory() throws {
        for little in [true, false] {
            let bytes = Self.stream(littleEndian: little)
            let (tiff, ifd0) = try XCTUnwrap(TIFFStructure.header(bytes))
            XCTAssertEqual(tiff.littleEndian, little)
            XCTAssertEqual(ifd0, 8)
            let d = try XCTUnwrap(tiff.directory(BoundedReader(MemoryByteSource(bytes)), at: ifd0))
            XCTAssertEqual(d.entries.map(\.tag), [.imageWidth, .subIFDs])
            XCTAssertEqual(d.entries.map { tiff.inline($0) }, [640, 0x1234])
            XCTAssertEqual(d.next, 0x40)
        }
    }

    func testCutAndHostileTables() {
        let bytes = Self.stream(littleEndian: true)
        let tiff = TIFFStructure(littleEndian: true)
        XCTAssertNil(tiff.directory(BoundedReader(MemoryByteSource(Array(bytes.prefix(20)))), at: 8), "entries cut")
        let noNext = tiff.directory(BoundedReader(MemoryByteSource(Array(bytes.prefix(bytes.count - 4)))), at: 8)
        XCTAssertEqual(noNext?.entries.count, 2, "a cut next offset loses only the next offset")
        XCTAssertEqual(noNext?.next, 0)
        XCTAssertNil(tiff.directory(BoundedReader(MemoryByteSource(bytes)), at: 4), "a directory inside the header")
        XCTAssertNil(tiff.directory(BoundedReader(MemoryByteSource(bytes)), at: bytes.count), "past the end")
        var many = bytes
        many[8] = 0x01
        many[9] = 0x04  // 1025 entries
        XCTAssertNil(tiff.directory(BoundedReader(MemoryByteSource(many)), at: 8), "more entries than any file has")
        XCTAssertNil(TIFFStructure.header([0x49, 0x49, 0x2A]), "a header cut short")
    }
}
