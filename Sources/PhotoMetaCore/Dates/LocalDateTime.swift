/// A wall-clock date and time with an optional fraction, and no zone: what EXIF and file names
/// actually record. It never invents an offset.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    // The fields in 16 bytes, not 66 (seven `Int`s): a library holds a date or two in every
    // file's candidate, 50 bytes of 240 each (docs/performance.md, "`serve` through the burst").
    // A value set by hand beyond what its field holds (a year past ±32,767, a month past ±127)
    // is clamped to it; every initializer checks the ranges below first.
    private var nanosecondField: Int32
    private var yearField: Int16
    private var monthField: Int8
    private var dayField: Int8
    private var hourField: Int8
    private var minuteField: Int8
    private var secondField: Int8
    /// `Int8.min`: no fraction digits written.
    private var digitsField: Int8

    /// Year, 1...9999.
    public var year: Int {
        get { Int(yearField) }
        set { yearField = Int16(clamping: newValue) }
    }
    /// Month, 1...12.
    public var month: Int {
        get { Int(monthField) }
        set { monthField = Int8(clamping: newValue) }
    }
    /// Day of the month, 1...31 (valid for the month).
    public var day: Int {
        get { Int(dayField) }
        set { dayField = Int8(clamping: newValue) }
    }
    /// Hour, 0...23.
    public var hour: Int {
        get { Int(hourField) }
        set { hourField = Int8(clamping: newValue) }
    }
    /// Minute, 0...59.
    public var minute: Int {
        get { Int(minuteField) }
        set { minuteField = Int8(clamping: newValue) }
    }
    /// Second, 0...59 (leap seconds are not represented).
    public var second: Int {
        get { Int(secondField) }
        set { secondField = Int8(clamping: newValue) }
    }
    /// Fraction of the second in nanoseconds.
    public var nanosecond: Int {
        get { Int(nanosecondField) }
        set { nanosecondField = Int32(clamping: newValue) }
    }
    /// How many fraction digits the source wrote (nil: none); kept so `25` prints as `.25`.
    public var fractionDigits: Int? {
        get { digitsField == Int8.min ? nil : Int(digitsField) }
        set { digitsField = newValue.map { Int8(clamping: max($0, -127)) } ?? Int8.min }
    }
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
        // In range, so no field is clamped.
        yearField = Int16(clamping: year)
        monthField = Int8(clamping: month)
        dayField = Int8(clamping: day)
        hourField = Int8(clamping: hour)
        minuteField = Int8(clamping: minute)
        secondField = Int8(clamping: second)
        nanosecondField = Int32(clamping: nanosecond)
        digitsField = fractionDigits.map { Int8(clamping: max($0, -127)) } ?? Int8.min
        self.hasTime = hasTime
    }

    /// The digits a fraction of a second needs to say `nanosecond` (trailing zeros dropped); nil
    /// for none: how a reader that converts an instant (Matroska's, ASF's) says its precision.
    package static func fractionDigits(nanosecond: Int) -> Int? {
        guard nanosecond > 0 else { return nil }
        var n = nanosecond
        var d = 9
        while n % 10 == 0 {
            n /= 10
            d -= 1
        }
        return d
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
