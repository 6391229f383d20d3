/// A path compared and hashed by its bytes, as the file system compares names: Swift's
/// `String` equality follows Unicode canonical equivalence, so `café` written with one code
/// point or with two would be one key, and two folders on Linux would be one.
package struct PathKey: Hashable, Sendable {
    package let path: String

    package init(_ path: String) { self.path = path }

    package static func == (a: PathKey, b: PathKey) -> Bool { a.path.utf8.elementsEqual(b.path.utf8) }

    package func hash(into hasher: inout Hasher) {
        var copy = path
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The path is `folder` or lies below it (bytes, not characters).
    package func isWithin(_ folder: String) -> Bool {
        let f = folder.utf8
        guard path.utf8.starts(with: f) else { return false }
        let rest = path.utf8.dropFirst(f.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/") || f.last == UInt8(ascii: "/")
    }
}
