import Foundation
import PhotoMetaCore
import PhotoMetaSystem

/// Time zones from the command line (`--tz`) and from the environment (`TZ`).
enum ZoneArgument {
    /// An IANA name in any case (`Asia/Shanghai`, `asia/shanghai`), `UTC`/`Z`, or a fixed offset
    /// (`+08:00`, `-0530`).
    static func parse(_ text: String) throws(UsageError) -> TimeZone {
        if let z = zone(named: text) { return z }
        throw UsageError(
            "unknown time zone '\(text)' (use an IANA name such as Europe/Paris, UTC, or an offset such as +08:00)")
    }

    /// The zone `text` names, or nil.
    static func zone(named text: String) -> TimeZone? {
        if let o = DateTextParser.offset(text), text.first == "+" || text.first == "-" {
            return TimeZone(secondsFromGMT: o.seconds)
        }
        // Foundation on Linux renames "UTC" to "GMT"; keep the name people typed recognisable.
        let lower = text.lowercased()
        if lower == "utc" || lower == "z" || lower == "etc/utc" { return TimeZone(identifier: "Etc/UTC") }
        if let z = TimeZone(identifier: text) { return z }
        if let id = TimeZone.knownTimeZoneIdentifiers.first(where: { $0.lowercased() == lower }) {
            return TimeZone(identifier: id)
        }
        // tzdata's `posix/` and `right/` copies of every zone (`posix/Asia/Tokyo`), which glibc
        // reads as the zone itself; `right/` counts leap seconds in `time_t`, which no file's
        // time does, so its civil offset is the zone's.
        for prefix in ["posix/", "right/"] where lower.hasPrefix(prefix) && text.count > prefix.count {
            return zone(named: String(text.dropFirst(prefix.count)))
        }
        return nil
    }

    /// The zone the process runs in, read from `TZ` the way glibc reads it: unset means the
    /// system's zone (`/etc/localtime`); empty means UTC; a leading `:` is dropped; a path into
    /// a zoneinfo folder names the zone after it; a zone's own name is that zone; else a POSIX
    /// rule (`CST-8`, `UTC-8`, `<+0530>-5:30`) gives its standard offset, counted west as POSIX
    /// counts; else a zone name in any case. A `TZ` that names no zone is not silently UTC: `warning` says so.
    static func fromEnvironment(_ environment: [String: String] = ProcessEnvironment.current)
        -> (zone: TimeZone, warning: String?)
    {
        let utc = TimeZone(identifier: "Etc/UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
        guard var tz = environment["TZ"] else { return (.current, nil) }
        if tz.isEmpty { return (utc, nil) }
        if tz.hasPrefix(":") { tz.removeFirst() }
        if tz.hasPrefix("/") {
            if let r = tz.range(of: "zoneinfo/"), let z = zone(named: String(tz[r.upperBound...])) { return (z, nil) }
            if FileSystem.exists(tz), tz == "/etc/localtime" { return (.current, nil) }
        } else if isZoneFile(tz), let z = zone(named: tz) {
            return (z, nil)
        } else if let (offset, hasDST) = posixRule(tz), let z = TimeZone(secondsFromGMT: offset) {
            // Before the lenient names: Foundation reads "UTC-8" as 8 hours west, POSIX east.
            return (z, hasDST ? "TZ=\(tz): its daylight-saving rule is not applied; using its standard offset" : nil)
        } else if let z = zone(named: tz) {
            return (z, nil)
        }
        return (utc, "TZ=\(tz) names no time zone; using UTC (set TZ to an IANA name such as Asia/Shanghai)")
    }

    /// Whether `name` is what glibc looks for first: a zone of the system's zoneinfo folder
    /// (`Etc/GMT-8`, `EST5EDT`, `Asia/Tokyo`), by its exact name.
    static func isZoneFile(_ name: String) -> Bool {
        guard !name.isEmpty, !name.split(separator: "/").contains("..") else { return false }
        // The file first: one statx, where ICU's list of names costs a millisecond to build.
        return FileSystem.exists("/usr/share/zoneinfo/" + name) || TimeZone.knownTimeZoneIdentifiers.contains(name)
    }

    /// [POSIX.1-2017 8.3, TZ] `std offset [dst ...]`: the standard offset in seconds east of UTC
    /// (POSIX counts west, hence the sign) and whether a daylight-saving part follows.
    static func posixRule(_ text: String) -> (offset: Int, hasDST: Bool)? {
        let s = Array(text.unicodeScalars)
        var i = 0
        if i < s.count, s[i] == "<" {
            while i < s.count, s[i] != ">" { i += 1 }
            guard i < s.count else { return nil }
            i += 1
        } else {
            let start = i
            while i < s.count, CharacterSet.letters.contains(s[i]) { i += 1 }
            guard i - start >= 3 else { return nil }
        }
        var sign = 1
        if i < s.count, s[i] == "+" || s[i] == "-" {
            if s[i] == "-" { sign = -1 }
            i += 1
        }
        var parts: [Int] = []
        var current = ""
        while i < s.count, ("0"..."9").contains(s[i]) || s[i] == ":" {
            if s[i] == ":" {
                guard let v = Int(current) else { return nil }
                parts.append(v)
                current = ""
            } else {
                current.unicodeScalars.append(s[i])
            }
            i += 1
        }
        guard let last = Int(current), current.count <= 2 else { return nil }
        parts.append(last)
        guard parts.count <= 3, parts[0] <= 24, parts.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let west = parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
        return (-sign * west, i < s.count)
    }

    /// The default zone of a command: `TZ` as above, its warning printed once on stderr.
    static func processDefault() -> TimeZone {
        let (zone, warning) = fromEnvironment()
        if let warning { Output.err("photometa: warning: \(warning)") }
        return zone
    }
}
