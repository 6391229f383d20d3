/// Finding a run of bytes (a start code, a UUID) in a buffer.
enum ByteSearch {
    /// Where `needle` first occurs in `haystack` at or after `from`.
    static func first(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard let head = needle.first, haystack.count >= needle.count else { return nil }
        var i = max(0, from)
        while i + needle.count <= haystack.count {
            if haystack[i] == head, haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
