/// The rule for a movie header (`mvhd`) that holds the camera's local time instead of UTC
/// (docs/dates.md, "A movie header in local time").
extension CaptureDateResolver {
    /// `d` (an `mvhd` instant) as a wall clock with its zone unknown when the file's name gives
    /// a local time (a wall clock, not an instant) that the `mvhd` time matches to within the
    /// name's span and `fileTimeAgreement`: the camera wrote its local time where the
    /// specification asks for UTC [ISO 14496-12 8.2.2.3], as DJI's drones and gimbals, many
    /// action and dash cameras do, and names the file by the same clock. Read as UTC, such a
    /// video was off by the zone (8 h in Shanghai), so `suggest --videos` called it from the
    /// future. A phone's movie (UTC in `mvhd`, local time in its `VID_` name) differs by its
    /// zone and stays an instant; where the zone is UTC the two readings are the same instant.
    static func movieHeaderInLocalTime(_ d: CaptureDate, _ e: DateEvidence, _ diagnostics: inout [Diagnostic])
        -> CaptureDate
    {
        guard case .instant(let utc) = d.clock, let name = FileNameDateParser.parse(e.fileName), !name.isInstant,
            name.local.hasTime
        else { return d }
        let header = Double(utc.secondsAsIfUTC) + Double(utc.nanosecond) / 1e9
        let named = Double(name.local.secondsAsIfUTC)
        let span = Double(name.resolution)
        guard header >= named - fileTimeAgreement, header <= named + span + fileTimeAgreement else { return d }
        diagnostics.append(
            Diagnostic(
                "date",
                "quicktime.mvhd holds the camera's local time, not UTC (it matches the local time of the file name); offset unknown"
            ))
        var local = CaptureDate(.wall(utc, offset: nil, offsetSource: nil), source: d.source)
        local.sidecar = d.sidecar
        return local
    }
}
