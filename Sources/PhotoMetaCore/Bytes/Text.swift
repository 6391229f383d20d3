/// Text hygiene for values that come out of files: they may hold NULs, padding and control
/// characters, and nothing of that should reach a report.
package enum Text {
    /// Drops everything from the first NUL, control characters, and surrounding white space.
    package static func clean(_ s: String) -> String {
        // The usual case: printable ASCII without surrounding blanks comes back as it is.
        let u = s.utf8
        if let first = u.first, let last = u.last, first != 0x20, last != 0x20,
            u.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        {
            return s
        }
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
