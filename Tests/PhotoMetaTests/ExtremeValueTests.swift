import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaSystem

/// Values at the ends of their types go through every date path without a trap (a trap kills
/// the process: this test passing at all is half the assertion). Issue 13, item 1.
final class ExtremeValueTests: XCTestCase {
    static let seconds: [Int64] = [
        .min, .min + 1, -9_223_372_036_854_775_000, -800_000 * 86_400, -62_135_596_800 - 1, -62_135_596_800, -1, 0, 1,
        253_402_300_799, 253_402_300_800, 3_000_000 * 86_400, .max - 86_399, .max,
    ]
    static let nanoseconds: [Int32] = [.min, -1, 0, 999_999_999, 1_000_000_000, .max]

    func testLocalDateTimeFromAnyNumberOfSeconds() {
        for s in Self.seconds {
            let d = LocalDateTime(secondsAsIfUTC: s)
            if let d {
                XCTAssertTrue((1...9999).contains(d.year), "\(s)")
                XCTAssertEqual(d.secondsAsIfUTC, s, "round trip of \(s)")
            }
        }
        XCTAssertNil(LocalDateTime(secondsAsIfUTC: .min))
        XCTAssertNil(LocalDateTime(secondsAsIfUTC: .max))
        XCTAssertEqual(LocalDateTime(secondsAsIfUTC: -62_135_596_800)?.year, 1)
        XCTAssertEqual(LocalDateTime(secondsAsIfUTC: 253_402_300_799)?.year, 9999)
        XCTAssertNil(LocalDateTime(secondsAsIfUTC: 253_402_300_800), "year 10000")
    }

    func testFileTimesAtTheExtremes() {
        for s in Self.seconds {
            for ns in Self.nanoseconds {
                let f = FileFacts(
                    type: .regular, size: .max, inode: .max, device: .max, modification: (s, ns), change: (s, ns),
                    birth: (s, ns))
                let times = f.fileTimes
                _ = f.key.modifiedSeconds
                if let t = times {
                    XCTAssertTrue((1...9999).contains(t.modification.year))
                }
                // The whole pipeline, with such times and a file that has no other date.
                let asset = Inspector.inspect(bytes: [0xFF, 0xD8, 0xFF, 0xD9], path: "y.jpg", fileTimes: times)
                if let c = asset.captured {
                    _ = c.epochSeconds(assuming: utcZone)
                    _ = c.rendered(in: TimeZone(identifier: "Pacific/Kiritimati") ?? utcZone)
                    _ = AssetReport(zone: utcZone).json(asset)
                }
            }
        }
    }

    /// An `mvhd` creation time at the ends of its field is unset (zero, or past Int64), skipped
    /// with a diagnostic (before 1970 and too small for Unix seconds, or past year 9999), or
    /// the instant it says; an all-ones duration means "unknown" [ISO 14496-12 8.2.2.3].
    func testQuickTimeTimesAtTheExtremes() {
        let skipped = "skipped"
        let skippedLate = "skipped late"
        let lastOf32Bits = "2040-02-06T06:28:15Z"  // 0xFFFFFFFF seconds after 1904
        let cases: [(version: UInt8, creation: UInt64, expected: String?)] = [
            (0, 0, nil), (0, 1, skipped), (0, UInt64(UInt32.max), lastOf32Bits),
            // Version 0 holds 32 bits: the larger values arrive cut to their low half.
            (0, UInt64(Int64.max) - 1, "2040-02-06T06:28:14Z"), (0, UInt64(Int64.max), lastOf32Bits), (0, .max, lastOf32Bits),
            (1, 0, nil), (1, 1, skipped), (1, UInt64(UInt32.max), lastOf32Bits),
            (1, UInt64(Int64.max) - 1, skippedLate), (1, UInt64(Int64.max), nil), (1, .max, nil),
        ]
        for (version, creation, expected) in cases {
            var b: [UInt8] = [version, 0, 0, 0]
            func be(_ v: UInt64, _ n: Int) {
                for i in (0..<n).reversed() { b.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
            }
            let width = version == 1 ? 8 : 4
            be(creation, width)
            be(creation, width)
            be(UInt64(UInt32.max), 4)
            be(.max, width)
            var qt = QuickTimeReader.Atoms()
            QuickTimeReader.readMovieHeader(b, into: &qt)
            let what = "version \(version), creation \(creation)"
            XCTAssertNil(qt.durationSeconds, what)
            let clues = qt.movieDate.map { [DateClue(.quickTimeMovieHeader, $0)] } ?? []
            let (date, diagnostics) = CaptureDateResolver.resolve(DateEvidence(clues: clues, fileName: "clip.mov"))
            _ = date?.epochSeconds(assuming: utcZone)
            switch expected {
            case nil:
                XCTAssertNil(qt.movieDate, what)
                XCTAssertNil(date, what)
            case skipped:
                XCTAssertNil(date, what)
                XCTAssertEqual(diagnostics, [Diagnostic("date", "quicktime.mvhd creation time is before 1970; skipped")], what)
            case skippedLate:
                XCTAssertNil(date, what)
                XCTAssertEqual(
                    diagnostics, [Diagnostic("date", "quicktime.mvhd creation time is after the year 9999; skipped")], what)
            default:
                XCTAssertEqual(date?.source, .quickTimeMovieHeader, what)
                XCTAssertEqual(date?.rendered(in: utcZone).utc, expected, what)
                XCTAssertEqual(diagnostics, [], what)
            }
        }
    }

    func testDateTextAndNamesAtTheExtremes() {
        let texts = [
            "9999:12:31 23:59:59", "0000:00:00 00:00:00", "99999999999999999999:01:01 00:00:00",
            "2024:01:01 00:00:00.99999999999999999999", "2024-01-01T00:00:00+99:99", "2024:02:30 25:61:61",
        ]
        for t in texts {
            _ = DateTextParser.exif(t)
            _ = DateTextParser.iso8601(t)
            _ = DateTextParser.subSecond(t)
            _ = DateTextParser.offset(t)
        }
        for name in ["mmexport9999999999999.jpg", "mmexport0000000000000.jpg", "IMG_99999999_999999.jpg", "1999999999999.jpg"] {
            _ = FileNameDateParser.parse(name)
        }
        // A GPS time of day that is not a number never becomes an offset.
        let local = LocalDateTime(year: 2024, month: 1, day: 1)!
        var exif = ExifRecord()
        exif.gpsDateStamp = "2024:01:01"
        for t in [Double.nan, .infinity, -.infinity, .greatestFiniteMagnitude] {
            exif.gpsTimeOfDay = t
            var notes: [Diagnostic] = []
            XCTAssertNil(CaptureDateResolver.gpsOffset(local: local, exif: exif, &notes))
        }
    }

    /// The real thing where the file system allows it (tmpfs keeps any time; ext4 clamps).
    func testAFileTimeFarBeforeYearOne() throws {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let dir = base + "/photometa-extreme-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/y.jpg"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([0xFF, 0xD8, 0xFF, 0xD9])))
        var times = [
            timespec(tv_sec: -9_223_372_036_854_775_000, tv_nsec: 0), timespec(tv_sec: -9_223_372_036_854_775_000, tv_nsec: 0),
        ]
        _ = utimensat(AT_FDCWD, path, &times, 0)
        let asset = FileInspector.inspect(path: path)
        XCTAssertNil(asset.error)
        let state = try TemporaryDirectory()
        var o = Suggester.Options(settings: SuggestionSettings(zone: utcZone))
        o.statePath = state.path + "/state.sqlite3"
        o.indexPath = state.path + "/index.sqlite3"
        o.record = false
        let outcome = try Suggester(options: o).run(folder: dir)
        XCTAssertEqual(outcome.decision.considered, 1)
        // Twice: the second run reads the row back from the index.
        XCTAssertEqual(try Suggester(options: o).run(folder: dir).decision.considered, 1)
    }
}

