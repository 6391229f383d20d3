import PhotoMetaCore

/// How a running service is found: its registration file in the runtime folder, and the
/// name of its files there.
extension LibraryService {
    /// What the registration file says (`serve-KEY.json` in the runtime folder).
    package struct Registration: Codable, Sendable, Equatable {
        package var pid: Int32
        package var folders: [String]
        package var exclude: [String]
        package var socket: String
        package var lock: String
        package var since: Double
    }

    /// The name of the files of a service of `folders` with `exclude` in the runtime folder: one
    /// service per set of folders.
    package static func key(folders: [String], exclude: [String]) -> String {
        // FNV-1a over the folders and patterns: a name, not a secret.
        var h = FNV1a()
        // Sorted by bytes: `café` in one code point and in two are two folders, in one order.
        let sorted = folders.sorted { PathKey($0).precedes(PathKey($1)) }
        h.add((sorted + ["\u{0}"] + exclude).joined(separator: "\u{0}").utf8)
        return "serve-" + String(h.value, radix: 16)
    }
}
