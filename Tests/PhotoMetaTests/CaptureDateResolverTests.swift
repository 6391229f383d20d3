import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// One test per rule of the precedence table and per offset rule.
final class CaptureDateResolverTests: XCTestCase {
    func resolve(_ e: DateEvidence) -> (CaptureDate?, [Diagnostic]) {
        let r = CaptureDateResolver.resolve(e)
        return (r.date, r.diagnostics)
    }

    func exif(_ build: (inout ExifRecord) -> Void) -> ExifRecord {
        var x = ExifRecord()
        build(&x)
        return x
    }

    let fileTimes = FileTimes(
        birth: LocalDateTime(year: 2001, month: 2, day: 3, hour: 4, minute: 5, second: 6),
        modification: LocalDateTime(year: 2002, month: 2, day: 3)!)

    func testRule1DateTimeOriginalWithSubSecAndItsOwnOffset() {
        let x = exif {
            $0.dateTimeOriginal = "2024:03:15 09:30:12"
            $0.subSecTimeOriginal = "25"
            $0.offsetTimeOriginal = "+08:00"
            $0.dateTimeDigitized = "2024:03:15 09:30:13"
            $0.dateTime = "2024:03:16 10:00:00"
            $0.offsetTime = "+00:00"
        }
        let (d, _) = resolve(DateEvidence(exif: x, fileName: "x.jpg"))
        XCTAssertEqual(d?.source, .exifDateTimeOriginal)
        let r = d?.rendered(in: utcZone)
        XCTAssertEqual(r?.local, "2024-03-15T09:30:12.25")
        XCTAssertEqual(r?.offset, "+08:00")
        XCTAssertEqual(r?.utc, "2024-03-15T01:30:12.25Z")
        XCTAssertEqual(r?.offsetSource, .offsetTimeOriginal)
        XCTAssertNil(r?.assumed)
    }

    func testOffsetTimeNeverAppliesToDateTimeOriginal() {
        let x = exif {
            $0.dateTimeOriginal = "2024:03:15 09:30:12"
            $0.offsetTime = "+00:00"
        }
        let r = resolve(DateEvidence(exif: x, fileName: "x.jpg")).0?.rendered(in: TimeZone(identifier: "Asia/Tokyo")!)
        XCTAssertNil(r?.offset)
        XCTAssertNil(r?.utc)
        XCTAssertEqual(r?.assumed?.zone, "Asia/Tokyo")
        XCTAssertEqual(r?.assumed?.offset, "+09:00")
        XCTAssertEqual(r?.assumed?.utc, "2024-03-15T00:30:12Z")
    }

    func testRule2DateTimeDigitizedWhenOriginalIsPlaceholder() {
        let x = exif {
            $0.dateTimeOriginal = "0000:00:00 00:00:00"
            $0.dateTimeDigitized = "2024:03:15 09:30:12"
            $0.offsetTimeDigitized = "-05:00"
            $0.subSecTimeDigitized = "5"
        }
        let (d, diags) = resolve(DateEvidence(exif: x, fileName: "x.jpg"))
        XCTAssertEqual(d?.source, .exifDateTimeDigitized)
        XCTAssertEqual(d?.rendered(in: utcZone).utc, "2024-03-15T14:30:12.5Z")
        XCTAssertEqual(d?.rendered(in: utcZone).offsetSource, .offsetTimeDigitized)
        XCTAssertTrue(diags.contains { $0.message.contains("placeholder") }, "\(diags)")
    }

    func testRule3QuickTimeKeysThenMovieHeader() {
        let keys = DateClue(.quickTimeCreationDate, .text("2024-05-01T10:20:30+0200", .iso8601))
        let mvhd = DateClue(.quickTimeMovieHeader, QuickTimeReader.movieDate(secondsSince1904: 1_714_551_630 + 2_082_844_800))
        XCTAssertEqual(resolve(DateEvidence(clues: [mvhd, keys], fileName: "x.mov")).0?.source, .quickTimeCreationDate)
        let d = resolve(DateEvidence(clues: [mvhd], fileName: "x.mov")).0
        XCTAssertEqual(d?.source, .quickTimeMovieHeader)
        XCTAssertEqual(d?.rendered(in: utcZone).utc, "2024-05-01T08:20:30Z")
        XCTAssertTrue(d?.isExact == true, "mvhd is an instant")
    }