/// Expansions bounded in total per file, and libexif's maker-note work bounded (issue 13,
/// items 2 and 4), on the crafted files of Fixtures/make_regressions.py.
final class ExpansionBoundTests: XCTestCase {
    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("fuzz/" + name)))
    }

    func testCompressedTextInflatesWithinOneBudgetPerFile() throws {
        let file = try bytes("png-xmp-inflate-bomb")
        let p = PNGReader.read(BoundedReader(MemoryByteSource(file)))
        XCTAssertLessThanOrEqual(p.expandedText, Limits.expandedTextMax)
        XCTAssertLessThanOrEqual(p.xmp.reduce(0) { $0 + $1.count }, Limits.expandedTextMax)
        XCTAssertEqual(p.xmp.count, Limits.expandedTextMax / (1 << 20), "4 of the 100 packets kept")
        let notes = p.diagnostics.filter { $0.message.contains("text budget") }
        XCTAssertEqual(notes.count, 1, "one note, not one per chunk: \(p.diagnostics)")
        let asset = Inspector.inspect(bytes: file, path: "bomb.png")
        XCTAssertNil(asset.error)
    }

    func testAnInflatedChunkIsTheSizeItSays() {
        let packet = [UInt8](repeating: 0x20, count: 200_000)
        // zlib stored blocks: a stream any inflater accepts, made without a compressor.
        var stream: [UInt8] = [0x78, 0x01]
        var rest = packet[...]
        while !rest.isEmpty {
            let n = min(rest.count, 65_535)
            let last: UInt8 = rest.count == n ? 1 : 0
            stream += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            stream += rest.prefix(n)
            rest = rest.dropFirst(n)
        }
        var a: UInt32 = 1
        var b: UInt32 = 0
        for x in packet {
            a = (a + UInt32(x)) % 65_521
            b = (b + a) % 65_521
        }
        let adler = b << 16 | a
        stream += [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
        XCTAssertEqual(Inflater.inflate(stream[...], limit: 200_000), .complete(packet))
        XCTAssertEqual(Inflater.inflate(stream[...], limit: 199_999), .tooLarge)
        XCTAssertEqual(Inflater.inflate(stream.dropLast(10), limit: 1 << 20), .corrupt)
    }

    func testAnOlympusMakerNoteIsNeverAskedForValues() throws {
        let file = try bytes("jpeg-olympus-makernote-spin")
        let asset = Inspector.inspect(bytes: file, path: "olympus.jpg")
        XCTAssertEqual(asset.make, "OLYMPUS")
        XCTAssertNil(asset.contentIdentifier)
    }
}
