/// Text hygiene for values that come out of files: they may hold NULs, padding and control
/// characters, and nothing of that should reach a report.
public enum Text {
    /// Drops everything from the first NUL, control characters, and surrounding white space.
    public static func clean(_ s: String) -> String {
        var scalars = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if u.value == 0 { break }
            if u.value < 0x20 || u.value == 0x7F { continue }
            scalars.append(u)
        }
        return String(scalars).trimmingSpaces()
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
