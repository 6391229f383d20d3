/// [XMP Part 2 (Exif schema), GPSCoordinate] A latitude or longitude as XMP writes it:
/// `DDD,MM,SSk` or `DDD,MM.mmk`, where `k` is N, S, E or W.
enum XMPCoordinate {
    /// Degrees (negative south or west), nil when the text is not a coordinate or out of range.
    static func degrees(_ text: String, latitude: Bool) -> Double? {
        let t = Text.clean(text)
        guard let k = t.last, t.count >= 4 else { return nil }
        let sign: Double
        switch k {
        case "N" where latitude, "E" where !latitude: sign = 1
        case "S" where latitude, "W" where !latitude: sign = -1
        default: return nil
        }
        let parts = t.dropLast().split(separator: ",", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), let d = Double(parts[0]), let m = Double(parts[1]) else { return nil }
        let s = parts.count == 3 ? Double(parts[2]) : 0
        guard let s, d >= 0, m >= 0, m < 60, s >= 0, s < 60 else { return nil }
        let value = d + m / 60 + s / 3600
        guard value <= (latitude ? 90 : 180) else { return nil }
        return sign * value
    }
}

extension XMPRecord {
    /// The position the packet states (`exif:GPSLatitude` and `exif:GPSLongitude`), if both read.
    package var location: MediaAsset.GPS? {
        guard let la = gpsLatitude.flatMap({ XMPCoordinate.degrees($0, latitude: true) }),
            let lo = gpsLongitude.flatMap({ XMPCoordinate.degrees($0, latitude: false) })
        else { return nil }
        return MediaAsset.GPS(latitude: la, longitude: lo)
    }
}
