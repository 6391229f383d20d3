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
        let a = seconds.magnitude
        var s: [UInt8] = [seconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")]
        appendPadded(Int(a / 3600), 2, to: &s)
        s.append(UInt8(ascii: ":"))
        appendPadded(Int(a % 3600 / 60), 2, to: &s)
        return String(decoding: s, as: UTF8.self)
    }
}
