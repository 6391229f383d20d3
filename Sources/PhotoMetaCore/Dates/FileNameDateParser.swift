import Foundation

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
    /// How many seconds the name's last figure spans: 60 for a name that stops at the minute
    /// (Flameshot's, Peek's), 1 at the second, 0 with milliseconds (or an epoch). The capture
    /// lies somewhere in that span after `local` (`CaptureDateResolver.refinedByFileTimes`).
    package var resolution: Int = 0
}

/// Recognises the dates that phones, messengers and desktops put into file names.
///
/// Each scheme is a small template of tokens matched from the start of the name without its
/// extension, or, for the few tools that put a window's or game's title first (`afterTitle`),
/// from a space inside it when no scheme matches from the start. What follows the match must
/// not continue a number (`_1`, ` (2)`, `_com.app` are fine), so `IMG_20240315_0930121` is not
/// misread.
package enum FileNameDateParser {
    enum Token: Sendable {
        case literal(String)
        /// One of several literals (`Screen Shot` / `Screenshot`).
        case oneOf([String])
        case year, month, day, hour, minute, second
        /// 1-2 digit month and day, as some of macOS's languages write them (Finnish, Polish).
        case looseMonth, looseDay
        /// 1-2 digit hour, as macOS writes it (12- or 24-hour clock).
        case looseHour
        case millis
        /// 13-digit milliseconds since 1970 (WeChat).
        case epochMillis
        /// `n` digits that carry no date (WhatsApp's counter).
        case ignoredDigits(Int)
        /// One or more digits that carry no date (Steam's counter, scrot's picture size).
        case someDigits
        /// Optional " AM" / " PM" (or " am" / " pm", as en-AU writes them); the space may be
        /// U+202F (macOS 13 and later).
        case optionalMeridiem
        /// A morning or afternoon word before the hour, required or optional: Chinese 上午
        /// (morning), 下午 (afternoon), 晚上 (evening), written against the hour; Korean 오전,
        /// 오후 and a space.
        case leadingMeridiem(required: Bool)
        /// An optional group.
        case optional([Token])
        /// `Z` after the time: the digits are UTC, an instant (Open Camera's UTC option).
        case zulu

        var isLoose: Bool {
            switch self {
            case .looseMonth, .looseDay: return true
            default: return false
            }
        }
    }

    struct Pattern: Sendable {
        let name: String
        let screenshot: Bool
        /// The digits are UTC (Pixel) or an epoch: an instant, not a wall clock.
        let utc: Bool
        /// Matched from a space after a title the tool copies in (a game's, a window's), not
        /// from the start; `tokens` begin with that space.
        let afterTitle: Bool
        let tokens: [Token]

        init(_ name: String, screenshot: Bool = false, utc: Bool = false, afterTitle: Bool = false, _ tokens: [Token]) {
            self.name = name
            self.screenshot = screenshot
            self.utc = utc
            self.afterTitle = afterTitle
            self.tokens = tokens
        }
    }

    /// Every scheme: the hand-written ones (`NameSchemes.swift`), then GNOME Shell's table.
    static let patterns: [Pattern] = handWritten + GnomeShellNames.patterns

    /// Years accepted from a name: anything else is a counter that happens to look like a date.
    /// The core reads no clock: "after next year" is the caller's bound (`DateEvidence.latestNameYear`).
    static let plausibleYears = 1990...2100

    /// Parses a file name (with or without its extension and directory).
    package static func parse(_ fileName: String) -> FileNameDate? { interpret(fileName).date }

    /// The date a file name gives, and why a name that looks like a scheme gives none: a date
    /// that is impossible or implausible (`photo_2024-13-45_...`), or schemes that match with
    /// different dates. Every scheme is tried; the first plausible one wins unless another
    /// disagrees with it.
    package static func interpret(_ fileName: String) -> (date: FileNameDate?, diagnostics: [Diagnostic]) {
        interpret(fileName, in: table)
    }

    static func interpret(_ fileName: String, in table: Table) -> (date: FileNameDate?, diagnostics: [Diagnostic]) {
        var base = Substring(fileName)
        if let slash = base.lastIndex(ofASCII: UInt8(ascii: "/")) { base = base[base.utf8.index(after: slash)...] }
        let shown = base  // the name in a diagnostic, made into text only for one
        if let dot = base.lastIndex(ofASCII: UInt8(ascii: ".")), dot != base.startIndex { base = base[..<dot] }
        let scalars = canonicalScalars(base)
        guard let first = scalars.first else { return (nil, []) }
        let anchored = table.byFirstScalar[first.value] ?? []
        guard !anchored.isEmpty || !table.afterTitle.isEmpty else { return (nil, []) }
        var found: [(date: FileNameDate, length: Int)] = []
        var refused: [String] = []
        func attempt(_ p: Pattern, from start: Int) {
            var state = MatchState()
            state.index = start
            guard match(p.tokens, scalars, &state) else { return }
            // What follows must not continue a number.
            if state.index < scalars.count, isDigit(scalars[state.index]) { return }
            let utc = p.utc || state.zulu
            if let date = state.build(utc: utc) {
                var d = FileNameDate(local: date, isInstant: utc, pattern: p.name, isScreenshot: p.screenshot)
                if state.hasTime, state.millis == nil, state.epochMillis == nil { d.resolution = state.hasSecond ? 1 : 60 }
                found.append((d, state.index))
            } else if !refused.contains(p.name) {
                refused.append(p.name)
            }
        }
        for i in anchored { attempt(table.patterns[i], from: 0) }
        // A title first (ShadowPlay's, Game Bar's): only when nothing matched from the start,
        // so a title cannot undo a scheme's date by holding another.
        if found.isEmpty, !table.afterTitle.isEmpty {
            for start in scalars.indices.dropFirst() where scalars[start] == " " {
                for i in table.afterTitle { attempt(table.patterns[i], from: start) }
            }
        }
        // The most specific match names the scheme: the longest (`%s ਤੋਂ ਸਕਰੀਨਸ਼ਾਟ` over OBS's bare
        // date), then a screenshot scheme over a recording one written the same way (Galician
        // and Slovenian name both alike; a recording is a video whatever its name says).
        let ranked = found.enumerated().max { a, b in
            (a.element.length, a.element.date.isScreenshot ? 1 : 0, -a.offset)
                < (b.element.length, b.element.date.isScreenshot ? 1 : 0, -b.offset)
        }
        if let chosen = ranked?.element.date {
            if let other = found.map(\.date).first(where: { $0.local != chosen.local || $0.isInstant != chosen.isInstant }) {
                let why = "matches \(chosen.pattern) and \(other.pattern) with different dates; skipped"
                return (nil, [Diagnostic("date", "filename '\(shown)' \(why)")])
            }
            return (chosen, [])
        }
        let diagnostics = refused.prefix(1).map {
            Diagnostic("date", "filename '\(shown)' looks like \($0) but its date is impossible or outside 1990-2100; skipped")
        }
        return (nil, diagnostics)
    }

    /// Names and patterns are compared in canonical composition (`Text.canonical`): these are
    /// its scalars, without the string for an ASCII name.
    static func canonicalScalars(_ text: Substring) -> [Unicode.Scalar] {
        // An ASCII name (nearly every camera's) is its bytes, looked at in place.
        let ascii = text.utf8.withContiguousStorageIfAvailable { u -> [Unicode.Scalar]? in
            for b in u where b >= 0x80 { return nil }
            return u.map { Unicode.Scalar($0) }
        }
        if let ascii = ascii ?? nil { return ascii }
        if Text.isASCII(text) { return Array(text.unicodeScalars) }
        return Array(Text.canonical(text).unicodeScalars)
    }

    struct MatchState {
        var index = 0
        var year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0, millis: Int?
        var hasTime = false
        var hasSecond = false
        var meridiem: Int?  // 0 = AM, 1 = PM
        var zulu = false
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

    /// The words of `Token.leadingMeridiem`.
    static let leadingMorning = ["上午", "오전 "]
    static let leadingAfternoon = ["下午", "晚上", "오후 "]

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
        var i = st.index
        for u in lit.unicodeScalars {
            guard i < s.count, s[i] == u else { return false }
            i += 1
        }
        st.index = i
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
            case .month, .looseMonth:
                guard let v = number(s, &st, min: t.isLoose ? 1 : 2, max: 2) else { return false }
                st.month = v
            case .day, .looseDay:
                guard let v = number(s, &st, min: t.isLoose ? 1 : 2, max: 2) else { return false }
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
                st.hasSecond = true
            case .millis:
                guard let v = number(s, &st, min: 3, max: 3) else { return false }
                st.millis = v
            case .epochMillis:
                guard let v = number(s, &st, min: 13, max: 13) else { return false }
                st.epochMillis = Int64(v)
                st.hasTime = true
            case .ignoredDigits(let n):
                guard number(s, &st, min: n, max: n) != nil else { return false }
            case .someDigits:
                // Counted, never made a number: the run may be longer than any integer.
                let start = st.index
                while st.index < s.count, isDigit(s[st.index]) { st.index += 1 }
                guard st.index > start else { return false }
            case .optionalMeridiem:
                var probe = st
                if probe.index < s.count, s[probe.index] == " " || s[probe.index].value == 0x202F {
                    probe.index += 1
                    if literal("AM", s, &probe) || literal("am", s, &probe) {
                        probe.meridiem = 0
                        st = probe
                    } else if literal("PM", s, &probe) || literal("pm", s, &probe) {
                        probe.meridiem = 1
                        st = probe
                    }
                }
            case .leadingMeridiem(let required):
                if leadingMorning.contains(where: { literal($0, s, &st) }) {
                    st.meridiem = 0
                } else if leadingAfternoon.contains(where: { literal($0, s, &st) }) {
                    st.meridiem = 1
                } else if required {
                    return false
                }
            case .optional(let group):
                var probe = st
                if match(group, s, &probe) { st = probe }
            case .zulu:
                guard literal("Z", s, &st) else { return false }
                st.zulu = true
            }
        }
        return true
    }
}
