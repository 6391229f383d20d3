/// Durations as people write them on the command line (`10s`, `2m`, `1h30m`) and read them.
/// (The API itself uses `Swift.Duration`; this is only the text form.)
package enum DurationText {
    /// Parses `90s`, `2m`, `1h`, `1h30m`, `1d`, `500ms`; nil for anything else (no bare numbers,
    /// so `60` cannot be mistaken for minutes).
    package static func parse(_ text: String) -> Double? {
        var total = 0.0
        var number = ""
        var sawUnit = false
        let chars = Array(text.lowercased())
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c.isNumber || c == "." {
                number.append(c)
                i += 1
                continue
            }
            guard let value = Double(number), value >= 0 else { return nil }
            let unit: Double
            if c == "m", i + 1 < chars.count, chars[i + 1] == "s" {
                unit = 0.001
                i += 1
            } else if c == "s" {
                unit = 1
            } else if c == "m" {
                unit = 60
            } else if c == "h" {
                unit = 3600
            } else if c == "d" {
                unit = 86_400
            } else {
                return nil
            }
            total += value * unit
            number = ""
            sawUnit = true
            i += 1
        }
        guard number.isEmpty, sawUnit, total.isFinite else { return nil }
        return total
    }

    /// `8 s`, `2 min`, `3 h`, `4 days`, for messages.
    package static func describe(_ d: Duration) -> String { describe(d.seconds) }

    package static func describe(_ seconds: Double) -> String {
        let s = abs(seconds)
        if s < 1 { return s == 0 ? "0 s" : String(Int((s * 1000).rounded())) + " ms" }
        if s < 120 { return String(Int(s.rounded())) + " s" }
        if s < 7200 { return String(Int((s / 60).rounded())) + " min" }
        if s < 172_800 { return String(Int((s / 3600).rounded())) + " h" }
        return String(Int((s / 86_400).rounded())) + " days"
    }
}

extension Duration {
    /// The duration in seconds, as a `Double` (the engine's arithmetic is in seconds).
    package var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }

    /// A duration of `seconds`, rounded to the nanosecond; nil for NaN, infinities and values
    /// beyond `Duration`'s range.
    package init?(seconds: Double) {
        guard seconds.isFinite, abs(seconds) < 9e18 / 1e9 else { return nil }
        self = .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
