/// Parses the date strings found in metadata: EXIF `YYYY:MM:DD hh:mm:ss` [EXIF 2.32 4.6.5 Table
/// 8, DateTimeOriginal], EXIF offsets `±hh:mm` [EXIF 2.32 4.6.5, OffsetTime], SubSecTime digits,
/// ISO 8601 as XMP and QuickTime write it [XMP part 1, 8.2.1.1], and the RFC 1123 form some PNG
/// writers use for `Creation Time` [PNG 1.2 11.3.4.2].
///
/// Every function says why it rejects a value, so the caller can record a diagnostic instead of
/// reporting a placeholder as a date.
package enum DateTextParser {
    package enum Rejection: Error, Equatable, CustomStringConvertible {
        /// All zeros, blanks or colons: a camera that had no clock set.
        case placeholder
        /// Not the expected syntax.
        case malformed
        /// The right syntax but an impossible value (month 13, February 30, hour 25).
        case impossible

        package var description: String {
            switch self {
            case .placeholder: return "placeholder value"
            case .malformed: return "malformed"
            case .impossible: return "impossible date"
            }
        }
    }

    /// A wall clock with the offset written inside the same string, if any.
    package struct Stamp: Equatable, Sendable {
        package var local: LocalDateTime
        package var offset: UTCOffset?
        /// Set for a date of the year or the month only (`local` is then the period's first day,
        /// a date without a time).
        package var reduced: ReducedPrecision? = nil
    }

    /// A date written to the year or the month only, as ISO 8601 allows and XMP writes for a
    /// scanned or archived photo whose day nobody knows (`1987`, `1987-05`) [XMP Part 1
    /// 8.2.1.1 Date, ISO 8601-1 5.2.2.2], and as IPTC writes with `00` for the unknown parts
    /// [IIM 4.1, 2:55].
    package enum ReducedPrecision: Sendable, Equatable {
        case year, month

        /// "year" or "month", for a diagnostic.
        package var word: String { self == .year ? "year" : "month" }
    }

    /// EXIF `YYYY:MM:DD hh:mm:ss`. Also accepted, because real files contain them: `-` as the
    /// date separator, `T` between date and time, and a trailing offset or `Z`.
    package static func exif(_ text: String) -> Result<Stamp, Rejection> {
        let s = Array(text.utf8)
        if isPlaceholder(s) { return .failure(.placeholder) }
        return parseStamp(s, allowDateOnly: false)
    }

    /// ISO 8601 as in XMP and QuickTime: `YYYY-MM-DDThh:mm[:ss[.f]][Z|±hh:mm|±hhmm]`, or
    /// `YYYY-MM-DD` alone (a date without a time), or `YYYY-MM` or `YYYY` (`ReducedPrecision`).
    package static func iso8601(_ text: String) -> Result<Stamp, Rejection> {
        let s = Array(text.utf8)
        if isPlaceholder(s) { return .failure(.placeholder) }
        return parseStamp(s, allowDateOnly: true)
    }

    /// Any of the forms above, then RFC 1123 (`Sat, 06 May 2020 07:08:09 +0000`, `... GMT`),
    /// then the local date and time as GNOME Shell writes a screenshot's `Creation Time`
    /// (`glibDateTime`, and `CJKDateTime` for Chinese, Japanese and Korean sessions).
    package static func freeform(_ text: String) -> Result<Stamp, Rejection> {
        let r = iso8601(text)
        if case .failure(.malformed) = r, let other = rfc1123(text) ?? glibDateTime(text) ?? CJKDateTime.parse(text) {
            return .success(other)
        }
        return r
    }

    /// GLib's `%c`, which GNOME Shell writes as a screenshot's PNG `Creation Time` (gnome-shell
    /// `src/shell-screenshot.c`), in the forms of the C and English locales (glibc's `D_T_FMT`):
    /// `Fri Mar  7 14:05:09 2025` (C: `%a %b %e %H:%M:%S %Y`), `Fri 07 Mar 2025 02:05:09 PM CET`
    /// (en_US: `%a %d %b %Y %r %Z`), `Fri 07 Mar 2025 14:05:09 CET` (en_GB and others:
    /// `%a %d %b %Y %T %Z`). Local time: a zone abbreviation gives no offset (`CST` names three
    /// zones), but for `UTC` and `GMT`, and a numeric one (`+04`, glibc's `%Z` for a zone
    /// without an abbreviation) is the offset. Other languages' month names are not read.
    static func glibDateTime(_ text: String) -> Stamp? {
        if let stamp = asctime(text) { return stamp }
        let parts = text.split(separator: " ")
        guard parts.count >= 5, parts.count <= 7, parts[0].allSatisfy(\.isLetter), let d = Int(parts[1]),
            let mo = monthNames.firstIndex(of: parts[2].lowercased()), parts[3].count == 4, let y = Int(parts[3])
        else { return nil }
        let t = parts[4].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard t.count == 3, var h = t[0], let mi = t[1], let sec = t[2] else { return nil }
        var rest = parts.dropFirst(5)
        if let meridiem = rest.first?.uppercased(), meridiem == "AM" || meridiem == "PM" {
            guard (1...12).contains(h) else { return nil }
            h = h % 12 + (meridiem == "PM" ? 12 : 0)
            rest = rest.dropFirst()
        }
        var offset: UTCOffset?
        if let zone = rest.first {
            guard rest.count == 1 else { return nil }
            if zone.uppercased() == "UTC" || zone.uppercased() == "GMT" {
                offset = .utc
            } else if let o = DateTextParser.offset(String(zone)) {
                offset = o
            } else if !zone.allSatisfy(\.isLetter) {
                return nil
            }
        }
        guard let local = LocalDateTime(year: y, month: mo + 1, day: d, hour: h, minute: mi, second: sec) else { return nil }
        return Stamp(local: local, offset: offset)
    }

    /// IPTC IIM DateCreated `CCYYMMDD` [IIM 4.1, 2:55], optionally followed by a space and
    /// TimeCreated `HHMMSS±HHMM` [2:60]: rewritten as ISO 8601 and read as such (a date alone
    /// is a date without a time).
    package static func iptc(_ text: String) -> Result<Stamp, Rejection> {
        let s = Array(text.utf8)
        if isPlaceholder(s) { return .failure(.placeholder) }
        let isDigit: (UInt8) -> Bool = { $0 >= 0x30 && $0 <= 0x39 }
        guard s.count >= 8, s[0..<8].allSatisfy(isDigit) else { return .failure(.malformed) }
        // `00` for a month or day nobody knows: the year, or the year and month, alone.
        if s.count == 8, s[6] == 0x30, s[7] == 0x30 {
            let known = s[4] == 0x30 && s[5] == 0x30 ? s[0..<4] : s[0..<4] + [0x2D] + s[4..<6]
            return parseStamp(Array(known), allowDateOnly: true)
        }
        var iso = s[0..<4] + [0x2D] + s[4..<6] + [0x2D] + s[6..<8]
        if s.count > 8 {
            let t = Array(s[9...])
            guard s[8] == 0x20, t.count == 6 || t.count == 11, t[0..<6].allSatisfy(isDigit) else { return .failure(.malformed) }
            iso += [0x54] + t[0..<2] + [0x3A] + t[2..<4] + [0x3A] + t[4..<6]
            if t.count == 11 {
                guard t[6] == 0x2B || t[6] == 0x2D, t[7...].allSatisfy(isDigit) else { return .failure(.malformed) }
                iso += [t[6]] + t[7..<9] + [0x3A] + t[9..<11]
            }
        }
        return parseStamp(Array(iso), allowDateOnly: true)
    }

    /// SubSecTime: ASCII digits that are the decimal fraction of the second (`25` is 0.25 s)
    /// [EXIF 2.32 4.6.5, SubSecTime]. Trailing blanks are tolerated; at most 9 digits are used.
    package static func subSecond(_ text: String) -> (nanosecond: Int, digits: Int)? {
        let digits = Array(text.trimmingSpaces().utf8)
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let used = digits.prefix(9)
        var n = 0
        for d in used { n = n * 10 + Int(d - 0x30) }
        for _ in used.count..<9 { n *= 10 }
        return (n, used.count)
    }

    /// `±hh:mm` (EXIF), also `±hhmm`, `±hh` and `Z`. Nil for blanks or nonsense.
    package static func offset(_ text: String) -> UTCOffset? {
        let s = Array(text.trimmingSpaces().utf8)
        var i = 0
        return parseOffset(s, &i).flatMap { i == s.count ? $0 : nil }
    }

    // MARK: - Scanner

    static func isPlaceholder(_ s: [UInt8]) -> Bool {
        // "0000:00:00 00:00:00", "    :  :     ", "", all blanks or zeros.
        s.allSatisfy { $0 == 0x30 || $0 == 0x20 || $0 == 0x3A || $0 == 0x2D || $0 == 0x54 || $0 == 0 }
    }

    static func digits(_ s: [UInt8], _ i: inout Int, count: Int) -> Int? {
        guard i + count <= s.count else { return nil }
        var v = 0
        for k in i..<i + count {
            let c = s[k]
            guard c >= 0x30, c <= 0x39 else { return nil }
            v = v * 10 + Int(c - 0x30)
        }
        i += count
        return v
    }

    static func expect(_ s: [UInt8], _ i: inout Int, _ options: [UInt8]) -> Bool {
        guard i < s.count, options.contains(s[i]) else { return false }
        i += 1
        return true
    }

    static func parseStamp(_ s: [UInt8], allowDateOnly: Bool) -> Result<Stamp, Rejection> {
        var i = 0
        // Leading/trailing blanks appear in the wild; NUL padding was already removed.
        while i < s.count, s[i] == 0x20 { i += 1 }
        var end = s.count
        while end > i, s[end - 1] == 0x20 { end -= 1 }
        let s = Array(s[0..<end])
        guard let y = digits(s, &i, count: 4) else { return .failure(.malformed) }
        if allowDateOnly, i == s.count { return reduced(year: y, month: nil) }
        guard expect(s, &i, [0x3A, 0x2D]), let mo = digits(s, &i, count: 2) else { return .failure(.malformed) }
        if allowDateOnly, i == s.count { return reduced(year: y, month: mo) }
        guard expect(s, &i, [0x3A, 0x2D]), let d = digits(s, &i, count: 2) else { return .failure(.malformed) }
        if i == s.count {
            guard allowDateOnly else { return .failure(.malformed) }
            guard let local = LocalDateTime(year: y, month: mo, day: d, hasTime: false) else { return .failure(.impossible) }
            return .success(Stamp(local: local, offset: nil))
        }
        guard expect(s, &i, [0x20, 0x54]),
            let h = digits(s, &i, count: 2), expect(s, &i, [0x3A]),
            let mi = digits(s, &i, count: 2)
        else { return .failure(.malformed) }
        var sec = 0
        var nano = 0
        var fractionDigits: Int?
        if expect(s, &i, [0x3A]) {
            guard let ss = digits(s, &i, count: 2) else { return .failure(.malformed) }
            sec = ss
            if expect(s, &i, [0x2E, 0x2C]) {
                var n = 0
                var count = 0
                while i < s.count, s[i] >= 0x30, s[i] <= 0x39 {
                    if count < 9 {
                        n = n * 10 + Int(s[i] - 0x30)
                        count += 1
                    }
                    i += 1
                }
                guard count > 0 else { return .failure(.malformed) }
                for _ in count..<9 { n *= 10 }
                nano = n
                fractionDigits = count
            }
        }
        var offset: UTCOffset?
        if i < s.count {
            guard let o = parseOffset(s, &i), i == s.count else { return .failure(.malformed) }
            offset = o
        }
        guard
            let local = LocalDateTime(
                year: y, month: mo, day: d, hour: h, minute: mi, second: sec,
                nanosecond: nano, fractionDigits: fractionDigits)
        else {
            return .failure(.impossible)
        }
        return .success(Stamp(local: local, offset: offset))
    }

    /// The first day of a year or a month, a date without a time.
    static func reduced(year: Int, month: Int?) -> Result<Stamp, Rejection> {
        guard let local = LocalDateTime(year: year, month: month ?? 1, day: 1, hasTime: false) else {
            return .failure(.impossible)
        }
        return .success(Stamp(local: local, offset: nil, reduced: month == nil ? .year : .month))
    }

    static func parseOffset(_ s: [UInt8], _ i: inout Int) -> UTCOffset?? {
        guard i < s.count else { return nil }
        if s[i] == 0x5A {
            i += 1
            return .some(.utc)
        }  // Z
        guard s[i] == 0x2B || s[i] == 0x2D else { return nil }
        let sign = s[i] == 0x2D ? -1 : 1
        i += 1
        guard let h = digits(s, &i, count: 2) else { return nil }
        var m = 0
        if i < s.count {
            _ = expect(s, &i, [0x3A])
            guard let mm = digits(s, &i, count: 2), mm < 60 else { return nil }
            m = mm
        }
        guard let o = UTCOffset(seconds: sign * (h * 3600 + m * 60)) else { return nil }
        return .some(o)
    }

    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `[Day, ]DD Mon YYYY hh:mm:ss (±hhmm|GMT|UTC|UT|Z)` [RFC 1123 5.2.14].
    static func rfc1123(_ text: String) -> Stamp? {
        var parts = text.split(separator: " ").map(String.init)
        if let first = parts.first, first.hasSuffix(",") { parts.removeFirst() }
        guard parts.count >= 4, let d = Int(parts[0]),
            let mo = monthNames.firstIndex(of: parts[1].lowercased().prefix(3).description),
            let y = Int(parts[2])
        else { return nil }
        let t = parts[3].split(separator: ":").compactMap { Int($0) }
        guard t.count >= 2,
            let local = LocalDateTime(
                year: y, month: mo + 1, day: d, hour: t[0], minute: t[1],
                second: t.count > 2 ? t[2] : 0)
        else { return nil }
        var offset: UTCOffset?
        if parts.count >= 5 {
            let z = parts[4].uppercased()
            if ["GMT", "UTC", "UT", "Z"].contains(z) { offset = .utc } else { offset = DateTextParser.offset(z) }
        }
        return Stamp(local: local, offset: offset)
    }
}