    func testMovieHeaderZeroIsSkipped() {
        let mvhd = DateClue(.quickTimeMovieHeader, QuickTimeReader.movieDate(secondsSince1904: 0))
        let (d, diags) = resolve(DateEvidence(clues: [mvhd], fileName: "x.mov", fileTimes: fileTimes))
        XCTAssertEqual(d?.source, .fileBirthTime)
        XCTAssertFalse(diags.isEmpty)
    }

    /// A writer that counted from 1970 instead of 1904: the raw value read as Unix seconds, as
    /// exiftool patches it; a raw value too small for a clock (before 1990) is still skipped.
    func testMovieHeaderCountedFromTheUnixEpoch() {
        // 2008-08-08T23:40:15Z as Unix seconds
        var mvhd = DateClue(.quickTimeMovieHeader, QuickTimeReader.movieDate(secondsSince1904: 1_218_238_815))
        let (d, diags) = resolve(DateEvidence(clues: [mvhd], fileName: "x.mp4", fileTimes: fileTimes))
        XCTAssertEqual(d?.source, .quickTimeMovieHeader)
        XCTAssertEqual(d?.rendered(in: utcZone).utc, "2008-08-08T23:40:15Z")
        XCTAssertTrue(diags.contains { $0.message.contains("counts from 1970") }, "\(diags)")
        mvhd.value = QuickTimeReader.movieDate(secondsSince1904: 86_400)  // one day after power-on
        XCTAssertEqual(resolve(DateEvidence(clues: [mvhd], fileName: "x.mp4", fileTimes: fileTimes)).0?.source, .fileBirthTime)
    }

    func testRule4XMPOrder() {
        var xmp = XMPRecord()
        xmp.createDate = "2020-01-01T00:00:00"
        xmp.dateCreated = "2020-01-02T00:00:00"
        XCTAssertEqual(resolve(DateEvidence(xmp: xmp, fileName: "x")).0?.source, .xmpDateCreated)
        xmp.dateTimeOriginal = "2020-01-03T00:00:00+01:00"
        let d = resolve(DateEvidence(xmp: xmp, fileName: "x")).0
        XCTAssertEqual(d?.source, .xmpDateTimeOriginal)
        XCTAssertEqual(d?.rendered(in: utcZone).offsetSource, .embedded)
    }

    /// A year or a month only (a scan's XMP): the period's first day, said in a diagnostic,
    /// where it ranks; never the file's times or a name of the day of the scan, which lie
    /// outside it; a later source's full date inside the period is taken instead.
    func testAYearOrMonthOnlyRanksWhereItsSourceDoes() {
        var xmp = XMPRecord()
        xmp.createDate = "1987-05"
        let (d, diags) = resolve(DateEvidence(xmp: xmp, fileName: "IMG_20240101_120000.jpg", fileTimes: fileTimes))
        XCTAssertEqual(d?.source, .xmpCreateDate)
        XCTAssertEqual(d?.rendered(in: utcZone).local, "1987-05-01")
        XCTAssertTrue(
            diags.contains(Diagnostic("date", "xmp.CreateDate gives the month only (1987-05): the date is its first day")),
            "\(diags)")
        // EXIF's DateTime ranks below XMP's dates; inside the year XMP gives, it says more.
        xmp.createDate = "2019"
        let x = exif { $0.dateTime = "2019:06:01 10:00:00" }
        let (inside, insideDiags) = resolve(DateEvidence(exif: x, xmp: xmp, fileName: "x.jpg"))
        XCTAssertEqual(inside?.source, .exifDateTime)
        XCTAssertEqual(inside?.rendered(in: utcZone).local, "2019-06-01T10:00:00")
        XCTAssertFalse(insideDiags.contains { $0.message.contains("year only") }, "\(insideDiags)")
        // Outside it, XMP's year stands.
        let outside = resolve(DateEvidence(exif: exif { $0.dateTime = "2020:06:01 10:00:00" }, xmp: xmp, fileName: "x.jpg")).0
        XCTAssertEqual(outside?.source, .xmpCreateDate)
        XCTAssertEqual(outside?.rendered(in: utcZone).local, "2019-01-01")
        // A sidecar's first field gives the year, a later one the day: the day, as before
        // such a year was read at all.
        let sidecar = [
            DateClue(.sidecarXMP, .text("1987", .iso8601)), DateClue(.sidecarXMP, .text("1987-05-12", .iso8601)),
        ]
        let (both, bothDiags) = resolve(DateEvidence(clues: sidecar, fileName: "scan.jpg", fileTimes: fileTimes))
        XCTAssertEqual(both?.rendered(in: utcZone).local, "1987-05-12")
        XCTAssertFalse(bothDiags.contains { $0.message.contains("year only") }, "\(bothDiags)")
    }

