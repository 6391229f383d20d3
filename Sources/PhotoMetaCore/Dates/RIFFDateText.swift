/// The dates AVI files carry as text (`IDIT`, `ICRD`), in the forms cameras write them.
extension DateTextParser {
    /// An AVI date (`IDIT`, `ICRD`): C's asctime form `Www Mmm dd hh:mm:ss yyyy`, which most
    /// cameras write [C11 7.27.3.1], else the EXIF form, else ISO 8601, else a camera's own
    /// (`cameraRIFF`). No offset either way.
    package static func riff(_ text: String) -> Result<Stamp, Rejection> {
        if let stamp = asctime(text) { return .success(stamp) }
        if case .success(let stamp) = exif(text) { return .success(stamp) }
        let iso = iso8601(text)
        if case .success = iso { return iso }
        return cameraRIFF(text).map { .success($0) } ?? iso
    }

    /// The AVI dates of cameras that write none of those, as exiftool's `ConvertRIFFDate` reads
    /// them: Casio's `2001/ 1/27  1:42PM` (QV-3EX) and `2005/11/28/ 09:19` (EX-Z30), to the
    /// minute, and Konica's `2002-12-16  15:35:01` (KD500Z): the year, `/` or `-`, the month and
    /// the day (blanks allowed before them), an optional `/`, blanks, `h:mm`, optional `:ss`,
    /// an optional AM or PM (12 PM is noon, 12 AM midnight).
    static func cameraRIFF(_ text: String) -> Stamp? {
        var s = Array(text.utf8)[...]
        func blanks() { while s.first == 0x20 { s.removeFirst() } }
        func number(_ most: Int) -> Int? {
            var n = 0
            var count = 0
            while let b = s.first, b >= 0x30, b <= 0x39, count < most {
                n = n * 10 + Int(b - 0x30)
                count += 1
                s.removeFirst()
            }
            return count == 0 ? nil : n
        }
        func take(_ b: UInt8) -> Bool {
            guard s.first == b else { return false }
            s.removeFirst()
            return true
        }
        blanks()
        guard s.count >= 4, let year = number(4), let separator = s.first, separator == 0x2F || separator == 0x2D else {
            return nil
        }
        s.removeFirst()
        blanks()
        guard let month = number(2), take(separator) else { return nil }
        blanks()
        guard let day = number(2) else { return nil }
        _ = take(0x2F)
        guard s.first == 0x20 else { return nil }
        blanks()
        guard var hour = number(2), take(0x3A) else { return nil }
        blanks()
        guard let minute = number(2) else { return nil }
        let second = take(0x3A) ? number(2) : 0
        blanks()
        if let m = s.first.map({ $0 | 0x20 }), m == 0x61 || m == 0x70 {  // a, p
            guard hour >= 1, hour <= 12 else { return nil }
            hour = hour % 12 + (m == 0x70 ? 12 : 0)
        }
        guard let second,
            let local = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        return Stamp(local: local, offset: nil)
    }

    /// `Www Mmm dd hh:mm:ss yyyy` (the day may be space-padded).
    static func asctime(_ text: String) -> Stamp? {
        let parts = text.split(separator: " ").map(String.init)
        guard parts.count == 5, parts[0].count == 3,
            let mo = monthNames.firstIndex(of: parts[1].lowercased()), let d = Int(parts[2]), let y = Int(parts[4])
        else { return nil }
        let t = parts[3].split(separator: ":").compactMap { Int($0) }
        guard t.count == 3, let local = LocalDateTime(year: y, month: mo + 1, day: d, hour: t[0], minute: t[1], second: t[2])
        else { return nil }
        return Stamp(local: local, offset: nil)
    }
}
