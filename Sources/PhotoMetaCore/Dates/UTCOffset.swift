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
}
