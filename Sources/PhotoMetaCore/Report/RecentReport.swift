import Foundation

/// `recent`'s output (docs/recent.md): for people, one line per asset, `CAPTURED  KIND  PATH`
/// (the capture instant in ISO 8601 in the report's zone, the kind padded to ten characters,
/// the name escaped for the terminal);
/// for programs, the `inspect` row of each asset (`AssetReport`), unchanged, so it decodes as
/// a `MediaAsset`. With `--thumbnail`, the line gets a fourth column (the picture's file, `-`
/// when there is none) and the row two keys at its end: `thumbnailFile` (the picture's file,
/// the `ThumbnailReport` object, or null) and `thumbnailError` (null when made). The row's own
/// `thumbnail` key keeps its meaning (the preview embedded in the file).
package struct RecentReport: Sendable {
    /// The zone for dates without an offset, and for showing instants.
    package var zone: TimeZone

    package init(zone: TimeZone) { self.zone = zone }

    /// The line for people, newline included.
    package func text(_ a: MediaAsset, thumbnail: ThumbnailOutcome? = nil) -> String {
        let captured = a.captured.map { RecentReport.instant($0, in: zone) } ?? "-"
        // The kind padded to the longest name ("screenshot"), so the paths line up.
        let kind = a.kind.rawValue.padding(toLength: max(10, a.kind.rawValue.count), withPad: " ", startingAt: 0)
        var line = captured + "  " + kind + "  " + TerminalText.escape(a.path)
        if let thumbnail { line += "  " + (thumbnail.made?.path.map(TerminalText.escape) ?? "-") }
        return line + "\n"
    }

    /// The JSON row: `inspect`'s, with the picture's keys when one was asked for.
    package func json(_ a: MediaAsset, thumbnail: ThumbnailOutcome? = nil) -> String {
        var w = JSONWriter()
        AssetReport(zone: zone).write(a, to: &w) { w in
            guard let thumbnail else { return }
            w.key("thumbnailFile")
            if let made = thumbnail.made { made.write(to: &w) } else { w.null() }
            w.field("thumbnailError", thumbnail.error)
        }
        return w.output
    }

    /// The capture instant as ISO 8601 in `zone` (`2024-08-08T20:08:20+08:00`), the zone
    /// assumed only where the file gives no offset (the instant `recent` orders by); the
    /// fraction of a second as the file wrote it.
    package static func instant(_ c: CaptureDate, in zone: TimeZone) -> String {
        let clock: LocalDateTime
        switch c.clock {
        case .wall(let local, _, _): clock = local
        case .instant(let utc): clock = utc
        }
        // Whole seconds from the instant, the fraction from the file (a Double near 1.7e9 s
        // keeps only about seven digits of it).
        let whole = (c.epochSeconds(assuming: zone) - Double(clock.nanosecond) / 1e9).rounded()
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: whole))
        guard
            let local = LocalDateTime(
                secondsAsIfUTC: Int64(whole) + Int64(offset), nanosecond: clock.nanosecond,
                fractionDigits: clock.fractionDigits)
        else { return c.rendered(in: zone).local }
        return local.iso8601 + (UTCOffset(seconds: offset)?.description ?? "+00:00")
    }
}
