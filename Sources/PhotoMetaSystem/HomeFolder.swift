import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// The user's home folder, the one rule every default path starts from (the memory, the index,
/// the thumbnail cache, the pictures folder).
package enum HomeFolder {
    /// `HOME` when it is an absolute path; else the password database's home of this user
    /// [getpwuid_r(3)]; else `/nonexistent`, under which nothing can be made, so the command
    /// says it cannot create its file rather than write somewhere unexpected. A relative
    /// `HOME` is not used: it would put state under whatever folder the command runs in (as
    /// the XDG variables, which must be absolute, are ignored when relative).
    package static func path(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        return passwordEntry() ?? "/nonexistent"
    }

    /// An XDG base directory (`XDG_STATE_HOME`, `XDG_CACHE_HOME`, `XDG_CONFIG_HOME`) when it is
    /// set to an absolute path [XDG Base Directory Specification: "If an implementation
    /// encounters a relative path in any of these variables it should consider the path
    /// invalid"], without trailing slashes, so a file below it is named with one `/`
    /// (`XDG_STATE_HOME=/` gives `/photometa`, not `//photometa`); nil otherwise.
    package static func base(_ name: String, _ environment: [String: String]) -> String? {
        guard var value = environment[name], value.hasPrefix("/") else { return nil }
        while value.hasSuffix("/") { value.removeLast() }
        return value
    }

    private static func passwordEntry() -> String? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let rc = getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &found)
        guard rc == 0, found != nil, let dir = entry.pw_dir else { return nil }
        let home = PathBytes.decode(UnsafeBufferPointer(start: dir, count: strlen(dir)).map { UInt8(bitPattern: $0) })
        return home.hasPrefix("/") ? home : nil
    }
}
