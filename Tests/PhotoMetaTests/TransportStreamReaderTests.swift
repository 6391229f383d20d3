import Foundation
import XCTest

@testable import PhotoMetaCore

/// MPEG transport streams (AVCHD's `.MTS`): detected by their packets, a video, dated by the
/// MDPM user data in the H.264 stream (`TransportStreamReader`; Fixtures/formats/avchd.MTS,
/// which exiftool reads alike: 2024:11:29 22:15:00, Make Sony).
final class TransportStreamReaderTests: XCTestCase {
    /// The wall clock `asset` was dated with, as ISO 8601 text, when it has no offset.
    func wallClock(_ asset: MediaAsset) -> String? {
        guard case .wall(let local, offset: nil, offsetSource: nil) = asset.captured?.clock else { return nil }
        return local.iso8601
    }

    func inspect(_ bytes: [UInt8]) -> MediaAsset {
        Inspector.inspect(MemoryByteSource(bytes), path: "clip.MTS")
    }

    func testAnAVCHDRecording() throws {
        let asset = inspect(try TestPaths.bytes("../formats/avchd.MTS"))
        XCTAssertEqual(asset.format, .m2ts)
        XCTAssertEqual(asset.kind, .video)
        XCTAssertEqual(asset.captured?.source, .h264DateTimeOriginal)
        XCTAssertEqual(wallClock(asset), "2024-11-29T22:15:00", "no offset: the zone byte is not read")
        XCTAssertEqual(asset.make, "Sony")
        XCTAssertEqual(asset.model, "HDR-CX550V", "Sony's model over tags 0xE4-0xE6")
        XCTAssertFalse(asset.truncated)
        XCTAssertEqual(asset.diagnostics, [])
    }

    /// The same stream in 188-byte packets, without BDAV's time stamps (a broadcast `.ts`).
    func testPlainTransportPackets() throws {
        let bdav = try TestPaths.bytes("../formats/avchd.MTS")
        let plain = stride(from: 0, to: bdav.count, by: 192).flatMap { bdav[($0 + 4)..<($0 + 192)] }
        XCTAssertEqual(TransportStreamReader.layout(plain)?.size, 188)
        let asset = inspect(plain)
        XCTAssertEqual(asset.format, .m2ts)
        XCTAssertEqual(wallClock(asset), "2024-11-29T22:15:00")
    }

    /// An MDPM past the first 64 KiB (null packets before the video) is found by the wider
    /// walk; one past 512 KiB is not looked for.
    func testAnMDPMFurtherIn() throws {
        let bdav = try TestPaths.bytes("../formats/avchd.MTS")
        let null = [UInt8](repeating: 0, count: 4) + [0x47, 0x1F, 0xFF, 0x10] + [UInt8](repeating: 0xFF, count: 184)
        func padded(_ packets: Int) -> [UInt8] {
            Array(bdav.prefix(192 * 2)) + (0..<packets).flatMap { _ in null } + bdav.dropFirst(192 * 2)
        }
        let far = inspect(padded(400))
        XCTAssertEqual(wallClock(far), "2024-11-29T22:15:00")
        XCTAssertEqual(far.make, "Sony")
        let tooFar = inspect(padded(2800))
        XCTAssertEqual(tooFar.format, .m2ts)
        XCTAssertNil(tooFar.captured)
    }

    /// The program map table says which stream is the video and how it is coded: MPEG-2 video
    /// (HDV's `.m2t`, JVC's `.TOD`) is sized by its sequence header, and the slice start code
    /// `00 00 01 67` in it is not taken for an H.264 SPS.
    func testMPEG2VideoIsSizedByItsSequenceHeader() {
        func packet(_ pid: Int, _ payload: [UInt8]) -> [UInt8] {
            let p = [0x47, 0x40 | UInt8(pid >> 8), UInt8(pid & 0xFF), 0x10] + payload
            return p + [UInt8](repeating: 0xFF, count: 188 - p.count)
        }
        // PAT: program 1 on PID 0x100. PMT: MPEG-2 video (type 0x02) on PID 0x101. CRCs unread.
        let pat: [UInt8] = [0, 0x00, 0xB0, 13, 0, 1, 0xC1, 0, 0, 0, 1, 0xE1, 0x00, 0, 0, 0, 0]
        let pmt: [UInt8] = [0, 0x02, 0xB0, 18, 0, 1, 0xC1, 0, 0, 0xE1, 0x01, 0xF0, 0, 0x02, 0xE1, 0x01, 0xF0, 0, 0, 0, 0, 0]
        let pes: [UInt8] =
            [0, 0, 1, 0xE0, 0, 0, 0x80, 0, 0] + [0, 0, 1, 0xB3, 0x2D, 0x01, 0xE0, 0x34]
            + [0, 0, 1, 0x67, 0x64, 0x00, 0x28, 0xAC, 0xD9, 0x40, 0x78, 0x02, 0x27, 0xE5, 0xC0, 0x44]
        let stream = packet(0, pat) + packet(0x100, pmt) + packet(0x101, pes) + packet(0x1FFF, [])
        let asset = inspect(stream)
        XCTAssertEqual(asset.format, .m2ts)
        XCTAssertEqual([asset.width, asset.height], [720, 480])
        // The same bytes called H.264 by the table: the SPS is read.
        var avc = stream
        avc[188 + 4 + 13] = 0x1B
        XCTAssertEqual([inspect(avc).width, inspect(avc).height], [1920, 1080])
        // No table: no size (still a transport stream: four packets).
        let untabled = inspect(packet(0x1FFF, []) + Array(stream.dropFirst(188 * 2)) + packet(0x1FFF, []) + packet(0x1FFF, []))
        XCTAssertEqual(untabled.format, .m2ts)
        XCTAssertNil(untabled.width)
    }

