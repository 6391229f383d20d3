/// The rule for a name that gives its time to the minute or to the second only (Flameshot's
/// `2024-05-01_17-58`, Peek's, most screenshot tools' seconds): the capture lies somewhere in
/// that minute or second after the name's time (docs/dates.md, "A name to the minute").
extension CaptureDateResolver {
    /// `d` (a wall clock from a name that spans `resolution` seconds), placed at one of the
    /// file's times when that time, shifted by an offset in use (`UTCOffset.isInUse`), falls
    /// inside the span (give or take `fileTimeAgreement`, as a file is written a moment after the
    /// name is made): the name says which minute, the file time the second and its fraction,
    /// and the offset is the one `offsetFromFileTimes` would find (none at +00:00, for the
    /// reason given there). A file time outside the span (a copy, a download) changes nothing.
    ///
    /// Why: a minute-only name dated at :00 ages a shot taken at :57 by 57 s at once, and two
    /// shots in one minute (or one second) share an instant, so the memory turns the second
    /// one down as already offered.
    static func refinedByFileTimes(
        _ d: CaptureDate, resolution: Int, _ times: FileTimes?, _ diagnostics: inout [Diagnostic]
    ) -> CaptureDate {
        guard resolution > 0, case .wall(let local, nil, _) = d.clock, local.hasTime, let times else { return d }
        let wall = Double(local.secondsAsIfUTC)
        let span = Double(resolution)
        for t in [times.modification, times.birth].compactMap({ $0 }) {
            let instant = Double(t.secondsAsIfUTC) + Double(t.nanosecond) / 1e9
            guard let offset = UTCOffset.inUse(nearest: wall - instant + span / 2, within: span / 2 + fileTimeAgreement)
            else { continue }
            // Inside the span, to the millisecond, in whole numbers (the file time's nanoseconds
            // are exact; a Double would make .800 into .799): a file finished just after the
            // minute turned still belongs to the minute its name gives.
            var seconds = t.secondsAsIfUTC + Int64(offset.seconds)
            var millis = t.nanosecond / 1_000_000
            if seconds < local.secondsAsIfUTC {
                (seconds, millis) = (local.secondsAsIfUTC, 0)
            } else if seconds >= local.secondsAsIfUTC + Int64(resolution) {
                (seconds, millis) = (local.secondsAsIfUTC + Int64(resolution) - 1, 999)
            }
            guard let refined = LocalDateTime(secondsAsIfUTC: seconds, nanosecond: millis * 1_000_000, fractionDigits: 3)
            else { continue }
            var placedDate = CaptureDate(
                .wall(refined, offset: offset.seconds == 0 ? nil : offset, offsetSource: offset.seconds == 0 ? nil : .fileTime),
                source: d.source)
            placedDate.sidecar = d.sidecar
            if resolution >= 60 {
                diagnostics.append(
                    Diagnostic("date", "the file name gives the minute only: the seconds are the file's time, which falls in it"))
            }
            return placedDate
        }
        return d
    }
}
