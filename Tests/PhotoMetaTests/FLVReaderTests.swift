import XCTest

@testable import PhotoMetaCore

final class FLVReaderTests: XCTestCase {
    func testOnMetaDataGivesSizeDurationEncoderAndDate() throws {
        let a = MediaAsset.from(try TestPaths.bytes("../formats/obs_recording.flv"), path: "obs_recording.flv")
        XCTAssertEqual(a.format, .flv)
        XCTAssertEqual(a.kind, .video)
        XCTAssertEqual(a.width, 1280)
        XCTAssertEqual(a.height, 720)
        XCTAssertEqual(a.durationSeconds, 12.5)
        XCTAssertEqual(a.software, "obs-output module (libobs version 27.2.4)")
        XCTAssertEqual(a.captured?.source, .flvCreationDate)
        // The creationdate comes after a keyframes index (an object of strict arrays) walked over.
        XCTAssertEqual(
            a.captured?.clock,
            .wall(LocalDateTime(year: 2023, month: 6, day: 2, hour: 21, minute: 14, second: 7)!, offset: nil, offsetSource: nil))
        XCTAssertFalse(a.truncated)
        XCTAssertEqual(a.diagnostics, [])
    }

    /// A recording still being written ends inside a tag: every cut is flagged, none is fatal.
    func testCutShortIsFlaggedNotFatal() throws {
        let bytes = try TestPaths.bytes("../formats/obs_recording.flv")
        // A cut right after a tag's PreviousTagSize leaves whole tags: a file a recorder could
        // be holding at that moment, not a cut one.
        var tagEnds: Set<Int> = []
        var pos = 13
        while pos + 11 <= bytes.count {
            pos += 11 + (Int(bytes[pos + 1]) << 16 | Int(bytes[pos + 2]) << 8 | Int(bytes[pos + 3])) + 4
            tagEnds.insert(pos)
        }
        XCTAssertEqual(tagEnds.count, 3)
        for cut in Array(4..<13) + Array(14..<bytes.count) where !tagEnds.contains(cut) {
            let a = MediaAsset.from(Array(bytes.prefix(cut)), path: "cut.flv")
            XCTAssertEqual(a.format, .flv)
            XCTAssertNil(a.error)
            XCTAssertTrue(a.truncated, "cut at \(cut)")
        }
        // The header and PreviousTagSize0 alone: a recorder that has just started, not a cut.
        XCTAssertFalse(MediaAsset.from(Array(bytes.prefix(13)), path: "new.flv").truncated)
    }

    /// Some old writers put the data size alone in PreviousTagSize: still a whole file.
    func testAPreviousTagSizeWithoutTheHeaderIsAccepted() throws {
        var bytes = try TestPaths.bytes("../formats/obs_recording.flv")
        let n = bytes.count
        let total = UInt32(bytes[n - 4]) << 24 | UInt32(bytes[n - 3]) << 16 | UInt32(bytes[n - 2]) << 8 | UInt32(bytes[n - 1])
        let dataOnly = total - 11
        bytes.replaceSubrange(
            (n - 4)..<n, with: [0, UInt8(dataOnly >> 16 & 0xFF), UInt8(dataOnly >> 8 & 0xFF), UInt8(dataOnly & 0xFF)])
        XCTAssertFalse(MediaAsset.from(bytes, path: "old.flv").truncated)
    }

    /// Without a duration in `onMetaData` (ffmpeg writing to a pipe), the last tag's time says
    /// how long the file plays; a stated one comes first.
    func testTheLastTagsTimeIsTheDurationWhenNoneIsStated() {
        func tag(_ type: UInt8, _ data: [UInt8], ms: UInt32) -> [UInt8] {
            var t = flvTag(type, data)
            t.replaceSubrange(4..<8, with: [UInt8(ms >> 16 & 0xFF), UInt8(ms >> 8 & 0xFF), UInt8(ms & 0xFF), UInt8(ms >> 24)])
            return t
        }
        let header: [UInt8] = Array("FLV".utf8) + [0x01, 0x01, 0, 0, 0, 9, 0, 0, 0, 0]
        let script = [0x02, 0x00, 0x0A] + Array("onMetaData".utf8) + [0x03]
        let frames = tag(9, [0x17, 0], ms: 0) + tag(9, [0x27, 0], ms: 40) + tag(9, [0x27, 0], ms: 0x0100_0B90)
        let unstated = MediaAsset.from(header + tag(18, script + [0x00, 0x00, 0x09], ms: 0) + frames, path: "pipe.flv")
        XCTAssertEqual(unstated.durationSeconds, Double(0x0100_0B90) / 1000, "24 bits and the 8 above them")
        XCTAssertFalse(unstated.truncated)
        let stated = script + amfKey("duration") + [0x00] + bigEndian(Double(12.5).bitPattern) + [0x00, 0x00, 0x09]
        XCTAssertEqual(MediaAsset.from(header + tag(18, stated, ms: 0) + frames, path: "x.flv").durationSeconds, 12.5)
    }

