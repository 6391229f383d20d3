/// A UTC offset such as `+08:00`, within the ±14 h that real zones use.
public struct UTCOffset: Sendable, Hashable, CustomStringConvertible {
    /// Seconds east of UTC.
    public let seconds: Int

    /// An offset of `seconds` east of UTC; nil beyond ±14 h.
    public init?(seconds: Int) {
        guard abs(seconds) <= 14 * 3600 else { return nil }
        self.seconds = seconds
    }

    /// `+00:00`.
    public static let utc = UTCOffset(unchecked: 0)
    private init(unchecked: Int) { seconds = unchecked }

    /// `+08:00`, `-05:30`, `+00:00`.
    public var description: String {
        // Written into the string's bytes (every report has one). Hours are at most 14.
        let a = seconds.magnitude
        let hours = Int(a / 3600 % 100)
        let minutes = Int(a % 3600 / 60)
        return String(unsafeUninitializedCapacity: 6) { b in
            b[0] = seconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            b[1] = UInt8(ascii: "0") + UInt8(hours / 10)
            b[2] = UInt8(ascii: "0") + UInt8(hours % 10)
            b[3] = UInt8(ascii: ":")
            b[4] = UInt8(ascii: "0") + UInt8(minutes / 10)
            b[5] = UInt8(ascii: "0") + UInt8(minutes % 10)
            return 6
        }
    }

    /// Offsets off the whole hour that zones use or used since cameras went digital (tzdata):
    /// −09:30 Marquesas, −04:30 Venezuela 2007–2016, −03:30 and −02:30 Newfoundland, +03:30
    /// Iran, +04:30 Afghanistan, +05:30 India, +05:45 Nepal, +06:30 Myanmar, +08:30 Pyongyang
    /// 2015–2018, +08:45 Eucla, +09:30 and +10:30 Australia's centre (and Lord Howe), +11:30
    /// Norfolk until 2015, +12:45 and +13:45 Chatham. In minutes east of UTC.
    static let offTheHourMinutes: Set<Int> = [
        -570, -270, -210, -150, 210, 270, 330, 345, 390, 510, 525, 570, 630, 690, 765, 825,
    ]

    /// Whether a zone uses (or used) this offset: a whole hour from −12:00 to +14:00, or one of
    /// `offTheHourMinutes`. An offset such as +02:15 is no zone's: a difference of clocks that
    /// lands there says the clocks disagree, not where the photo was taken.
    public var isInUse: Bool {
        guard seconds % 60 == 0, seconds >= -12 * 3600 else { return false }
        return seconds % 3600 == 0 || UTCOffset.offTheHourMinutes.contains(seconds / 60)
    }

    /// The offset in use that a wall clock minus an instant (`difference`, seconds) shows,
    /// when the difference lies within `tolerance` seconds of it (under 7.5 minutes, so one
    /// quarter hour is the only candidate); else nil.
    package static func inUse(nearest difference: Double, within tolerance: Double) -> UTCOffset? {
        guard difference.isFinite, abs(difference) <= 14 * 3600 + tolerance else { return nil }
        let quarters = (difference / 900).rounded()
        guard abs(difference - quarters * 900) <= tolerance, let offset = UTCOffset(seconds: Int(quarters) * 900),
            offset.isInUse
        else { return nil }
        return offset
    }
}
