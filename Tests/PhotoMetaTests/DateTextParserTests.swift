import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

final class DateTextParserTests: XCTestCase {
    func local(_ r: Result<DateTextParser.Stamp, DateTextParser.Rejection>) -> String? {
        if case .success(let s) = r { return s.local.iso8601 + (s.offset?.description ?? "") }
        return nil
    }

    func rejection(_ r: Result<DateTextParser.Stamp, DateTextParser.Rejection>) -> DateTextParser.Rejection? {
        if case .failure(let f) = r { return f }
        return nil
    }

    func testRIFFDates() {
        XCTAssertEqual(local(DateTextParser.riff("Sat Mar 17 09:15:42 2012")), "2012-03-17T09:15:42")
        XCTAssertEqual(local(DateTextParser.riff("Mon Jan  5 23:00:01 2009")), "2009-01-05T23:00:01")  // space-padded day
        XCTAssertEqual(local(DateTextParser.riff("2005:08:17 11:42:43")), "2005-08-17T11:42:43")
        XCTAssertEqual(local(DateTextParser.riff("2005-08-17T11:42:43+02:00")), "2005-08-17T11:42:43+02:00")
        XCTAssertNil(local(DateTextParser.riff("Sat Foo 17 09:15:42 2012")))
        // Cameras' own forms, as exiftool's ConvertRIFFDate reads them (Casio, Konica).
        XCTAssertEqual(local(DateTextParser.riff("2001/ 1/27  1:42PM")), "2001-01-27T13:42:00")
        XCTAssertEqual(local(DateTextParser.riff("2005/11/28/ 09:19")), "2005-11-28T09:19:00")
        XCTAssertEqual(local(DateTextParser.riff("2002-12-16  15:35:01")), "2002-12-16T15:35:01")
        XCTAssertEqual(local(DateTextParser.riff("2012/03/17 09:15:42")), "2012-03-17T09:15:42")
        XCTAssertEqual(local(DateTextParser.riff("2001/ 1/27 12:05PM")), "2001-01-27T12:05:00", "noon")
        XCTAssertEqual(local(DateTextParser.riff("2001/ 1/27 12:05AM")), "2001-01-27T00:05:00", "midnight")
        XCTAssertNil(local(DateTextParser.riff("2001/ 1/27 13:05PM")))
        XCTAssertNil(local(DateTextParser.riff("2001/13/27 10:05")))
        XCTAssertNil(local(DateTextParser.riff("2001/1-27 10:05")), "one separator")
        XCTAssertNil(local(DateTextParser.riff("Sat Feb 30 09:15:42 2012")))
        XCTAssertNil(local(DateTextParser.riff("Sat Mar 17 25:15:42 2012")))
        XCTAssertNil(local(DateTextParser.riff("")))
    }

    func testEXIFDate() {
        XCTAssertEqual(local(DateTextParser.exif("2024:03:15 09:30:12")), "2024-03-15T09:30:12")
        XCTAssertEqual(local(DateTextParser.exif("2024-03-15 09:30:12")), "2024-03-15T09:30:12")
        XCTAssertEqual(local(DateTextParser.exif("2024:03:15 09:30:12+08:00")), "2024-03-15T09:30:12+08:00")
        XCTAssertEqual(local(DateTextParser.exif(" 2024:03:15 09:30:12 ")), "2024-03-15T09:30:12")
    }

    func testPlaceholders() {
        XCTAssertEqual(rejection(DateTextParser.exif("0000:00:00 00:00:00")), .placeholder)
        XCTAssertEqual(rejection(DateTextParser.exif("    :  :     :  :  ")), .placeholder)
        XCTAssertEqual(rejection(DateTextParser.exif("")), .placeholder)
    }

    func testMalformedAndImpossible() {
        XCTAssertEqual(rejection(DateTextParser.exif("2024/03/15 09:30:12")), .malformed)
        XCTAssertEqual(rejection(DateTextParser.exif("yesterday")), .malformed)
        XCTAssertEqual(rejection(DateTextParser.exif("2024:03:15")), .malformed, "EXIF needs a time")
        XCTAssertEqual(rejection(DateTextParser.exif("2024:13:15 09:30:12")), .impossible)
        XCTAssertEqual(rejection(DateTextParser.exif("2023:02:29 09:30:12")), .impossible)
        XCTAssertEqual(rejection(DateTextParser.exif("2024:03:15 24:00:00")), .impossible)
    }

    func testISO8601() {
        XCTAssertEqual(local(DateTextParser.iso8601("2024-05-01T10:20:30+0200")), "2024-05-01T10:20:30+02:00")
        XCTAssertEqual(local(DateTextParser.iso8601("2020-05-06T07:08:09.5-07:00")), "2020-05-06T07:08:09.5-07:00")
        XCTAssertEqual(local(DateTextParser.iso8601("2016-03-23T13:26:36Z")), "2016-03-23T13:26:36+00:00")
        XCTAssertEqual(local(DateTextParser.iso8601("2019-11-11T11:11")), "2019-11-11T11:11:00")
        XCTAssertEqual(local(DateTextParser.iso8601("2004-06-21")), "2004-06-21")
    }