    func testRule5PNGCreationTimeBeatsModifyDate() {
        let x = exif { $0.dateTime = "2021:01:01 00:00:00" }
        let d = resolve(
            DateEvidence(exif: x, clues: [DateClue(.pngCreationTime, .text("2019:01:01 00:00:00", .freeform))], fileName: "x.png")
        ).0
        XCTAssertEqual(d?.source, .pngCreationTime)
    }

    /// GPS date and time: an instant, below every date the file states as its capture's and
    /// above DateTime (the last edit's), as files stripped of DateTimeOriginal still carry it.
    func testGPSDateAndTimeWhenNoCaptureDate() {
        var x = exif {
            $0.gpsDateStamp = "2023:11:15"
            $0.gpsTimeOfDay = 8 * 3600 + 30 * 60 + 0.5
            $0.dateTime = "2024:01:01 10:00:00"
        }
        let d = resolve(DateEvidence(exif: x, fileName: "IMG_20240315_093012.jpg", fileTimes: fileTimes)).0
        XCTAssertEqual(d?.source, .exifGPSDateTime)
        XCTAssertTrue(d?.isExact == true, "an instant")
        XCTAssertEqual(d?.rendered(in: TimeZone(identifier: "Asia/Tokyo")!).utc, "2023-11-15T08:30:00.500Z")
        // A capture date the file states wins; GPS lends it its offset instead.
        x.dateTimeOriginal = "2023:11:15 17:30:00"
        let original = resolve(DateEvidence(exif: x, fileName: "x.jpg")).0
        XCTAssertEqual(original?.source, .exifDateTimeOriginal)
        XCTAssertEqual(original?.rendered(in: utcZone).offset, "+09:00")
        // A date without a time is no time of capture; a date before GPS time began is a
        // receiver's placeholder.
        let dateOnly = exif { $0.gpsDateStamp = "2023:11:15" }
        XCTAssertNil(resolve(DateEvidence(exif: dateOnly, fileName: "x.jpg")).0)
        let placeholder = exif {
            $0.gpsDateStamp = "1970:01:01"
            $0.gpsTimeOfDay = 0
        }
        let (none, why) = resolve(DateEvidence(exif: placeholder, fileName: "x.jpg"))
        XCTAssertNil(none)
        XCTAssertEqual(why.map(\.message), ["exif.GPSDateStamp '1970:01:01' is not a usable date; skipped"])
    }

    /// A phone that writes DateTime but no DateTimeOriginal, at the GPS fix's moment: DateTime
    /// says the wall clock too, and GPS its offset. An edit's DateTime, days later, does not.
    func testGPSYieldsToADateTimeAtTheSameMoment() {
        var x = exif {
            $0.gpsDateStamp = "2022:01:12"
            $0.gpsTimeOfDay = 7 * 3600 + 30 * 60 + 14
            $0.dateTime = "2022:01:12 09:30:40"
        }
        let same = resolve(DateEvidence(exif: x, fileName: "x.heif")).0
        XCTAssertEqual(same?.source, .exifDateTime, "26 s after the fix, two hours east")
        XCTAssertEqual(same?.rendered(in: utcZone).offset, "+02:00")
        XCTAssertEqual(same?.rendered(in: utcZone).offsetSource, .gps)
        x.dateTime = "2022:01:15 11:02:00"
        XCTAssertEqual(resolve(DateEvidence(exif: x, fileName: "x.heif")).0?.source, .exifGPSDateTime)
        x.dateTime = "2022:01:12 09:37:40"
        XCTAssertEqual(resolve(DateEvidence(exif: x, fileName: "x.heif")).0?.source, .exifGPSDateTime, "not a whole zone")
    }

