/// A pattern for `--exclude`, matched against a path below the folder being walked: `*` is any
/// run of characters within one path component, `?` one character, `**` any number of whole
/// components (none included), everything else itself. A pattern without a `/` also matches
/// the last component alone, so `*.tmp` and `Screenshots` exclude such files or folders at any
/// depth; `Camera/*.mov` only directly in `Camera`; `**/cache/**` anything under any `cache`.
package struct PathGlob: Sendable, Equatable, CustomStringConvertible {
    package let pattern: String
    private let parts: [[Unicode.Scalar]]
    private let anyDepth: Bool

    /// Nil for an empty pattern.
    package init?(_ pattern: String) {
        var p = pattern
        while p.hasPrefix("./") { p.removeFirst(2) }
        while p.hasSuffix("/") { p.removeLast() }
        guard !p.isEmpty else { return nil }
        self.pattern = pattern
        parts = p.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.unicodeScalars) }
        anyDepth = !p.contains("/")
    }

    package var description: String { pattern }

    /// True when `relative` (components joined with `/`, no leading `/`) matches.
    package func matches(_ relative: String) -> Bool {
        let components = relative.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.unicodeScalars) }
        if anyDepth, let last = components.last, parts.count == 1, PathGlob.component(parts[0], last) { return true }
        return PathGlob.match(parts[...], components[...])
    }

    /// True when a walk with `patterns` leaves `relative` out: the path itself or a folder on
    /// its way matches one (a walk never enters an excluded folder).
    package static func excludes(_ relative: String, _ patterns: [PathGlob]) -> Bool {
        guard !patterns.isEmpty else { return false }
        var prefix = ""
        for component in relative.split(separator: "/", omittingEmptySubsequences: true) {
            prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
            if patterns.contains(where: { $0.matches(prefix) }) { return true }
        }
        return false
    }

    private static func match(_ p: ArraySlice<[Unicode.Scalar]>, _ c: ArraySlice<[Unicode.Scalar]>) -> Bool {
        guard let first = p.first else { return c.isEmpty }
        if first == ["*", "*"] {
            // `**`: zero or more whole components.
            var rest = c
            while true {
                if match(p.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        }
        guard let head = c.first, component(first, head) else { return false }
        return match(p.dropFirst(), c.dropFirst())
    }

    /// `*` and `?` within one component (iterative, with one backtrack point: linear time).
    static func component(_ p: [Unicode.Scalar], _ s: [Unicode.Scalar]) -> Bool {
        var i = 0
        var j = 0
        var star = -1
        var mark = 0
        while j < s.count {
            if i < p.count, p[i] == "?" || p[i] == s[j], p[i] != "*" {
                i += 1
                j += 1
            } else if i < p.count, p[i] == "*" {
                star = i
                mark = j
                i += 1
            } else if star >= 0 {
                i = star + 1
                mark += 1
                j = mark
            } else {
                return false
            }
        }
        while i < p.count, p[i] == "*" { i += 1 }
        return i == p.count
    }
}
