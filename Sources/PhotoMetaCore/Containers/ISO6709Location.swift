/// A point written as an ISO 6709 string, the way movies store where they were recorded:
/// QuickTime `©xyz` (in `udta`, or an `ilst` item) and Apple's
/// `com.apple.quicktime.location.ISO6709` key, e.g. `+37.3318-122.0312+012.345/`.
///
/// [ISO 6709:2008 Annex H] Latitude then longitude, each a sign and a number whose integer
/// part is degrees (`±DD`, `±DDD`), degrees and minutes (`±DDMM`, `±DDDMM`) or degrees, minutes
/// and seconds (`±DDMMSS`, `±DDDMMSS`), the last part optionally with a decimal fraction;
/// then an optional altitude and CRS, and a closing `/` that some writers leave out. Only
/// the two coordinates are read; anything out of range gives nil.
package struct ISO6709Location: Sendable, Equatable {
    package var latitude: Double
    package var longitude: Double

    package init?(_ text: String) {
        var bytes = ArraySlice(text.utf8.prefix(128))
        while let first = bytes.first, first == 0x20 { bytes.removeFirst() }
        guard let lat = Self.component(&bytes, degreeDigits: 2, limit: 90),
            let lon = Self.component(&bytes, degreeDigits: 3, limit: 180)
        else { return nil }
        // What follows is an altitude (a sign), a CRS, "/" or the end; a digit would mean the
        // number was not the shape it seemed.
        if let next = bytes.first, next >= 0x30 && next <= 0x39 { return nil }
        latitude = lat
        longitude = lon
    }

    /// One signed coordinate; `degreeDigits` is 2 for latitude and 3 for longitude.
    static func component(_ b: inout ArraySlice<UInt8>, degreeDigits: Int, limit: Double) -> Double? {
        guard let sign = b.first, sign == 0x2B || sign == 0x2D else { return nil }
        b.removeFirst()
        var integer: [UInt8] = []
        while let c = b.first, c >= 0x30 && c <= 0x39, integer.count < 8 {
            integer.append(c - 0x30)
            b.removeFirst()
        }
        var fraction = 0.0
        if b.first == 0x2E {
            b.removeFirst()
            var scale = 0.1
            var digits = 0
            while let c = b.first, c >= 0x30 && c <= 0x39 {
                if digits < 12 { fraction += Double(c - 0x30) * scale }
                scale /= 10
                digits += 1
                b.removeFirst()
            }
        }
        func number(_ digits: ArraySlice<UInt8>) -> Double { digits.reduce(0.0) { $0 * 10 + Double($1) } }
        let value: Double
        guard !integer.isEmpty else { return nil }
        switch integer.count - degreeDigits {
        case ...0:
            // Degrees; writers that do not zero-pad ("+5.6-0.1/") are read too.
            value = number(integer[...]) + fraction
        case 2:
            let minutes = number(integer[degreeDigits...]) + fraction
            guard minutes < 60 else { return nil }
            value = number(integer[..<degreeDigits]) + minutes / 60
        case 4:
            let minutes = number(integer[degreeDigits..<(degreeDigits + 2)])
            let seconds = number(integer[(degreeDigits + 2)...]) + fraction
            guard minutes < 60, seconds < 60 else { return nil }
            value = number(integer[..<degreeDigits]) + minutes / 60 + seconds / 3600
        default:
            return nil
        }
        guard value <= limit else { return nil }
        return sign == 0x2D ? -value : value
    }
}
