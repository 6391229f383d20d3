import Foundation

/// Text hygiene for values that come out of files: they may hold NULs, padding and control
/// characters, and nothing of that should reach a report.
package enum Text {
    /// `text` in Unicode's canonical composition (NFC), where names are compared: the same name
    /// can reach the disk composed or not (a copy through macOS decomposes it; Punjabi's
    /// catalogue writes U+0A36, which NFC itself decomposes). An ASCII text is its own.
    package static func canonical<S: StringProtocol>(_ text: S) -> String {
        isASCII(text) ? String(text) : String(text).precomposedStringWithCanonicalMapping
    }

    /// Every byte is ASCII.
    package static func isASCII<S: StringProtocol>(_ text: S) -> Bool {
        // In place when the bytes are contiguous (a native string's or substring's are): the
        // view's own iteration checks each index.
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Drops everything from the first NUL, control characters, and surrounding white space.
    package static func clean(_ s: String) -> String {
        // The usual case: printable ASCII without surrounding blanks comes back as it is.
        // (Looked at in place when the bytes are contiguous, as a native string's are.)
        let printable: (UInt8) -> Bool = { $0 >= 0x20 && $0 < 0x7F }
        let plain: Bool? = s.utf8.withContiguousStorageIfAvailable { u in
            guard let first = u.first, let last = u.last, first != 0x20, last != 0x20 else { return false }
            for b in u where !printable(b) { return false }
            return true
        }
        if plain ?? false { return s }
        let u = s.utf8
        if plain == nil, let first = u.first, let last = u.last, first != 0x20, last != 0x20, u.allSatisfy(printable) {
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

extension StringProtocol {
    /// Where `byte`, an ASCII byte such as `/` or `.`, last occurs: searched in the UTF-8 bytes,
    /// where an ASCII byte is always a whole character of a path. `lastIndex(of: "/")` walks
    /// characters backwards (grapheme breaking): about 9,000 instructions a path, a twentieth
    /// of a warm `inspect -r` (docs/performance.md, "The fourth pass").
    package func lastIndex(ofASCII byte: UInt8) -> Index? {
        let found: Int?? = utf8.withContiguousStorageIfAvailable { buf in
            var i = buf.count
            while i > 0 {
                i -= 1
                if buf[i] == byte { return i }
            }
            return nil
        }
        if let found { return found.map { utf8.index(utf8.startIndex, offsetBy: $0) } }
        var last: Index?
        var i = utf8.startIndex
        while i != utf8.endIndex {
            if utf8[i] == byte { last = i }
            utf8.formIndex(after: &i)
        }
        return last
    }
}
