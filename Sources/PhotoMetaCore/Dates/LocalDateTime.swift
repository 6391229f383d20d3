/// A wall-clock date and time with an optional fraction, and no zone: what EXIF and file names
/// actually record. It never invents an offset.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Year, 1...9999.
    public var year: Int
    /// Month, 1...12.
    public var month: Int
    /// Day of the month, 1...31 (valid for the month).
    public var day: Int
    /// Hour, 0...23.
    public var hour: Int
    /// Minute, 0...59.
    public var minute: Int
    /// Second, 0...59 (leap seconds are not represented).
    public var second: Int
    /// Fraction of the second in nanoseconds.
    public var nanosecond: Int
    /// How many fraction digits the source wrote (nil: none); kept so `25` prints as `.25`.
    public var fractionDigits: Int?
    /// False when the source gave a date only (WhatsApp `IMG-20240101-WA0001`).
    public var hasTime: Bool

    /// Validates every field; nil for impossible values (month 13, February 30, hour 24).
    public init?(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
        nanosecond: Int = 0, fractionDigits: Int? = nil, hasTime: Bool = true
    ) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= LocalDateTime.daysIn(month: month, year: year),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
            (0..<1_000_000_000).contains(nanosecond)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
        self.fractionDigits = fractionDigits
        self.hasTime = hasTime
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Seconds since 1970-01-01T00:00:00 reading this wall clock as if it were UTC.
    public var secondsAsIfUTC: Int64 {
        Int64(LocalDateTime.daysFromCivil(year, month, day)) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The wall clock at `seconds` since the epoch (UTC) plus `nanosecond`.
    /// Nil outside years 1...9999 (checked before any arithmetic: a file time of
    /// -9223372036854775000 s, which anyone can set with `touch -d`, must not trap).
    public init?(secondsAsIfUTC seconds: Int64, nanosecond: Int = 0, fractionDigits: Int? = nil) {
        // Days -719_162 (0001-01-01) to 2_932_896 (9999-12-31), with a margin; the year check
        // in the memberwise initializer decides exactly.
        guard seconds > -800_000 * 86_400, seconds < 3_000_000 * 86_400 else { return nil }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rem = Int(seconds - days * 86_400)
        let (y, m, d) = LocalDateTime.civilFromDays(Int(days))
        self.init(
            year: y, month: m, day: d, hour: rem / 3600, minute: rem % 3600 / 60, second: rem % 60,
            nanosecond: nanosecond, fractionDigits: fractionDigits)
    }

    /// [Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms"] days since 1970-01-01.
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (m <= 2 ? y + 1 : y, m, d)
    }

    /// ISO 8601: `2024-03-15T09:30:12.25`, or `2024-03-15` for a date without a time.
    public var iso8601: String {
        // Written into the string's own bytes: a report prints two or three of these per file,
        // and the concatenations they were made of were 2.5 % of a warm `inspect -r`
        // (docs/performance.md, "The fourth pass"). Fields set out of their range by hand
        // take the general path.
        guard (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day), (0...99).contains(hour),
            (0...99).contains(minute), (0...99).contains(second), (0..<1_000_000_000).contains(nanosecond)
        else { return paddedISO8601 }
        let digits = hasTime ? min(max(fractionDigits ?? 0, 0), 9) : 0
        let count = hasTime ? 19 + (digits > 0 ? 1 + digits : 0) : 10
        return String(unsafeUninitializedCapacity: count) { b in
            func put(_ v: Int, _ width: Int, at end: Int) {
                var v = v
                for i in stride(from: end - 1, through: end - width, by: -1) {
                    b[i] = UInt8(ascii: "0") + UInt8(v % 10)
                    v /= 10
                }
            }
            put(year, 4, at: 4)
            b[4] = UInt8(ascii: "-")
            put(month, 2, at: 7)
            b[7] = UInt8(ascii: "-")
            put(day, 2, at: 10)
            guard hasTime else { return 10 }
            b[10] = UInt8(ascii: "T")
            put(hour, 2, at: 13)
            b[13] = UInt8(ascii: ":")
            put(minute, 2, at: 16)
            b[16] = UInt8(ascii: ":")
            put(second, 2, at: 19)
            guard digits > 0 else { return 19 }
            b[19] = UInt8(ascii: ".")
            // The first `digits` of the nine-digit nanosecond.
            put(nanosecond / LocalDateTime.pow10[9 - digits], digits, at: 20 + digits)
            return count
        }
    }

    private static let pow10 = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]

    /// The same text, made by padding each field's decimal text (any value, negative too).
    private var paddedISO8601: String {
        var s = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        guard hasTime else { return s }
        s += "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
        if let digits = fractionDigits, digits > 0 {
            let full = pad(nanosecond, 9)
            s += "." + full.prefix(min(digits, 9))
        }
        return s
    }

    /// The ISO 8601 form.
    public var description: String { iso8601 }

    /// Ordered by the instant the wall clock names (read as UTC).
    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        (a.secondsAsIfUTC, a.nanosecond) < (b.secondsAsIfUTC, b.nanosecond)
    }

    /// Equal when `<` finds neither smaller: the same second and nanosecond, however many
    /// fraction digits were written and whether a time was given (midnight) or not.
    public static func == (a: LocalDateTime, b: LocalDateTime) -> Bool {
        a.secondsAsIfUTC == b.secondsAsIfUTC && a.nanosecond == b.nanosecond
    }

    /// Hashes what `==` compares: the second and the nanosecond.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(secondsAsIfUTC)
        hasher.combine(nanosecond)
    }
}

func pad(_ v: Int, _ width: Int) -> String {
    let s = String(v)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}
