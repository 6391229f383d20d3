import Foundation

/// When a file was captured, as the winning source states it, with provenance.
///
/// Either a wall clock (EXIF, file names) with an offset only when one is known, or an instant
/// (file times, `mvhd`, epoch names) whose UTC time is exact but whose local wall clock is not
/// known. Nothing here depends on the machine's zone: a zone is applied only when rendering
/// (`rendered(in:)`), and the result says that it was assumed.
public struct CaptureDate: Sendable, Equatable {
    /// The two ways a file records time.
    public enum Clock: Sendable, Equatable {
        /// A wall clock; `offset` only when the file (or its GPS time) tells it, and where from.
        case wall(LocalDateTime, offset: UTCOffset?, offsetSource: OffsetSource?)
        /// An instant; `utc` holds its UTC wall clock.
        case instant(utc: LocalDateTime)
    }

    /// What the file records: a wall clock (with an offset when known) or an instant.
    public var clock: Clock
    /// Which field or fact the date came from (the precedence table of docs/dates.md).
    public var source: DateSource
    /// The sidecar file the date came from, when `source` is `sidecar.xmp` or `sidecar.takeout`.
    public var sidecar: String?
    /// Set when the source gave the year or the month only: the date is the period's first day
    /// (`CaptureDateResolver` says so, or takes a later source's full date inside the period).
    package var reduced: DateTextParser.ReducedPrecision?

    /// A date from `source`.
    public init(_ clock: Clock, source: DateSource) {
        self.clock = clock
        self.source = source
    }

    /// True when the UTC time follows from the file alone.
    public var isExact: Bool {
        switch clock {
        case .instant: return true
        case .wall(_, let offset, _): return offset != nil
        }
    }

    /// The calendar day of the wall clock (the UTC day for an instant): year, month, day.
    package var localDay: [Int] {
        switch clock {
        case .instant(let utc): return [utc.year, utc.month, utc.day]
        case .wall(let local, _, _): return [local.year, local.month, local.day]
        }
    }

    /// False when the source gave a day without a time of day.
    package var hasTime: Bool {
        switch clock {
        case .instant(let utc): return utc.hasTime
        case .wall(let local, _, _): return local.hasTime
        }
    }

    /// Seconds since 1970 (UTC), using `zone` only where the file gives no offset.
    public func epochSeconds(assuming zone: TimeZone) -> Double {
        switch clock {
        case .instant(let utc): return epoch(utc, 0)
        case .wall(let local, let offset?, _): return epoch(local, offset.seconds)
        case .wall(let local, nil, _): return epoch(local, zoneOffset(zone, forLocal: local))
        }
    }

    /// The date as reported: exact parts from the file, assumed parts from `zone`, each labelled.
    public func rendered(in zone: TimeZone) -> RenderedCaptureDate {
        switch clock {
        case .wall(let local, let offset?, let source):
            let utc = LocalDateTime(
                secondsAsIfUTC: local.secondsAsIfUTC - Int64(offset.seconds),
                nanosecond: local.nanosecond, fractionDigits: local.fractionDigits)
            return RenderedCaptureDate(
                local: local.iso8601, offset: offset.description,
                utc: utc.map { utcString($0, hasTime: local.hasTime) },
                offsetSource: source ?? .embedded,
                assumed: nil, epochSeconds: epoch(local, offset.seconds))
        case .wall(let local, nil, _):
            let offsetSeconds = zoneOffset(zone, forLocal: local)
            let utc = LocalDateTime(
                secondsAsIfUTC: local.secondsAsIfUTC - Int64(offsetSeconds),
                nanosecond: local.nanosecond, fractionDigits: local.fractionDigits)
            let assumed = AssumedZone(
                zone: zone.identifier, offset: UTCOffset(seconds: offsetSeconds)?.description ?? "+00:00",
                utc: utc.map { utcString($0, hasTime: local.hasTime) } ?? "")
            return RenderedCaptureDate(
                local: local.iso8601, offset: nil, utc: nil, offsetSource: nil,
                assumed: assumed, epochSeconds: epoch(local, offsetSeconds))
        case .instant(let utc):
            let seconds = utc.secondsAsIfUTC
            let offsetSeconds = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
            let local =
                LocalDateTime(
                    secondsAsIfUTC: seconds + Int64(offsetSeconds), nanosecond: utc.nanosecond,
                    fractionDigits: utc.fractionDigits) ?? utc
            let offset = UTCOffset(seconds: offsetSeconds)?.description ?? "+00:00"
            return RenderedCaptureDate(
                local: local.iso8601, offset: offset, utc: utcString(utc, hasTime: true),
                offsetSource: .zone,
                assumed: AssumedZone(zone: zone.identifier, offset: offset, utc: utcString(utc, hasTime: true)),
                epochSeconds: epoch(utc, 0))
        }
    }

    /// UTC is always a full date-time with `Z`: a date without a time (WhatsApp names) is
    /// placed at local midnight, which in UTC may fall on the day before.
    private func utcString(_ d: LocalDateTime, hasTime: Bool) -> String {
        var full = d
        full.hasTime = true
        return full.iso8601 + "Z"
    }

    private func epoch(_ local: LocalDateTime, _ offsetSeconds: Int) -> Double {
        Double(local.secondsAsIfUTC - Int64(offsetSeconds)) + Double(local.nanosecond) / 1e9
    }

    /// The zone's offset at a wall-clock time: found by probing at the wall clock read as UTC,
    /// then once more at the corrected instant (correct except inside a DST gap or overlap,
    /// where either answer is a legitimate reading).
    package func zoneOffset(_ zone: TimeZone, forLocal local: LocalDateTime) -> Int {
        let asUTC = TimeInterval(local.secondsAsIfUTC)
        let first = zone.secondsFromGMT(for: Date(timeIntervalSince1970: asUTC))
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: asUTC - TimeInterval(first)))
    }
}

/// When the file gives no offset, the zone that was used to place the date in time.
public struct AssumedZone: Sendable, Equatable, Codable {
    /// The zone's identifier (`Asia/Shanghai`).
    public var zone: String
    /// Its offset at that date (`+08:00`).
    public var offset: String
    /// The UTC time that follows from it (ISO 8601 with `Z`).
    public var utc: String
}

/// A capture date ready for a report (the JSON `captured` object).
public struct RenderedCaptureDate: Sendable, Equatable {
    /// ISO 8601 wall clock, with a fraction when known.
    public var local: String
    /// `+08:00`, or nil when the file does not say.
    public var offset: String?
    /// ISO 8601 with `Z`; nil when the offset is unknown.
    public var utc: String?
    /// Where the offset came from: an EXIF tag, GPS, the date text itself, or `zone` for an
    /// instant shown in the caller's zone; nil when the offset is unknown.
    public var offsetSource: OffsetSource?
    /// Set when the caller's zone was applied.
    public var assumed: AssumedZone?
    /// Seconds since 1970 UTC (assumed zone applied where needed).
    public var epochSeconds: Double
}