    /// Sound alone (the header says audio and no video, no size stated) is no video to offer.
    func testAudioOnlyIsNotAVideo() {
        let script = flvTag(18, [0x02, 0x00, 0x0A] + Array("onMetaData".utf8) + [0x03, 0x00, 0x00, 0x09])
        let bytes: [UInt8] = Array("FLV".utf8) + [0x01, 0x04, 0, 0, 0, 9, 0, 0, 0, 0] + script + flvTag(8, [0xAF, 0x01])
        let a = MediaAsset.from(bytes, path: "voice.flv")
        XCTAssertEqual(a.format, .flv)
        XCTAssertEqual(a.kind, .unknown)
        XCTAssertFalse(a.truncated)
    }

    /// An AMF date is an instant; ffmpeg's creation_time is ISO 8601 in UTC.
    func testAMFDateAndCreationTime() {
        func found(_ pairs: [UInt8]) -> ContainerFindings {
            let script = flvTag(18, [0x02, 0x00, 0x0A] + Array("onMetaData".utf8) + [0x03] + pairs + [0x00, 0x00, 0x09])
            let bytes: [UInt8] = Array("FLV".utf8) + [0x01, 0x01, 0, 0, 0, 9, 0, 0, 0, 0] + script
            return FLVReader.read(BoundedReader(MemoryByteSource(bytes)))
        }
        let ms = Double(1_685_740_447_250).bitPattern
        let date = found(amfKey("creationdate") + [0x0B] + bigEndian(ms) + [0, 0])
        let utc = LocalDateTime(
            year: 2023, month: 6, day: 2, hour: 21, minute: 14, second: 7, nanosecond: 250_000_000, fractionDigits: 3)!
        XCTAssertEqual(date.dates, [DateClue(.flvCreationDate, .instant(utc: utc, caveat: nil))])
        let text = "2024-05-01T10:00:00.000000Z"
        let iso = found(amfKey("creation_time") + [0x02, 0x00, UInt8(text.utf8.count)] + Array(text.utf8))
        XCTAssertEqual(iso.dates, [DateClue(.flvCreationDate, .text(text, .utcISO8601))])
    }

    /// Streams saved from RTMP: a `|RtmpSampleAccess` script tag before `onMetaData` is walked
    /// past, and `@setDataFrame` carries `onMetaData` inside it.
    func testOnMetaDataAfterAnotherScriptTagOrInsideSetDataFrame() {
        let meta: [UInt8] =
            [0x03] + amfKey("width") + [0x00] + bigEndian(Double(640).bitPattern) + amfKey("height") + [0x00]
            + bigEndian(Double(360).bitPattern) + [0x00, 0x00, 0x09]
        let access = flvTag(18, [0x02, 0x00, 0x11] + Array("|RtmpSampleAccess".utf8) + [0x01, 0x01, 0x01, 0x01])
        let header: [UInt8] = Array("FLV".utf8) + [0x01, 0x01, 0, 0, 0, 9, 0, 0, 0, 0]
        let onMetaData = [0x02, 0x00, 0x0A] + Array("onMetaData".utf8)
        for body in [
            access + flvTag(18, onMetaData + meta),
            flvTag(18, [0x02, 0x00, 0x0D] + Array("@setDataFrame".utf8) + onMetaData + meta),
        ] {
            let a = MediaAsset.from(header + body, path: "rtmp.flv")
            XCTAssertEqual(a.width, 640)
            XCTAssertEqual(a.height, 360)
            XCTAssertFalse(a.truncated)
        }
    }

    func testHostileScriptDataCostsItsBytesOnly() {
        // Objects nested past the limit, a strict array claiming 4 billion values, a long string
        // claiming 4 GiB: the walk stops at each, nothing is allocated by a count.
        let deep = [UInt8](repeating: 0, count: 0) + Array(repeating: amfKey("a") + [0x03], count: 40).flatMap { $0 }
        for pairs in [deep, amfKey("k") + [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x05], amfKey("s") + [0x0C, 0xFF, 0xFF, 0xFF, 0xFF]] {
            let properties = ActionMessageFormat.properties([0x02, 0x00, 0x0A] + Array("onMetaData".utf8) + [0x03] + pairs)
            XCTAssertEqual(properties?.name, "onMetaData")
            XCTAssertEqual(properties?.properties.count, 0)
        }
        XCTAssertNil(ActionMessageFormat.properties([0x00, 0, 0, 0, 0, 0, 0, 0, 0]), "no name first")
        // A tag claiming 16 MiB of data in a small file: read as far as the file goes.
        let liar = Array("FLV".utf8) + [0x01, 0x01, 0, 0, 0, 9, 0, 0, 0, 0, 18, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0x02]
        let a = MediaAsset.from(liar, path: "liar.flv")
        XCTAssertEqual(a.format, .flv)
        XCTAssertTrue(a.truncated)
    }

    private func flvTag(_ type: UInt8, _ data: [UInt8]) -> [UInt8] {
        let n = UInt32(data.count)
        let total = n + 11
        return [type, UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF), 0, 0, 0, 0, 0, 0, 0] + data
            + [UInt8(total >> 24), UInt8(total >> 16 & 0xFF), UInt8(total >> 8 & 0xFF), UInt8(total & 0xFF)]
    }

    private func amfKey(_ key: String) -> [UInt8] { [0x00, UInt8(key.utf8.count)] + Array(key.utf8) }

    private func bigEndian(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(v >> (56 - 8 * $0) & 0xFF) } }
}
