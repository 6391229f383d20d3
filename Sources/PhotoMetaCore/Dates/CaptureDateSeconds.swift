extension CaptureDate {
    /// The widest distance between a wall clock read as UTC and the instant it names in some
    /// zone: zones run from UTC-12 to UTC+14 [tz database].
    package static let widestZoneOffset = 14.0 * 3600

    /// Seconds since 1970: the instant when the date is exact (an instant, or a wall clock with
    /// its offset), else its wall clock read as if it were UTC, which is within
    /// `widestZoneOffset` of the instant any zone gives. Needs no zone: cheap enough for every
    /// file of a library, and what the Live Photo rule compares when a zone is unknown.
    package var secondsIgnoringUnknownZone: Double {
        switch clock {
        case .instant(let utc): return Double(utc.secondsAsIfUTC) + Double(utc.nanosecond) / 1e9
        case .wall(let local, let offset, _):
            return Double(local.secondsAsIfUTC) - Double(offset?.seconds ?? 0) + Double(local.nanosecond) / 1e9
        }
    }
}