    /// Cut inside a packet: truncated, and what came before is still read.
    func testACutRecording() throws {
        let bdav = try TestPaths.bytes("../formats/avchd.MTS")
        let asset = inspect(Array(bdav.prefix(192 * 5 + 50)))
        XCTAssertEqual(asset.format, .m2ts)
        XCTAssertTrue(asset.truncated)
        XCTAssertEqual(asset.captured?.source, .h264DateTimeOriginal)
    }

    /// Four sync bytes a packet apart make a stream; three, or a text that starts with "G",
    /// do not.
    func testDetection() {
        var three = [UInt8](repeating: 0, count: 188 * 3 + 1)
        for i in 0..<3 { three[i * 188] = 0x47 }
        XCTAssertNil(TransportStreamReader.layout(three))
        XCTAssertEqual(FormatDetector.detect(three), .unknown)
        XCTAssertEqual(FormatDetector.detect(Array("Good morning, this is text.".utf8)), .unknown)
        var four = [UInt8](repeating: 0, count: 192 * 4)
        for i in 0..<4 { four[i * 192 + 4] = 0x47 }
        XCTAssertEqual(TransportStreamReader.layout(four)?.size, 192)
        XCTAssertEqual(FormatDetector.detect(four), .m2ts)
        let asset = inspect(four)
        XCTAssertEqual(asset.kind, .video)
        XCTAssertNil(asset.captured, "no MDPM, no file times: no date")
    }

    /// The entries as the SEI carries them, after the UUID; a nibble that is no digit, or a
    /// missing half of the date, gives none.
    func testTheMDPMEntries() {
        func pack(_ entries: [(UInt8, [UInt8])]) -> [UInt8] {
            Array("MDPM".utf8) + [UInt8(entries.count)] + entries.flatMap { [$0.0] + $0.1 }
        }
        let date: [(UInt8, [UInt8])] = [(0x18, [0xFF, 0x20, 0x09, 0x08]), (0x19, [0x01, 0x23, 0x45, 0x59])]
        XCTAssertEqual(
            TransportStreamReader.entries(pack(date)).flatMap(TransportStreamReader.dateText), "2009-08-01T23:45:59")
        XCTAssertNil(
            TransportStreamReader.entries(pack([(0x18, [0, 0x20, 0x1A, 0x08]), date[1]]))
                .flatMap(TransportStreamReader.dateText))
        XCTAssertNil(TransportStreamReader.entries(pack([date[0]])).flatMap(TransportStreamReader.dateText))
        XCTAssertNil(TransportStreamReader.entries(Array("MDPX".utf8) + [0]))
        // A count larger than the bytes: the entries that are there.
        let short = Array(pack(date).dropLast(3))
        XCTAssertEqual(TransportStreamReader.entries(short)?.count, 1)
        // An impossible month is refused by the date stage, with a note.
        var bytes = try? TestPaths.bytes("../formats/avchd.MTS")
        if let at = bytes.flatMap({ ByteSearch.first([0x18, 0x12, 0x20, 0x24, 0x11], in: $0, from: 0) }) {
            bytes?[at + 4] = 0x13
        }
        let asset = inspect(bytes ?? [])
        XCTAssertNotEqual(asset.captured?.source, .h264DateTimeOriginal)
        XCTAssertTrue(asset.diagnostics.contains { $0.domain == "date" }, "\(asset.diagnostics)")
    }