    /// ISO 8601's reduced precision, as XMP writes a scan's date nobody knows to the day
    /// [XMP Part 1 8.2.1.1]: the period's first day, a date without a time, marked reduced;
    /// IPTC says the same with `00` [IIM 4.1, 2:55]. EXIF's own form never allows it.
    func testYearAndMonthOnly() throws {
        let month = try DateTextParser.iso8601("1987-05").get()
        XCTAssertEqual(month.local.iso8601, "1987-05-01")
        XCTAssertFalse(month.local.hasTime)
        XCTAssertEqual(month.reduced, .month)
        let year = try DateTextParser.iso8601("1987").get()
        XCTAssertEqual(year.local.iso8601, "1987-01-01")
        XCTAssertEqual(year.reduced, .year)
        XCTAssertNil(try DateTextParser.iso8601("1987-05-02").get().reduced)
        XCTAssertEqual(DateTextParser.iso8601("1987-13"), .failure(.impossible))
        XCTAssertEqual(DateTextParser.iso8601("1987-5"), .failure(.malformed))
        XCTAssertEqual(DateTextParser.iso8601("198"), .failure(.malformed))
        XCTAssertEqual(DateTextParser.iso8601("0000"), .failure(.placeholder))
        XCTAssertEqual(DateTextParser.exif("1987:05"), .failure(.malformed))
        XCTAssertEqual(DateTextParser.exif("1987"), .failure(.malformed))
        XCTAssertEqual(try DateTextParser.iptc("19870500").get().reduced, .month)
        XCTAssertEqual(try DateTextParser.iptc("19870000").get().local.iso8601, "1987-01-01")
        XCTAssertEqual(DateTextParser.iptc("00000000"), .failure(.placeholder))
        XCTAssertNil(try DateTextParser.iptc("19870502").get().reduced)
    }

    func testRFC1123ForPNG() {
        XCTAssertEqual(local(DateTextParser.freeform("Sat, 06 May 2020 07:08:09 +0000")), "2020-05-06T07:08:09+00:00")
        XCTAssertEqual(local(DateTextParser.freeform("6 May 2020 07:08:09 GMT")), "2020-05-06T07:08:09+00:00")
        XCTAssertEqual(local(DateTextParser.freeform("2020:05:06 07:08:09")), "2020-05-06T07:08:09")
    }

    /// GNOME Shell's `Creation Time`: GLib's `%c` in the C, en_US and en_GB locales, and its
    /// fallback `%FT%T%z` (gnome-shell src/shell-screenshot.c).
    func testGLibDateTimeForPNG() {
        XCTAssertEqual(local(DateTextParser.freeform("Fri Mar  7 14:05:09 2025")), "2025-03-07T14:05:09")
        XCTAssertEqual(local(DateTextParser.freeform("Fri 07 Mar 2025 02:05:09 PM CET")), "2025-03-07T14:05:09")
        XCTAssertEqual(local(DateTextParser.freeform("Fri 07 Mar 2025 12:05:09 AM EST")), "2025-03-07T00:05:09")
        XCTAssertEqual(local(DateTextParser.freeform("Fri 07 Mar 2025 12:05:09 PM")), "2025-03-07T12:05:09")
        XCTAssertEqual(local(DateTextParser.freeform("Fri 07 Mar 2025 14:05:09 CET")), "2025-03-07T14:05:09")
        XCTAssertEqual(local(DateTextParser.freeform("Fri 07 Mar 2025 14:05:09 GMT")), "2025-03-07T14:05:09+00:00")
        XCTAssertEqual(local(DateTextParser.freeform("Fri 07 Mar 2025 18:05:09 +04")), "2025-03-07T18:05:09+04:00")
        XCTAssertEqual(local(DateTextParser.freeform("2025-03-07T14:05:09+0100")), "2025-03-07T14:05:09+01:00")
        // A 12-hour clock reads 1 to 12; other languages' month names are not guessed at.
        XCTAssertEqual(DateTextParser.freeform("Fri 07 Mar 2025 14:05:09 PM CET"), .failure(.malformed))
        XCTAssertEqual(DateTextParser.freeform("Fr 07 Mär 2025 14:05:09 CET"), .failure(.malformed))
        XCTAssertEqual(DateTextParser.freeform("Fri 07 Mar 2025 14:05:09 CET extra"), .failure(.malformed))
        XCTAssertEqual(DateTextParser.freeform("Fri 07 Mar 2025 14:05 CET"), .failure(.malformed))
        XCTAssertEqual(DateTextParser.freeform("Fri 31 Feb 2025 14:05:09 CET"), .failure(.malformed))
    }

