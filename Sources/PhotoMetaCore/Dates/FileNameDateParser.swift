/// A date read from a file name.
package struct FileNameDate: Sendable, Equatable {
    /// The wall clock (or, for instants, the UTC time).
    package var local: LocalDateTime
    /// True when the name encodes an instant: epoch milliseconds (WeChat) or Pixel's UTC names.
    package var isInstant: Bool
    /// Which naming scheme matched, e.g. `android.screenshot` (see `FileNameDateParser.patterns`).
    package var pattern: String
    /// The scheme is one that screenshot tools use.
    package var isScreenshot: Bool
}

/// Recognises the dates that phones, messengers and desktops put into file names.
///
/// Each scheme is a small template of tokens matched from the start of the name without its
/// extension. What follows the match must not continue a number (`_1`, ` (2)`, `_com.app` are
/// fine), so `IMG_20240315_0930121` is not misread.
package enum FileNameDateParser {
    enum Token {
        case literal(String)
        /// One of several literals (`Screen Shot` / `Screenshot`).
        case oneOf([String])
        case year, month, day, hour, minute, second
        /// 1-2 digit hour, as macOS writes it (12- or 24-hour clock).
        case looseHour
        case millis
        /// 13-digit milliseconds since 1970 (WeChat).
        case epochMillis
        /// `n` digits that carry no date (WhatsApp's counter).
        case ignoredDigits(Int)
        /// Optional " AM" / " PM"; the space may be U+202F (macOS 13 and later).
        case optionalMeridiem
        /// 上午 (morning) / 下午 (afternoon), required or optional.
        case chineseMeridiem(required: Bool)
        /// An optional group.
        case optional([Token])
    }

    struct Pattern {
        let name: String
        let screenshot: Bool
        /// The digits are UTC (Pixel) or an epoch: an instant, not a wall clock.
        let utc: Bool
        let tokens: [Token]
    }

    /// The schemes, most specific first. docs/dates.md lists them with examples.
    static let patterns: [Pattern] = [
        Pattern(
            name: "pixel", screenshot: false, utc: true,
            tokens: [.oneOf(["PXL_"]), .year, .month, .day, .literal("_"), .hour, .minute, .second, .millis]),
        Pattern(
            name: "android.camera", screenshot: false, utc: false,
            tokens: [.oneOf(["IMG_", "VID_"]), .year, .month, .day, .literal("_"), .hour, .minute, .second]),
        Pattern(
            name: "whatsapp", screenshot: false, utc: false,
            tokens: [.oneOf(["IMG-", "VID-"]), .year, .month, .day, .literal("-WA"), .ignoredDigits(4)]),
        Pattern(
            name: "whatsapp.export", screenshot: false, utc: false,
            tokens: [
                .oneOf(["WhatsApp Image ", "WhatsApp Video "]), .year, .literal("-"), .month, .literal("-"), .day,
                .literal(" at "), .hour, .literal("."), .minute, .literal("."), .second,
            ]),
        Pattern(name: "wechat.export", screenshot: false, utc: true, tokens: [.literal("mmexport"), .epochMillis]),
        Pattern(name: "wechat.camera", screenshot: false, utc: true, tokens: [.literal("wx_camera_"), .epochMillis]),
        Pattern(
            name: "wechat.image", screenshot: false, utc: false,
            tokens: [.literal("微信图片_"), .year, .month, .day, .hour, .minute, .second]),
        Pattern(
            name: "qq.screenshot", screenshot: true, utc: false,
            tokens: [.literal("QQ截图"), .year, .month, .day, .hour, .minute, .second]),
        Pattern(
            name: "android.screenshot", screenshot: true, utc: false,
            tokens: [.literal("Screenshot_"), .year, .month, .day, .literal("-"), .hour, .minute, .second]),
        // Samsung and KDE Spectacle write the same shape.
        Pattern(
            name: "samsung.screenshot", screenshot: true, utc: false,
            tokens: [.literal("Screenshot_"), .year, .month, .day, .literal("_"), .hour, .minute, .second]),
        Pattern(
            name: "miui.screenshot", screenshot: true, utc: false,
            tokens: [
                .literal("Screenshot_"), .year, .literal("-"), .month, .literal("-"), .day, .literal("-"),
                .hour, .literal("-"), .minute, .literal("-"), .second, .optional([.literal("-"), .millis]),
            ]),
        Pattern(
            name: "gnome.screenshot", screenshot: true, utc: false,
            tokens: [
                .literal("Screenshot from "), .year, .literal("-"), .month, .literal("-"), .day, .literal(" "),
                .hour, .literal("-"), .minute, .literal("-"), .second,
            ]),
        Pattern(
            name: "macos.screenshot", screenshot: true, utc: false,
            tokens: [
                .oneOf(["Screen Shot ", "Screenshot "]), .year, .literal("-"), .month, .literal("-"), .day,
                .literal(" at "), .looseHour, .literal("."), .minute, .literal("."), .second, .optionalMeridiem,
            ]),
        Pattern(
            name: "windows.screenshot", screenshot: true, utc: false,
            tokens: [
                .oneOf(["Screenshot ", "屏幕截图 "]), .year, .literal("-"), .month, .literal("-"), .day,
                .literal(" "), .hour, .minute, .second,
            ]),
        Pattern(
            name: "macos.screenshot.zh", screenshot: true, utc: false,
            tokens: [
                .literal("屏幕快照 "), .year, .literal("-"), .month, .literal("-"), .day, .literal(" "),
                .chineseMeridiem(required: true), .looseHour, .literal("."), .minute, .literal("."), .second,
            ]),
        Pattern(
            name: "macos.screenshot.zh", screenshot: true, utc: false,
            tokens: [
                .literal("截屏"), .optional([.literal(" ")]), .year, .literal("-"), .month, .literal("-"), .day,
                .literal(" "), .chineseMeridiem(required: false), .looseHour, .literal("."), .minute,
                .literal("."), .second,
            ]),
        // Samsung camera: bare YYYYMMDD_hhmmss.
        Pattern(
            name: "samsung.camera", screenshot: false, utc: false,
            tokens: [.year, .month, .day, .literal("_"), .hour, .minute, .second]),
    ]

    /// A cheap pre-check: every screenshot scheme starts with "Screen", "QQ", "屏" or "截".
    static func mayBeScreenshot(_ name: Substring) -> Bool {
        name.hasPrefix("Screen") || name.hasPrefix("QQ") || name.hasPrefix("屏") || name.hasPrefix("截")
    }

    /// Years accepted from a name: anything else is a counter that happens to look like a date.
    static let plausibleYears = 1990...2100

    /// Parses a file name (with or without its extension and directory).
    package static func parse(_ fileName: String) -> FileNameDate? {
        var base = Substring(fileName)
        if let slash = base.lastIndex(of: "/") { base = base[base.index(after: slash)...] }
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { base = base[..<dot] }
        let scalars = Array(base.unicodeScalars)
        for p in patterns {
            var state = MatchState()
            guard match(p.tokens, scalars, &state) else { continue }
            // What follows must not continue a number.
            if state.index < scalars.count, isDigit(scalars[state.index]) { continue }
            if let date = state.build(utc: p.utc) {
                return FileNameDate(local: date, isInstant: p.utc, pattern: p.name, isScreenshot: p.screenshot)
            }
        }
        return nil
    }

    struct MatchState {
        var index = 0
        var year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0, millis: Int?
        var hasTime = false
        var meridiem: Int?  // 0 = AM, 1 = PM
        var epochMillis: Int64?

        func build(utc: Bool) -> LocalDateTime? {
            if let ms = epochMillis {
                let secs = ms / 1000
                guard let d = LocalDateTime(secondsAsIfUTC: secs, nanosecond: Int(ms % 1000) * 1_000_000, fractionDigits: 3),
                    plausibleYears.contains(d.year)
                else { return nil }
                return d
            }
            guard plausibleYears.contains(year) else { return nil }
            var h = hour
            if let m = meridiem {
                guard (1...12).contains(h) else { return nil }
                h = h % 12 + (m == 1 ? 12 : 0)
            }
            return LocalDateTime(
                year: year, month: month, day: day, hour: h, minute: minute, second: second,
                nanosecond: (millis ?? 0) * 1_000_000, fractionDigits: millis == nil ? nil : 3,
                hasTime: hasTime)
        }
    }

    static func isDigit(_ u: Unicode.Scalar) -> Bool { u.value >= 0x30 && u.value <= 0x39 }

    static func number(_ s: [Unicode.Scalar], _ st: inout MatchState, min: Int, max: Int) -> Int? {
        var v = 0
        var n = 0
        while n < max, st.index + n < s.count, isDigit(s[st.index + n]) {
            v = v * 10 + Int(s[st.index + n].value - 0x30)
            n += 1
        }
        guard n >= min else { return nil }
        st.index += n
        return v
    }

    static func literal(_ lit: String, _ s: [Unicode.Scalar], _ st: inout MatchState) -> Bool {
        let l = Array(lit.unicodeScalars)
        guard st.index + l.count <= s.count, Array(s[st.index..<st.index + l.count]) == l else { return false }
        st.index += l.count
        return true
    }

    static func match(_ tokens: [Token], _ s: [Unicode.Scalar], _ st: inout MatchState) -> Bool {
        for t in tokens {
            switch t {
            case .literal(let l):
                guard literal(l, s, &st) else { return false }
            case .oneOf(let options):
                guard options.contains(where: { literal($0, s, &st) }) else { return false }
            case .year:
                guard let v = number(s, &st, min: 4, max: 4) else { return false }
                st.year = v
            case .month:
                guard let v = number(s, &st, min: 2, max: 2) else { return false }
                st.month = v
            case .day:
                guard let v = number(s, &st, min: 2, max: 2) else { return false }
                st.day = v
            case .hour:
                guard let v = number(s, &st, min: 2, max: 2) else { return false }
                st.hour = v
                st.hasTime = true
            case .looseHour:
                guard let v = number(s, &st, min: 1, max: 2) else { return false }
                st.hour = v
                st.hasTime = true
            case .minute:
                guard let v = number(s, &st, min: 2, max: 2) else { return false }
                st.minute = v
            case .second:
                guard let v = number(s, &st, min: 2, max: 2) else { return false }
                st.second = v
            case .millis:
                guard let v = number(s, &st, min: 3, max: 3) else { return false }
                st.millis = v
            case .epochMillis:
                guard let v = number(s, &st, min: 13, max: 13) else { return false }
                st.epochMillis = Int64(v)
                st.hasTime = true
            case .ignoredDigits(let n):
                guard number(s, &st, min: n, max: n) != nil else { return false }
            case .optionalMeridiem:
                var probe = st
                if probe.index < s.count, s[probe.index] == " " || s[probe.index].value == 0x202F {
                    probe.index += 1
                    if literal("AM", s, &probe) {
                        probe.meridiem = 0
                        st = probe
                    } else if literal("PM", s, &probe) {
                        probe.meridiem = 1
                        st = probe
                    }
                }
            case .chineseMeridiem(let required):
                if literal("上午", s, &st) {
                    st.meridiem = 0
                } else if literal("下午", s, &st) {
                    st.meridiem = 1
                } else if required {
                    return false
                }
            case .optional(let group):
                var probe = st
                if match(group, s, &probe) { st = probe }
            }
        }
        return true
    }
}
