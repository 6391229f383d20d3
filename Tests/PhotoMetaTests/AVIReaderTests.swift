import XCTest

@testable import PhotoMetaCore

final class AVIReaderTests: XCTestCase {
    func testAVIHeaderDateAndSizeWhateverTheName() throws {
        let a = MediaAsset.from(try TestPaths.bytes("../formats/avi_named.mp4"), path: "avi_named.mp4")
        XCTAssertEqual(a.format, .avi)
        XCTAssertEqual(a.kind, .video)
        XCTAssertEqual(a.width, 640)
        XCTAssertEqual(a.height, 480)
        XCTAssertEqual(a.durationSeconds ?? 0, 3.0, accuracy: 0.001)
        XCTAssertEqual(a.captured?.source, .riffDateTimeOriginal)
        XCTAssertEqual(
            a.captured?.clock,
            .wall(LocalDateTime(year: 2012, month: 3, day: 17, hour: 9, minute: 15, second: 42)!, offset: nil, offsetSource: nil))
        XCTAssertFalse(a.truncated)
    }

    func testAVICutShortOrLyingIsFlaggedNotFatal() throws {
        let bytes = try TestPaths.bytes("../formats/avi_named.mp4")
        for cut in stride(from: 12, to: bytes.count, by: 7) {
            let a = MediaAsset.from(Array(bytes.prefix(cut)), path: "cut.avi")
            XCTAssertEqual(a.format, .avi)
            XCTAssertTrue(a.truncated, "cut at \(cut)")
        }
        // A chunk claiming 4 GiB inside a small file: noted, nothing allocated for it.
        var liar = bytes
        liar.replaceSubrange(16..<20, with: [0xF0, 0xFF, 0xFF, 0xFF])
        let a = MediaAsset.from(liar, path: "liar.avi")
        XCTAssertTrue(a.truncated)
        XCTAssertNil(a.error)
    }

    /// An AVI hands over `IDIT` before `INFO/ICRD` whatever their order in the file (the
    /// recording date first), each as riff text; an unreadable IDIT falls back to ICRD.
    func testRecordingDateBeforeCreationDateWhateverTheirOrder() throws {
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
            let n = UInt32(body.count)
            let padded = body.count % 2 == 1 ? body + [0] : body
            return Array(id.utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)] + padded
        }
        func avi(idit: String) -> [UInt8] {
            let info = chunk("LIST", Array("INFO".utf8) + chunk("ICRD", Array("2011-01-02".utf8) + [0]))
            let hdrl = chunk("LIST", Array("hdrl".utf8) + chunk("IDIT", Array(idit.utf8) + [0]))
            let body = Array("AVI ".utf8) + info + hdrl
            return chunk("RIFF", body)
        }
        let found = AVIReader.read(BoundedReader(MemoryByteSource(avi(idit: "Sat Mar 17 09:15:42 2012"))))
        XCTAssertEqual(
            found.dates,
            [
                DateClue(.riffDateTimeOriginal, .text("Sat Mar 17 09:15:42 2012", .riff)),
                DateClue(.riffDateTimeOriginal, .text("2011-01-02", .riff)),
            ])
        let a = MediaAsset.from(avi(idit: "not a date"), path: "x.avi")
        XCTAssertEqual(a.captured?.source, .riffDateTimeOriginal)
        let created = try XCTUnwrap(LocalDateTime(year: 2011, month: 1, day: 2, hasTime: false))
        XCTAssertEqual(a.captured?.clock, .wall(created, offset: nil, offsetSource: nil))
        XCTAssertTrue(a.diagnostics.contains { $0.message.contains("riff.DateTimeOriginal 'not a date'") }, "\(a.diagnostics)")
    }
}
