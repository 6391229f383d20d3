import XCTest

@testable import PhotoMetaCore

final class ASFReaderTests: XCTestCase {
    func testFilePropertiesAndVideoStreamWhateverTheName() throws {
        let a = MediaAsset.from(try TestPaths.bytes("../formats/moviemaker.wmv"), path: "moviemaker.wmv")
        XCTAssertEqual(a.format, .asf)
        XCTAssertEqual(a.kind, .video)
        XCTAssertEqual(a.width, 640)
        XCTAssertEqual(a.height, 480)
        // 13.5 s of play duration, of which 3,000 ms preroll that is not played.
        XCTAssertEqual(a.durationSeconds, 10.5)
        XCTAssertEqual(a.captured?.source, .asfCreationDate)
        XCTAssertEqual(a.captured?.clock, .instant(utc: LocalDateTime(year: 2009, month: 7, day: 14, hour: 18, minute: 30)!))
        XCTAssertFalse(a.truncated)
        XCTAssertEqual(a.diagnostics, [])
        XCTAssertEqual(MediaAsset.from(try TestPaths.bytes("../formats/moviemaker.wmv"), path: "clip.mp4").format, .asf)
    }

    func testCutShortOrLyingIsFlaggedNotFatal() throws {
        let bytes = try TestPaths.bytes("../formats/moviemaker.wmv")
        for cut in stride(from: 16, to: bytes.count, by: 7) {
            let a = MediaAsset.from(Array(bytes.prefix(cut)), path: "cut.wmv")
            XCTAssertEqual(a.format, .asf)
            XCTAssertNil(a.error)
            XCTAssertTrue(a.truncated, "cut at \(cut)")
        }
        // A Header Object claiming 2^63 bytes, then one whose first child claims more than the
        // header holds: noted, nothing allocated for either.
        var liar = bytes
        liar.replaceSubrange(16..<24, with: [0, 0, 0, 0, 0, 0, 0, 0x7F])
        XCTAssertTrue(MediaAsset.from(liar, path: "liar.wmv").truncated)
        var child = bytes
        child.replaceSubrange(46..<54, with: [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0])
        let c = MediaAsset.from(child, path: "child.wmv")
        XCTAssertNil(c.error)
        XCTAssertTrue(c.diagnostics.contains { $0.message.contains("size outside its Header Object") }, "\(c.diagnostics)")
    }

    /// The Broadcast flag says the date and durations are not valid; a zero date, or ffmpeg's
    /// 1970-01-01, is no date at all; an earlier one is skipped with a reason.
    func testUnsetAndInvalidDates() throws {
        let bytes = try TestPaths.bytes("../formats/moviemaker.wmv")
        let props = try XCTUnwrap(search(bytes, ASFReader.GUID.fileProperties))
        let date = props + 24 + 24
        let flags = props + 24 + 64
        func with(date value: UInt64? = nil, flags f: UInt8? = nil) -> ContainerFindings {
            var b = bytes
            if let value { b.replaceSubrange(date..<date + 8, with: (0..<8).map { UInt8(value >> (8 * $0) & 0xFF) }) }
            if let f { b[flags] = f }
            return ASFReader.read(BoundedReader(MemoryByteSource(b)))
        }
        let broadcast = with(flags: 3)
        XCTAssertEqual(broadcast.dates, [])
        XCTAssertNil(broadcast.evidence[.asfFileProperties])
        XCTAssertEqual(with(date: 0).dates, [])
        XCTAssertEqual(with(date: 116_444_736_000_000_000).dates, [], "ffmpeg's unset date")
        XCTAssertEqual(
            with(date: 1_000_000_000).dates,
            [DateClue(.asfCreationDate, .unusable(reason: "asf.CreationDate is before 1970; skipped"))])
    }

    /// ffmpeg writing to a pipe sets the Broadcast flag and leaves the Data Object's size at its
    /// own fields' 50 bytes: whole, not cut. The same size without the flag, packets after it,
    /// is a recording that was never finished.
    func testAnUnwrittenDataSizeIsJudgedByTheBroadcastFlag() throws {
        let bytes = try TestPaths.bytes("../formats/moviemaker.wmv")
        let props = try XCTUnwrap(search(bytes, ASFReader.GUID.fileProperties))
        let data = try XCTUnwrap(search(bytes, ASFReader.GUID.data))
        var unwritten = bytes
        unwritten.replaceSubrange(data + 16..<data + 24, with: [50, 0, 0, 0, 0, 0, 0, 0])
        let killed = MediaAsset.from(unwritten, path: "killed.wmv")
        XCTAssertTrue(killed.truncated)
        XCTAssertTrue(killed.diagnostics.contains { $0.message.contains("never written") }, "\(killed.diagnostics)")
        unwritten[props + 24 + 64] = 3
        let piped = MediaAsset.from(unwritten, path: "pipe.wmv")
        XCTAssertFalse(piped.truncated, "\(piped.diagnostics)")
        XCTAssertEqual(piped.diagnostics, [])
        XCTAssertEqual(piped.width, 640)
    }

    /// A header that repeats its File Properties Object (a fuzzer's find) states one date.
    func testARepeatedFilePropertiesObjectIsOneDate() throws {
        let bytes = try TestPaths.bytes("../formats/moviemaker.wmv")
        let props = try XCTUnwrap(search(bytes, ASFReader.GUID.fileProperties))
        let object = Array(bytes[props..<props + 104])
        var header = Array(bytes[0..<30]) + object + object + object + Array(bytes[30..<bytes.count])
        let size = UInt64(bytes[16]) | UInt64(bytes[17]) << 8
        let grown = size + 3 * 104
        header.replaceSubrange(16..<24, with: (0..<8).map { UInt8(grown >> (8 * $0) & 0xFF) })
        let found = ASFReader.read(BoundedReader(MemoryByteSource(header)))
        XCTAssertEqual(found.dates.count, 1)
    }

    /// Sound alone (a `.wma`) is no video to offer.
    func testAudioOnlyIsNotAVideo() throws {
        var bytes = try TestPaths.bytes("../formats/moviemaker.wmv")
        let video = try XCTUnwrap(search(bytes, ASFReader.GUID.videoMedia))
        bytes.replaceSubrange(video..<video + 16, with: ASFReader.GUID.audioMedia)
        let a = MediaAsset.from(bytes, path: "song.wma")
        XCTAssertEqual(a.format, .asf)
        XCTAssertEqual(a.kind, .unknown)
        XCTAssertNil(a.width)
    }

    private func search(_ bytes: [UInt8], _ needle: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
