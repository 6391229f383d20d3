import XCTest

@testable import PhotoMetaCore

/// Apple's maker note handed back to libexif as a TIFF stream of its own.
final class AppleMakerNoteTests: XCTestCase {
    /// "Apple iOS\0", version 1, byte order, then an IFD with one ASCII entry 0x0011 whose value
    /// lies after the IFD (offsets count from the note's start).
    static func note(_ id: String, bigEndian: Bool = true) -> [UInt8] {
        let value = Array(id.utf8) + [0]
        func u16(_ v: Int) -> [UInt8] {
            bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
        }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        let header = Array("Apple iOS".utf8) + [0, 0, 1] + (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49])
        let ifd = u16(1) + u16(0x0011) + u16(2) + u32(value.count) + u32(14 + 2 + 12 + 4) + u32(0)
        return header + ifd + value
    }

    func testTheIdentifierIsReadFromTheNotesOwnIFD() {
        let id = "1745E022-9712-43C7-B024-F308EC6413CB"
        XCTAssertEqual(ExifDecoder.appleContentIdentifier(makerNote: Self.note(id)), id)
        XCTAssertEqual(ExifDecoder.appleContentIdentifier(makerNote: Self.note(id, bigEndian: false)), id)
    }

    func testOtherNotesAndJunkGiveNothing() {
        var wrongOrder = Self.note("1745E022-9712-43C7-B024-F308EC6413CB")
        wrongOrder[12] = 0x58
        XCTAssertNil(ExifDecoder.appleContentIdentifier(makerNote: wrongOrder))
        XCTAssertNil(ExifDecoder.appleContentIdentifier(makerNote: Array("Nikon\0\u{2}\u{10}\0\0MM\0*\0\0\0\u{8}".utf8)))
        XCTAssertNil(ExifDecoder.appleContentIdentifier(makerNote: Self.note("\u{1}\u{2}")))  // not an identifier
        let cut = Self.note("1745E022-9712-43C7-B024-F308EC6413CB")
        for n in 0..<cut.count - 1 {
            _ = ExifDecoder.appleContentIdentifier(makerNote: Array(cut.prefix(n)))  // must not crash
        }
    }
}
