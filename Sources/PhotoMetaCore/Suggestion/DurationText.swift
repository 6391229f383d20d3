/// Durations as people write them on the command line (`10s`, `2m`, `1h30m`) and read them.
/// (The API itself uses `Swift.Duration`; this is only the text form.)
package enum DurationText {
    /// The longest duration accepted (ten years): longer is a typing mistake, and would
    /// overflow the arithmetic of callers that add it to an instant.
    package static let maximum = 10.0 * 365 * 86_400

    /// Parses `90s`, `2m`, `1h`, `1h30m`, `1d12h`, `500ms`, `1.5s`: numbers each followed by a
    /// unit, units lower case, each at most once and from the largest down (`d`, `h`, `m`, `s`,
    /// `ms`). Nil for anything else: no bare numbers (`60` could be minutes) but `0`, which is
    /// nothing in every unit (`--wait 0`, as the help's "default 0" says), no `2M`, no `1m1m`,
    /// nothing over `maximum`.
    package static func parse(_ text: String, maximum: Double = DurationText.maximum) -> Double? {
        if text == "0" { return 0 }
        let units: [(name: String, seconds: Double)] = [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1), ("ms", 0.001)]
        let chars = Array(text.unicodeScalars)
        var i = 0
        var total = 0.0
        var nextUnit = 0  // units before this index were used or skipped
        guard !chars.isEmpty else { return nil }
        while i < chars.count {
            var number = ""
            while i < chars.count, ("0"..."9").contains(chars[i]) || chars[i] == "." {
                number.unicodeScalars.append(chars[i])
                i += 1
            }
            // At most 12 digits: enough for any duration up to the maximum, in any unit.
            guard !number.isEmpty, number.count <= 12, let value = Double(number) else { return nil }
            var unit = ""
            while i < chars.count, ("a"..."z").contains(chars[i]) {
                unit.unicodeScalars.append(chars[i])
                i += 1
            }
            guard let k = units[nextUnit...].firstIndex(where: { $0.name == unit }) else { return nil }
            nextUnit = k + 1
            total += value * units[k].seconds
        }
        guard total.isFinite, total <= maximum else { return nil }
        return total
    }

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