    func testXMPGPSTimeStampIsUTCUnlessItSaysOtherwise() {
        for (text, utc) in [
            ("2023-12-01T13:45:30Z", "2023-12-01T13:45:30Z"), ("2023-12-01T13:45:30", "2023-12-01T13:45:30Z"),
            ("2023-12-01T14:45:30+01:00", "2023-12-01T13:45:30Z"),
        ] {
            var xmp = XMPRecord()
            xmp.gpsTimeStamp = text
            let d = resolve(DateEvidence(xmp: xmp, fileName: "x.jpg")).0
            XCTAssertEqual(d?.source, .xmpGPSTimeStamp, text)
            XCTAssertEqual(d?.rendered(in: utcZone).utc, utc, text)
            XCTAssertTrue(d?.isExact == true, text)
        }
        // Below the file's other XMP dates.
        var both = XMPRecord()
        both.gpsTimeStamp = "2023-12-01T13:45:30Z"
        both.createDate = "2023-12-01T14:45:00"
        XCTAssertEqual(resolve(DateEvidence(xmp: both, fileName: "x.jpg")).0?.source, .xmpCreateDate)
        for text in ["1970-01-01T00:00:00Z", "2023-12-01"] {
            var early = XMPRecord()
            early.gpsTimeStamp = text
            let (none, why) = resolve(DateEvidence(xmp: early, fileName: "x.jpg"))
            XCTAssertNil(none, text)
            XCTAssertEqual(why.count, 1, "\(text): \(why)")
        }
    }

    func testRule6DateTimeWithOffsetTime() {
        let x = exif {
            $0.dateTime = "2021:01:02 03:04:05"
            $0.offsetTime = "+01:00"
        }
        let d = resolve(DateEvidence(exif: x, fileName: "IMG_20240315_093012.jpg")).0
        XCTAssertEqual(d?.source, .exifDateTime)
        XCTAssertEqual(d?.rendered(in: utcZone).offsetSource, .offsetTime)
    }

    func testRule7FileName() {
        let d = resolve(DateEvidence(fileName: "IMG_20240315_093012.jpg", fileTimes: fileTimes)).0
        XCTAssertEqual(d?.source, .fileName)
        XCTAssertFalse(d?.isExact ?? true)
        let w = resolve(DateEvidence(fileName: "mmexport1700000000000.jpg")).0
        XCTAssertEqual(w?.rendered(in: utcZone).utc, "2023-11-14T22:13:20.000Z")
        XCTAssertTrue(w?.isExact == true)
    }

    func testRule8FileTimes() {
        XCTAssertEqual(resolve(DateEvidence(fileName: "a.jpg", fileTimes: fileTimes)).0?.source, .fileBirthTime)
        let noBirth = FileTimes(birth: nil, modification: LocalDateTime(year: 2002, month: 2, day: 3)!)
        let d = resolve(DateEvidence(fileName: "a.jpg", fileTimes: noBirth)).0
        XCTAssertEqual(d?.source, .fileModificationTime)
        XCTAssertEqual(d?.rendered(in: utcZone).utc, "2002-02-03T00:00:00Z")
        XCTAssertNil(resolve(DateEvidence(fileName: "a.jpg")).0)
    }

    func testGPSDerivedOffset() {
        let x = exif {
            $0.dateTimeOriginal = "2023:07:01 14:05:00"
            $0.gpsDateStamp = "2023:07:01"
            $0.gpsTimeOfDay = 12 * 3600 + 5 * 60 + 7
        }
        let r = resolve(DateEvidence(exif: x, fileName: "x")).0?.rendered(in: utcZone)
        XCTAssertEqual(r?.offset, "+02:00", "a fix 7 s behind the shutter")
        XCTAssertEqual(r?.offsetSource, .gps)
    }

    /// A fix many minutes old (the last one a camera synced) is no zone: Paris at 10:11:12 with
    /// a fix of 08:03:00 UTC would round to +02:15. No offset then, and a note; a fix within five
    /// minutes of a zone's offset still gives it, Nepal's +05:45 included.
    func testAStaleGPSFixGivesNoOffset() {
        for (gps, offset) in [
            (8 * 3600 + 3 * 60, nil), (7 * 3600 + 31 * 60, nil), (8 * 3600 + 10 * 60 + 12, "+02:00"),
            (8 * 3600 + 12 * 60 + 12, "+02:00"), (8 * 3600 + 15 * 60 + 12, "+02:00"), (8 * 3600 + 17 * 60 + 13, nil),
            (8 * 3600 + 6 * 60 + 11, nil), (4 * 3600 + 26 * 60 + 12, "+05:45"),
            (7 * 3600 + 56 * 60 + 12, nil),
        ] as [(Double, String?)] {
            let x = exif {
                $0.dateTimeOriginal = "2024:05:01 10:11:12"
                $0.gpsDateStamp = "2024:05:01"
                $0.gpsTimeOfDay = gps
            }
            let (d, notes) = resolve(DateEvidence(exif: x, fileName: "x"))
            XCTAssertEqual(d?.source, .exifDateTimeOriginal)
            XCTAssertEqual(d?.rendered(in: utcZone).offset, offset, "GPS \(gps)")
            XCTAssertEqual(
                notes.contains { $0.message.contains("not a zone's offset") }, offset == nil, "GPS \(gps): \(notes)")
        }
    }

