import XCTest

@testable import PhotoMetaCore

/// Matroska and WebM (issue 22): the fixtures' facts, a cut at every byte, and hostile files
/// (lying and unknown sizes, deep nesting, a 1 GB element, malformed headers), each an answer
/// with a flag, read within a few kilobytes.
final class MatroskaReaderTests: XCTestCase {
    // MARK: - EBML bytes, built apart from the reader

    static func id(_ v: UInt32) -> [UInt8] {
        let n = max(1, (32 - v.leadingZeroBitCount + 7) / 8)
        return (0..<n).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) }
    }

    /// A size in 8 bytes (0x01 then 7 bytes), so any value up to 2^56 - 2 fits.
    static func size8(_ v: UInt64) -> [UInt8] {
        [0x01] + (0..<7).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) }
    }

    static let unknownSize: [UInt8] = [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    static func element(_ i: UInt32, _ children: [UInt8]..., size: [UInt8]? = nil) -> [UInt8] {
        let data = children.flatMap { $0 }
        return id(i) + (size ?? size8(UInt64(data.count))) + data
    }

    static func uint(_ i: UInt32, _ v: UInt64) -> [UInt8] {
        element(i, (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) })
    }

    static func header(_ docType: String) -> [UInt8] {
        element(0x1A45_DFA3, uint(0x4286, 1), element(0x4282, Array(docType.utf8)))
    }

    static func tracks(width: UInt64, height: UInt64) -> [UInt8] {
        element(0x1654_AE6B, element(0xAE, uint(0x83, 1), element(0xE0, uint(0xB0, width), uint(0xBA, height))))
    }

    static let cluster = element(0x1F43_B675, uint(0xE7, 0))

    func inspect(_ bytes: [UInt8], _ name: String = "x.mkv") -> MediaAsset { MediaAsset.from(bytes, path: name) }

    // MARK: - Fixtures

    func testWebMScreencastHasItsInstantSizeAndKind() throws {
        let a = inspect(try TestPaths.bytes("../formats/screencast.webm"), "screencast.webm")
        XCTAssertEqual(a.format, .webm)
        XCTAssertEqual(a.kind, .video)
        XCTAssertEqual(a.width, 1920)
        XCTAssertEqual(a.height, 1080)
        XCTAssertEqual(a.captured?.source, .matroskaDateUTC)
        let utc = try XCTUnwrap(LocalDateTime(year: 2024, month: 11, day: 29, hour: 21, minute: 15, second: 0))
        XCTAssertEqual(a.captured?.clock, .instant(utc: utc))
        XCTAssertNil(a.durationSeconds, "a live recording states no Duration")
        XCTAssertFalse(a.truncated)
        XCTAssertEqual(a.diagnostics, [])
    }

    func testMKVWithoutDateFallsBackAndReadsDurationAndTheVideoTrack() throws {
        let a = inspect(try TestPaths.bytes("../formats/recording.mkv"), "recording.mkv")
        XCTAssertEqual(a.format, .mkv)
        XCTAssertEqual(a.kind, .video)
        XCTAssertEqual(a.width, 1280, "the audio track before the video track is passed over")
        XCTAssertEqual(a.height, 720)
        XCTAssertEqual(a.durationSeconds ?? 0, 4.5, accuracy: 1e-9)
        XCTAssertEqual(a.software, "Lavf60.16.100")
        XCTAssertNil(a.captured, "no DateUTC, no name date, no file times given")
        XCTAssertEqual(a.diagnostics, [])
    }

    /// [RFC 9559] An anamorphic track: the display size where it differs from the stored one,
    /// in pixels or from an aspect ratio (DisplayUnit 3); none in centimetres, or when equal.
    func testTheDisplaySizeWhereItDiffers() throws {
        func video(_ display: [UInt8]...) -> [UInt8] {
            Self.header("matroska")
                + Self.element(
                    0x1853_8067,
                    Self.element(
                        0x1654_AE6B,
                        Self.element(
                            0xAE, Self.uint(0x83, 1),
                            Self.element(0xE0, Self.uint(0xB0, 720) + Self.uint(0xBA, 576) + display.flatMap { $0 }))),
                    Self.cluster)
        }
        func shown(_ bytes: [UInt8]) -> [Int?] {
            let a = inspect(bytes)
            XCTAssertEqual([a.width, a.height], [720, 576])
            return [a.displayWidth, a.displayHeight]
        }
        XCTAssertEqual(shown(video(Self.uint(0x54B0, 1024), Self.uint(0x54BA, 576))), [1024, 576])
        XCTAssertEqual(shown(video(Self.uint(0x54B0, 16), Self.uint(0x54BA, 9), Self.uint(0x54B2, 3))), [1024, 576])
        XCTAssertEqual(
            shown(video(Self.uint(0x54B0, 20), Self.uint(0x54BA, 11), Self.uint(0x54B2, 1))), [nil, nil], "centimetres")
        XCTAssertEqual(shown(video(Self.uint(0x54B0, 720), Self.uint(0x54BA, 576))), [nil, nil], "the same size")
        XCTAssertEqual(shown(video(Self.uint(0x54B0, 0), Self.uint(0x54BA, 576))), [nil, nil], "a zero side")
        let row = AssetReport(zone: TimeZone(identifier: "UTC") ?? .current).json(
            inspect(video(Self.uint(0x54B0, 1024), Self.uint(0x54BA, 576))))
        XCTAssertTrue(row.contains(#""width":720,"height":576,"displayWidth":1024,"displayHeight":576"#), row)
    }

    func testDocTypeDecidesTheFormatWhateverTheName() {
        XCTAssertEqual(FormatDetector.detect(Self.header("webm")), .webm)
        XCTAssertEqual(FormatDetector.detect(Self.header("matroska")), .mkv)
        XCTAssertEqual(FormatDetector.detect(Self.header("other-ebml")), .unknown)
        XCTAssertEqual(FormatDetector.detect(Array(Self.header("webm").prefix(6))), .mkv, "DocType not in sight: Matroska")
    }

    // MARK: - The walk

    /// Info and Tracks after the first Cluster are found through the SeekHead; the DateUTC's
    /// nanoseconds are kept; a 4-byte DateUTC is skipped with a reason.
    func testSeekHeadLeadsToInfoAndTracksAfterTheClusters() throws {
        let info = Self.element(0x1549_A966, Self.uint(0x4461, 1_000_000_000 * 86_400 + 250_000_000))
        let tracks = Self.tracks(width: 640, height: 360)
        func seek(_ target: UInt32, _ pos: UInt64) -> [UInt8] {
            Self.element(0x4DBB, Self.element(0x53AB, Self.id(target)), Self.uint(0x53AC, pos))
        }
        let headLength = Self.element(0x114D_9B74, seek(0x1549_A966, 0), seek(0x1654_AE6B, 0)).count
        let infoAt = UInt64(headLength + Self.cluster.count)
        let head = Self.element(0x114D_9B74, seek(0x1549_A966, infoAt), seek(0x1654_AE6B, infoAt + UInt64(info.count)))
        let file = Self.header("matroska") + Self.element(0x1853_8067, head, Self.cluster, info, tracks)
        let a = inspect(file)
        XCTAssertEqual(a.width, 640)
        XCTAssertEqual(a.height, 360)
        let utc = try XCTUnwrap(
            LocalDateTime(year: 2001, month: 1, day: 2, hour: 0, minute: 0, second: 0, nanosecond: 250_000_000, fractionDigits: 2)
        )
        XCTAssertEqual(a.captured?.clock, .instant(utc: utc))
        XCTAssertEqual(a.diagnostics, [])

        let short =
            Self.header("webm") + Self.element(0x1853_8067, Self.element(0x1549_A966, Self.element(0x4461, [0, 0, 0, 1])))
        let b = inspect(short)
        XCTAssertNil(b.captured)
        XCTAssertTrue(b.diagnostics.contains { $0.message.contains("matroska.DateUTC of 4 bytes") }, "\(b.diagnostics)")
    }

    /// A date before 2001 (negative nanoseconds) is an instant before the origin.
    func testNegativeDateUTC() throws {
        let info = Self.element(0x1549_A966, Self.uint(0x4461, UInt64(bitPattern: -1_500_000_000)))
        let a = inspect(Self.header("webm") + Self.element(0x1853_8067, info, Self.cluster))
        let utc = try XCTUnwrap(
            LocalDateTime(
                year: 2000, month: 12, day: 31, hour: 23, minute: 59, second: 58, nanosecond: 500_000_000, fractionDigits: 1))
        XCTAssertEqual(a.captured?.clock, .instant(utc: utc))
    }

    /// Every prefix of both fixtures is flagged (an error, `truncated` or a new diagnostic);
    /// none crashes.
    func testEveryCutIsFlagged() throws {
        for name in ["screencast.webm", "recording.mkv"] {
            let bytes = try TestPaths.bytes("../formats/\(name)")
            let whole = Set(inspect(bytes, name).diagnostics)
            for cut in 0..<bytes.count {
                let a = inspect(Array(bytes.prefix(cut)), name)
                let flagged = a.error != nil || a.truncated || !Set(a.diagnostics).isSubset(of: whole)
                XCTAssertTrue(flagged, "\(name) cut at \(cut) of \(bytes.count) is not flagged: \(a.diagnostics)")
            }
        }
    }

    // MARK: - Hostile files

    func testHostileFilesGiveAFlaggedAnswerWithinAFewKilobytes() {
        let segment: UInt32 = 0x1853_8067
        let cases: [(String, [UInt8], mustBeTruncated: Bool)] = [
            ("segment claims 1 GB", Self.header("webm") + Self.id(segment) + Self.size8(1 << 30) + Self.cluster, true),
            (
                "Info claims 1 GB",
                Self.header("webm") + Self.element(segment, Self.id(0x1549_A966) + Self.size8(1 << 30), size: Self.unknownSize),
                true
            ),
            (
                "Info of unknown size",
                Self.header("webm") + Self.element(segment, Self.element(0x1549_A966, size: Self.unknownSize)), false
            ),
            (
                "Tracks child runs past its parent",
                Self.header("webm") + Self.element(segment, Self.element(0x1654_AE6B, Self.id(0xAE) + Self.size8(1_000))), false
            ),
            (
                "10,000 nested unknown-size elements",
                Self.header("webm") + Self.id(segment) + Self.unknownSize
                    + (0..<10_000).flatMap { _ in Self.id(0x1654_AE6B) + Self.unknownSize }, false
            ),
            (
                "10,000 nested sized TrackEntries",
                Self.header("webm")
                    + Self.element(
                        segment,
                        Self.element(0x1654_AE6B, (0..<10_000).reduce([UInt8]()) { inner, _ in Self.element(0xAE, inner) })),
                false
            ),
            ("ID of 8 bytes", Self.header("webm") + Self.element(segment, [0x01] + [UInt8](repeating: 0xFF, count: 11)), false),
            ("size byte 0", Self.header("webm") + Self.id(segment) + [0x00] + Self.cluster, false),
            ("EBML header of 1 GB", Self.id(0x1A45_DFA3) + Self.size8(1 << 30) + [0x42, 0x82], false),
            ("SeekHead points past the segment", seekPastTheSegment(), false),
            ("no Segment", Self.header("webm") + Self.element(0xEC, [0, 0, 0]), false),
        ]
        for (name, bytes, mustBeTruncated) in cases {
            let reader = BoundedReader(MemoryByteSource(bytes))
            let found = FormatDetector.readContainer(reader, format: FormatDetector.detect(Array(bytes.prefix(64))))
            XCTAssertTrue(found.truncated || !found.diagnostics.isEmpty, "\(name): not flagged")
            if mustBeTruncated { XCTAssertTrue(found.truncated, "\(name): not marked truncated") }
            XCTAssertLessThan(reader.bytesRead, 2 << 20, "\(name): read \(reader.bytesRead) bytes")
            XCTAssertNil(found.width, "\(name)")
        }
    }

    func seekPastTheSegment() -> [UInt8] {
        let seek = Self.element(0x4DBB, Self.element(0x53AB, Self.id(0x1549_A966)), Self.uint(0x53AC, UInt64.max))
        return Self.header("matroska") + Self.element(0x1853_8067, Self.element(0x114D_9B74, seek), Self.cluster)
    }

    /// A real file in the wild has 20,000 Void elements before anything: the walk stops at the
    /// cap and says so.
    func testManyElementsStopAtTheCap() {
        let voids = (0..<(Limits.structureCountMax + 5)).flatMap { _ in [0xEC, 0x80] as [UInt8] }
        let found = MatroskaReader.read(
            BoundedReader(MemoryByteSource(Self.header("webm") + Self.element(0x1853_8067, voids))), format: .webm)
        XCTAssertTrue(found.diagnostics.contains { $0.message.contains("more than \(Limits.structureCountMax) elements") })
    }
}
