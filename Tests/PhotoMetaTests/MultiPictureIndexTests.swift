import XCTest

@testable import PhotoMetaCore

/// [CIPA DC-007 5.2.3] Which pictures of a JPEG's Multi-Picture index are previews of the
/// photo: large thumbnails and a stereo pair's other eye, never an "Undefined" picture (what
/// Android's Ultra HDR photos list their grey gain map as), whose thumbnail was the gain map.
final class MultiPictureIndexTests: XCTestCase {
    /// An MP Index IFD (little-endian TIFF) listing `images` as (MP Type with its format bits,
    /// size, offset), padded so every offset lies inside.
    func index(_ images: [(attribute: UInt32, size: UInt32, offset: UInt32)]) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        func u32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        let entriesAt: UInt32 = 8 + 2 + 12 + 4
        var bytes: [UInt8] = [0x49, 0x49, 42, 0] + u32(8) + u16(1)
        bytes += u16(0xB002) + u16(7) + u32(UInt32(16 * images.count)) + u32(entriesAt) + u32(0)
        for i in images { bytes += u32(i.attribute) + u32(i.size) + u32(i.offset) + u16(0) + u16(0) }
        return bytes + [UInt8](repeating: 0, count: 2048)
    }

    func testOnlyPicturesOfTheSameSceneArePreviews() {
        let bytes = index([
            (0x0003_0000, 1000, 0),  // the primary picture itself
            (0x0000_0000, 100, 500),  // Undefined: a gain map
            (0x0001_0001, 200, 700),  // Large Thumbnail (VGA)
            (0x0001_0002, 210, 1000),  // Large Thumbnail (Full HD)
            (0x0002_0002, 220, 1300),  // Multi-frame Disparity: the other eye
            (0x0002_0001, 230, 1600),  // a panorama's other frame
            (0x0101_0001, 50, 1900),  // a large thumbnail that is not a JPEG (format bits 1)
        ])
        let found = PreviewFinder.mpfImages(MemoryByteSource(bytes), tiff: 0)
        XCTAssertEqual(found.map(\.0), [700, 1000, 1300])
        XCTAssertEqual(found.map(\.1), [200, 210, 220])
    }
}