    func testGPSOffsetAcrossMidnightAndBeyond14Hours() {
        let across = exif {
            $0.dateTimeOriginal = "2023:07:01 01:00:00"
            $0.gpsDateStamp = "2023:06:30"
            $0.gpsTimeOfDay = 17 * 3600
        }
        XCTAssertEqual(resolve(DateEvidence(exif: across, fileName: "x")).0?.rendered(in: utcZone).offset, "+08:00")
        let far = exif {
            $0.dateTimeOriginal = "2023:07:01 14:05:00"
            $0.gpsDateStamp = "2023:06:29"
            $0.gpsTimeOfDay = 0
        }
        XCTAssertNil(resolve(DateEvidence(exif: far, fileName: "x")).0?.rendered(in: utcZone).offset)
    }

    func testMalformedValuesFallThroughWithDiagnostics() {
        let x = exif {
            $0.dateTimeOriginal = "2024:13:45 99:00:00"
            $0.subSecTimeOriginal = "xx"
        }
        let (d, diags) = resolve(DateEvidence(exif: x, fileName: "Screenshot_20240101-120000.png"))
        XCTAssertEqual(d?.source, .fileName)
        XCTAssertTrue(diags.contains { $0.message.contains("impossible") }, "\(diags)")
    }

    func testDateOnlyNamesGetAFullAssumedUTC() {
        let d = resolve(DateEvidence(fileName: "IMG-20240315-WA0001.jpg")).0
        let r = d?.rendered(in: TimeZone(identifier: "Asia/Shanghai")!)
        XCTAssertEqual(r?.local, "2024-03-15")
        XCTAssertEqual(r?.assumed?.utc, "2024-03-14T16:00:00Z", "local midnight, in UTC")
    }

    func testInstantShownInZone() {
        let d = CaptureDate(.instant(utc: LocalDateTime(year: 2024, month: 1, day: 1, hour: 0)!), source: .fileModificationTime)
        let r = d.rendered(in: TimeZone(identifier: "Asia/Shanghai")!)
        XCTAssertEqual(r.local, "2024-01-01T08:00:00")
        XCTAssertEqual(r.offset, "+08:00")
        XCTAssertEqual(r.utc, "2024-01-01T00:00:00Z")
        XCTAssertEqual(r.offsetSource, .zone)
    }
}

/// "Dates after next year" in names are refused with a diagnostic: the caller's clock says
/// which year that is (`DateEvidence.latestNameYear`), the core reads none.
final class NameYearBoundTests: XCTestCase {
    func testANameDatedAfterNextYearIsRefused() {
        let later = CaptureDateResolver.resolve(DateEvidence(fileName: "IMG_20290101_120000.jpg", latestNameYear: 2027))
        XCTAssertNil(later.0)
        XCTAssertTrue(later.1.contains { $0.message.contains("after 2027") }, "\(later.1)")
        let next = CaptureDateResolver.resolve(DateEvidence(fileName: "IMG_20271231_120000.jpg", latestNameYear: 2027))
        XCTAssertEqual(next.0?.source, .fileName)
        let unbounded = CaptureDateResolver.resolve(DateEvidence(fileName: "IMG_20290101_120000.jpg"))
        XCTAssertEqual(unbounded.0?.source, .fileName, "without a clock only 1990-2100 applies")
    }

    /// Through the binary, with the real clock: a name dated ten years ahead gives no date.
    func testInspectRefusesAFarFutureName() throws {
        let dir = try TemporaryDirectory(prefix: "pm-future")
        let year = Calendar(identifier: .gregorian).component(.year, from: Date()) + 10
        let path = try dir.write("IMG_\(year)0101_120000.jpg", try TestPaths.bytes("mmexport1700000000000.jpg"))
        let asset = FileInspector.inspect(path: path)
        XCTAssertNotEqual(asset.captured?.source, .fileName)
        XCTAssertTrue(asset.diagnostics.contains { $0.message.contains("after \(year - 9)") }, "\(asset.diagnostics)")
    }
}
