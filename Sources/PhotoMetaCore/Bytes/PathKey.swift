/// A path compared and hashed by its bytes, as the file system compares names: Swift's
/// `String` equality follows Unicode canonical equivalence, so `café` written with one code
/// point or with two would be one key, and two folders on Linux would be one.
package struct PathKey: Hashable, Sendable {
    package let path: String

    package init(_ path: String) { self.path = path }

    /// The path up to its last `/` ("/" for a folder at the top).
    package static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    package static func == (a: PathKey, b: PathKey) -> Bool {
        // On the stored bytes (a tight loop); the UTF-8 view's iterator was half of an answer's
        // time at 10,000 folders (perf).
        let fast = a.path.utf8.withContiguousStorageIfAvailable { x in
            b.path.utf8.withContiguousStorageIfAvailable { y in PathKey.same(x, y) }
        }
        if let fast, let equal = fast { return equal }
        return a.path.utf8.elementsEqual(b.path.utf8)
    }

    /// Byte equality, from the end: paths of one library share long prefixes and differ near
    /// their ends.
    private static func same(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        guard x.count == y.count else { return false }
        var i = x.count
        while i > 0 {
            i -= 1
            if x[i] != y[i] { return false }
        }
        return true
    }

    package func hash(into hasher: inout Hasher) {
        // The bytes as they are stored: no copy (a `var` copy's `withUTF8` would copy the
        // buffer on every hash, and the live library hashes thousands of keys per answer).
        let hashed: Void? = path.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil { for b in path.utf8 { hasher.combine(b) } }
    }

    /// Byte order (what `ls` and the walker sort by), on the stored bytes.
    package func precedes(_ other: PathKey) -> Bool {
        let fast = path.utf8.withContiguousStorageIfAvailable { x in
            other.path.utf8.withContiguousStorageIfAvailable { y in
                var i = 0
                while i < x.count, i < y.count {
                    if x[i] != y[i] { return x[i] < y[i] }
                    i += 1
                }
                return x.count < y.count
            }
        }
        if let fast, let result = fast { return result }
        return path.utf8.lexicographicallyPrecedes(other.path.utf8)
    }

    /// `paths` without those inside another of them, and without repeats (the first kept): the
    /// folders a walk of all of them visits once each (by bytes).
    package static func outermost(_ paths: [String]) -> [String] {
        paths.enumerated().filter { i, p in
            !paths.enumerated().contains { j, o in
                j != i && PathKey(p).isWithin(o) && (PathKey(p) != PathKey(o) || j < i)
            }
        }.map(\.element)
    }

    /// The path is `folder` or lies below it (bytes, not characters).
    package func isWithin(_ folder: String) -> Bool {
        let fast = path.utf8.withContiguousStorageIfAvailable { p in
            folder.utf8.withContiguousStorageIfAvailable { f in PathKey.isWithin(p, f) }
        }
        if let fast, let within = fast { return within }
        return PathKey.isWithin(Array(path.utf8)[...], Array(folder.utf8)[...])
    }

    private static func isWithin<C: BidirectionalCollection>(_ p: C, _ f: C) -> Bool where C.Element == UInt8 {
        guard p.count >= f.count, p.starts(with: f) else { return false }
        guard p.count > f.count else { return true }
        return p[p.index(p.startIndex, offsetBy: f.count)] == UInt8(ascii: "/") || f.last == UInt8(ascii: "/")
    }
}