    func testEmulationPreventionBytesAreDropped() {
        XCTAssertEqual(AVCSequenceParameterSet.unescaped([0, 0, 3, 0, 0, 3, 1, 3, 0, 3]), [0, 0, 0, 0, 1, 3, 0, 3])
        XCTAssertEqual(AVCSequenceParameterSet.unescaped([0, 3, 0, 0, 0, 3]), [0, 3, 0, 0, 0])
    }
}

/// The picture size of H.264 sequence parameter sets as x264 writes them (through ffmpeg:
/// `-f lavfi -i color=s=WxH -c:v libx264 [-profile:v P] [-pix_fmt F] [-x264opts interlaced=1]
/// -f h264`, the NAL after `00 00 01 67`): frame and field coding, cropping in chroma units,
/// the baseline profile without chroma fields, 4:2:2 and 4:4:4.
final class AVCSequenceParameterSetTests: XCTestCase {
    func size(_ hex: String) -> [Int]? {
        var bytes: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex, let j = hex.index(i, offsetBy: 2, limitedBy: hex.endIndex) {
            bytes.append(UInt8(hex[i..<j], radix: 16) ?? 0)
            i = j
        }
        return AVCSequenceParameterSet.pictureSize(AVCSequenceParameterSet.unescaped(bytes[...])).map { [$0.width, $0.height] }
    }

    func testX264Sizes() {
        XCTAssertEqual(size("67640028acd940780227e5c044000003000400000300c83c60c658"), [1920, 1080])
        XCTAssertEqual(size("67640028acd9405a0227e5c044000003000400000300c83c60c658"), [1440, 1080])
        XCTAssertEqual(size("67640028acd94078044fde0220000003002000000643e2c5b2c0"), [1920, 1080], "interlaced")
        XCTAssertEqual(size("6764001eacd940b424d8088000000300800000190f8a14cb"), [720, 576], "interlaced")
        XCTAssertEqual(size("6764000aacd9447b011000000300100000030320f1225960"), [64, 48])
        XCTAssertEqual(size("6742c01fd9005005bb011000000300100000030320f1832480"), [1280, 720], "baseline")
        XCTAssertEqual(size("677a0028bcd940780227e27011000003000100000300320f183196"), [1920, 1080], "4:2:2")
        XCTAssertEqual(size("67f40028919b280f0044f71780880000030008000003019078c18cb0"), [1918, 1078], "4:4:4")
    }

    func testNotAnSPSOrCutShort() {
        XCTAssertNil(size("68ee3cb0"), "a picture parameter set")
        XCTAssertNil(size("67640028acd9"), "cut inside")
        XCTAssertNil(size(""))
        XCTAssertNil(size("6764000a" + String(repeating: "00", count: 40)), "leading zeros without end")
    }

    /// End to end: clip.m2ts (64x48, ffmpeg's remux of clip.mp4) states its size.
    func testTheSizeOfATransportStream() throws {
        let bytes = [UInt8](try Data(contentsOf: TestPaths.thumbnails.appendingPathComponent("clip.m2ts")))
        let asset = Inspector.inspect(MemoryByteSource(bytes), path: "clip.m2ts")
        XCTAssertEqual(asset.format, .m2ts)
        XCTAssertEqual([asset.width, asset.height], [64, 48])
        // 2 s at 10 frames a second: the first PCR to the last, 1.9 s (exiftool's Duration).
        XCTAssertEqual(asset.durationSeconds ?? 0, 1.9, accuracy: 0.001)
    }

    /// The counter wraps (2^33 ticks at 90 kHz): the difference is taken modulo.
    func testTheClockWraps() {
        func packet(_ base: Int64) -> [UInt8] {
            let b = [
                UInt8((base >> 25) & 0xFF), UInt8((base >> 17) & 0xFF), UInt8((base >> 9) & 0xFF), UInt8((base >> 1) & 0xFF),
            ]
            let head: [UInt8] = [0x47, 0x01, 0x00, 0x20, 183, 0x10] + b + [UInt8((base & 1) << 7) | 0x7E, 0]
            return head + [UInt8](repeating: 0xFF, count: 188 - head.count)
        }
        let layout = (size: 188, sync: 0)
        let near = (Int64(1) << 33) - 90_000
        let found = TransportStreamClock.pcrs(in: packet(near) + packet(45_000), layout)
        XCTAssertEqual(found.map(\.base), [near, 45_000])
        XCTAssertEqual(found.map(\.pid), [0x100, 0x100])
        let stream = (0..<4).flatMap { i in packet(i == 0 ? near : 45_000) }
        let seconds = TransportStreamClock.duration(
            BoundedReader(MemoryByteSource(stream)), head: stream, layout: layout)
        XCTAssertEqual(seconds ?? 0, 1.5, accuracy: 0.0001)
    }
}
