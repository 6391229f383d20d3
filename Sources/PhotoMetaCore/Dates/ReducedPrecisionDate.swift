/// The rule for a date of the year or the month only (`DateTextParser.ReducedPrecision`: a
/// scan's XMP `1987-05`, IPTC's `19870500`), once the precedence table has found one at its
/// source's rank (docs/dates.md, "A year or a month only").
extension CaptureDateResolver {
    /// `d` (found at `precedence[rank]`, of reduced precision), or a full date inside its
    /// period from another field of the same source (a sidecar's `DateCreated` after its
    /// `DateTimeOriginal`) or from a source ranked lower: that one says the same and more. One
    /// outside the period (a name or a file time of the day of the scan) does not overrule it,
    /// and the file system's times never count here. When `d` stands, a diagnostic says it is
    /// the period's first day.
    static func reducedDate(_ d: CaptureDate, rank: Int, _ e: DateEvidence, _ diagnostics: inout [Diagnostic])
        -> CaptureDate
    {
        guard let period = d.reduced else { return d }
        var unused: [Diagnostic] = []
        for clue in e.clues where clue.source == d.source {
            if let f = date(from: clue, &unused), f.reduced == nil, within(period, of: d, f) { return f }
        }
        for later in precedence[(rank + 1)...] where later != .fileBirthTime && later != .fileModificationTime {
            if let f = date(from: later, e, &unused), f.reduced == nil, within(period, of: d, f) { return f }
        }
        let (year, month) = (d.localDay[0], d.localDay[1])
        let shown = period == .year ? String(year) : String(year) + (month < 10 ? "-0" : "-") + String(month)
        diagnostics.append(
            Diagnostic("date", "\(d.source.rawValue) gives the \(period.word) only (\(shown)): the date is its first day"))
        return d
    }

    /// `f` falls in the year (or the month) that `d` gives.
    static func within(_ period: DateTextParser.ReducedPrecision, of d: CaptureDate, _ f: CaptureDate) -> Bool {
        let (a, b) = (d.localDay, f.localDay)
        return a[0] == b[0] && (period == .year || a[1] == b[1])
    }
}