    /// GNOME Shell's `Creation Time` in a Chinese, Japanese or Korean session (glibc's `%c`).
    func testCJKDateTimeForPNG() {
        XCTAssertEqual(local(DateTextParser.freeform("2025年03月07日 星期五 14时05分09秒")), "2025-03-07T14:05:09")
        XCTAssertEqual(local(DateTextParser.freeform("2025年03月07日 14時05分09秒")), "2025-03-07T14:05:09")
        XCTAssertEqual(local(DateTextParser.freeform("2025年03月07日 (星期五) 14時05分09秒")), "2025-03-07T14:05:09")
        XCTAssertEqual(local(DateTextParser.freeform("2025년 03월 07일 (금) 오후 02시 05분 09초")), "2025-03-07T14:05:09")
        XCTAssertEqual(local(DateTextParser.freeform("2025년 03월 07일 (금) 오전 12시 05분 09초")), "2025-03-07T00:05:09")
        XCTAssertEqual(DateTextParser.freeform("2025년 03월 07일 (금) 오후 14시 05분 09초"), .failure(.malformed))
        XCTAssertEqual(DateTextParser.freeform("2025年03月07日"), .failure(.malformed), "no time")
        XCTAssertEqual(DateTextParser.freeform("2025年13月07日 14时05分09秒"), .failure(.malformed), "month 13")
        XCTAssertEqual(DateTextParser.freeform("2025年03月07日 14时05分09秒 8"), .failure(.malformed))
        XCTAssertEqual(DateTextParser.freeform("03月2025年07日 14时05分09秒"), .failure(.malformed), "units out of order")
    }

    func testSubSecondIsADecimalFraction() {
        XCTAssertEqual(DateTextParser.subSecond("25")?.nanosecond, 250_000_000)
        XCTAssertEqual(DateTextParser.subSecond("25")?.digits, 2)
        XCTAssertEqual(DateTextParser.subSecond("054")?.nanosecond, 54_000_000)
        XCTAssertEqual(DateTextParser.subSecond("5  ")?.nanosecond, 500_000_000)
        XCTAssertNil(DateTextParser.subSecond("ab"))
        XCTAssertNil(DateTextParser.subSecond("  "))
    }

    func testOffsets() {
        XCTAssertEqual(DateTextParser.offset("+08:00")?.seconds, 8 * 3600)
        XCTAssertEqual(DateTextParser.offset("-05:30")?.seconds, -(5 * 3600 + 1800))
        XCTAssertEqual(DateTextParser.offset("+0800")?.seconds, 8 * 3600)
        XCTAssertEqual(DateTextParser.offset("Z")?.seconds, 0)
        XCTAssertNil(DateTextParser.offset("   :  "))
        XCTAssertNil(DateTextParser.offset("+15:00"), "beyond ±14 h")
        XCTAssertNil(DateTextParser.offset("08:00"))
    }

    func testCivilArithmetic() {
        let d = LocalDateTime(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59)!
        XCTAssertEqual(d.secondsAsIfUTC, 1_709_251_199)
        XCTAssertEqual(LocalDateTime(secondsAsIfUTC: 1_709_251_199)?.iso8601, "2024-02-29T23:59:59")
        XCTAssertEqual(LocalDateTime(secondsAsIfUTC: -1)?.iso8601, "1969-12-31T23:59:59")
    }

    /// ISO 8601 text written into the string's bytes reads as the padded fields did, for every
    /// fraction length, a date without a time, and fields set by hand out of their range.
    func testISO8601TextMatchesThePaddedFields() throws {
        func padded(_ d: LocalDateTime) -> String {
            func p(_ v: Int, _ w: Int) -> String {
                let s = String(v)
                return s.count >= w ? s : String(repeating: "0", count: w - s.count) + s
            }
            var s = p(d.year, 4) + "-" + p(d.month, 2) + "-" + p(d.day, 2)
            guard d.hasTime else { return s }
            s += "T" + p(d.hour, 2) + ":" + p(d.minute, 2) + ":" + p(d.second, 2)
            if let digits = d.fractionDigits, digits > 0 { s += "." + p(d.nanosecond, 9).prefix(min(digits, 9)) }
            return s
        }
        var d = try XCTUnwrap(LocalDateTime(year: 2024, month: 3, day: 5, hour: 9, minute: 7, second: 1, nanosecond: 5_060_700))
        for digits in [nil, -1, 0, 1, 2, 3, 6, 9, 12] as [Int?] {
            d.fractionDigits = digits
            for hasTime in [true, false] {
                d.hasTime = hasTime
                XCTAssertEqual(d.iso8601, padded(d), "\(String(describing: digits)) \(hasTime)")
            }
        }
        XCTAssertEqual(LocalDateTime(year: 7, month: 1, day: 1)?.iso8601, "0007-01-01T00:00:00")
        for (year, month, nano) in [(12_345, 1, 0), (-5, 1, 0), (2024, 123, 0), (2024, 1, -3), (2024, 1, 2_000_000_000)] {
            d.year = year
            d.month = month
            d.nanosecond = nano
            d.hasTime = true
            d.fractionDigits = 3
            XCTAssertEqual(d.iso8601, padded(d), "\(year) \(month) \(nano)")
        }
        XCTAssertEqual(UTCOffset(seconds: -(5 * 3600 + 30 * 60))?.description, "-05:30")
        XCTAssertEqual(UTCOffset(seconds: 14 * 3600)?.description, "+14:00")
        XCTAssertEqual(UTCOffset.utc.description, "+00:00")
    }
}
