import XCTest

@testable import PhotoMetaCore

/// A movie track's matrix as a rotation in HEIF's measure (degrees anticlockwise): a phone
/// that records upright stores its frames landscape and turns them with the matrix.
final class TrackMatrixTests: XCTestCase {
    /// The nine 32-bit values {a, b, u, c, d, v, x, y, w}; a..d in 16.16 fixed point.
    func matrix(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) -> [UInt8] {
        let values: [Int32] = [a << 16, b << 16, 0, c << 16, d << 16, 0, 0, 0, 0x4000_0000]
        return values.flatMap { v in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: UInt32(bitPattern: v) >> UInt32($0)) } }
    }

    func testQuarterTurns() {
        XCTAssertEqual(TrackMatrix.rotation(matrix(1, 0, 0, 1), at: 0), 0)
        XCTAssertEqual(TrackMatrix.rotation(matrix(0, 1, -1, 0), at: 0), 270, "exiftool's Rotation 90: an iPhone held upright")
        XCTAssertEqual(TrackMatrix.rotation(matrix(-1, 0, 0, -1), at: 0), 180)
        XCTAssertEqual(TrackMatrix.rotation(matrix(0, -1, 1, 0), at: 0), 90, "exiftool's Rotation 270")
    }

    func testNoQuarterTurn() {
        XCTAssertNil(TrackMatrix.rotation(matrix(-1, 0, 0, 1), at: 0), "a mirror")
        XCTAssertNil(TrackMatrix.rotation(matrix(2, 0, 0, 2), at: 0), "a scale")
        XCTAssertNil(TrackMatrix.rotation(Array(matrix(1, 0, 0, 1).prefix(16)), at: 0), "cut short")
        XCTAssertNil(TrackMatrix.rotation(matrix(1, 0, 0, 1), at: -4))
    }
}
