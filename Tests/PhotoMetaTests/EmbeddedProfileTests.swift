import XCTest

@testable import PhotoMetaCore

/// [ICC.1:2010 B.4] A JPEG's ICC profile is split over APP2 `ICC_PROFILE` segments, each with
/// its sequence number and the count: put back together in sequence order, or not at all.
final class EmbeddedProfileTests: XCTestCase {
    func app2(_ sequence: UInt8, of count: UInt8, _ payload: String) -> [UInt8] {
        let body = Array("ICC_PROFILE\0".utf8) + [sequence, count] + Array(payload.utf8)
        return [0xFF, 0xE2, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
    }

    /// SOI, the segments, a baseline frame header (8x8, one component), a start of scan, a
    /// few bytes of data and EOI.
    func jpeg(_ segments: [[UInt8]]) -> [UInt8] {
        let sof: [UInt8] = [0xFF, 0xC0, 0, 11, 8, 0, 8, 0, 8, 1, 1, 0x11, 0]
        let sos: [UInt8] = [0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0]
        return [0xFF, 0xD8] + segments.joined() + sof + sos + [1, 2, 3, 0xFF, 0xD9]
    }

    func profile(_ bytes: [UInt8]) -> [UInt8]? {
        let source = MemoryByteSource(bytes)
        return EmbeddedProfile.profile(source, JPEGReader.read(BoundedReader(source)).previewHints.iccSegments)
    }

    func testSegmentsJoinInSequenceOrder() {
        XCTAssertEqual(profile(jpeg([app2(1, of: 1, "whole")])), Array("whole".utf8))
        // Written out of order (allowed): joined by sequence number.
        XCTAssertEqual(profile(jpeg([app2(2, of: 2, "BB"), app2(1, of: 2, "AAAA")])), Array("AAAABB".utf8))
    }

    func testSegmentsThatDoNotMakeOneProfileGiveNone() {
        XCTAssertNil(profile(jpeg([])))
        XCTAssertNil(profile(jpeg([app2(1, of: 2, "AAAA")])), "a part missing")
        XCTAssertNil(profile(jpeg([app2(1, of: 2, "AAAA"), app2(1, of: 2, "AAAA")])), "a part doubled")
        XCTAssertNil(profile(jpeg([app2(1, of: 2, "AAAA"), app2(2, of: 3, "BB")])), "counts that disagree")
        XCTAssertNil(profile(jpeg([app2(0, of: 0, "AAAA")])), "a count of 0")
        // A segment that says it is longer than the file: cut short, no profile.
        var cut = jpeg([app2(1, of: 1, "whole")])
        cut[5] = 0xF0
        XCTAssertNil(profile(Array(cut.prefix(40))))
    }
}
