import Foundation

/// What `photometa status` prints (docs/service.md): whether a live service answers for the
/// folders, and if so which one; if not, why.
package struct StatusReport: Sendable, Equatable, Codable {
    package var schema = AssetReport.schemaVersion
    package var serving: Bool
    package var pid: Int32?
    /// The service's folders (canonical).
    package var folders: [String]
    package var files: Int?
    /// Since when it serves, ISO 8601 in UTC.
    package var since: String?
    /// Why no service answers.
    package var reason: String?
    /// How often (seconds) the service looks again besides inotify's events, how often such a
    /// look looks at every file (the others look at folders first: NFS, SMB), and when it last
    /// looked (ISO 8601 in UTC); nil when it does not.
    package var rescanEvery: Double?
    package var wholeRescanEvery: Double?
    package var lastRescan: String?

    /// A service that answers; `rescan` when it looks again (seconds, and since 1970).
    package init(
        pid: Int32, folders: [String], files: Int, since: Double, rescan: (every: Double, whole: Double, last: Double)? = nil
    ) {
        serving = true
        self.pid = pid
        self.folders = folders
        self.files = files
        let format = ISO8601DateFormatter()
        self.since = format.string(from: Date(timeIntervalSince1970: since))
        rescanEvery = rescan?.every
        wholeRescanEvery = rescan?.whole
        lastRescan = rescan.map { format.string(from: Date(timeIntervalSince1970: $0.last)) }
    }

    /// None answers, and why.
    package init(notServing reason: String) {
        serving = false
        folders = []
        self.reason = reason
    }

    package var json: String {
        var w = JSONWriter()
        w.beginObject()
        w.field("schema", schema)
        w.field("serving", serving)
        w.field("pid", pid.map(Int.init))
        w.key("folders")
        w.beginArray()
        for f in folders { w.string(f) }
        w.endArray()
        w.field("files", files)
        w.field("since", since)
        w.field("reason", reason)
        w.field("rescanEvery", rescanEvery)
        w.field("wholeRescanEvery", wholeRescanEvery)
        w.field("lastRescan", lastRescan)
        w.endObject()
        return w.output
    }

    package var text: String {
        guard serving, let pid else { return "No service answers: \(TerminalText.escape(reason ?? "unknown")).\n" }
        let named = folders.map(TerminalText.escape).joined(separator: ", ")
        let looks = rescanEvery.map { every in
            let whole = wholeRescanEvery ?? every
            let how =
                whole > every
                ? "its folders again every \(DurationText.describe(every)) and at every file every "
                    + DurationText.describe(whole)
                : "every file again every \(DurationText.describe(every))"
            return "; it looks at \(how) (last look at \(lastRescan ?? "?"))"
        }
        return "Served by photometa serve (pid \(pid)) since \(since ?? "?"): \(named), \(files ?? 0) file"
            + (files == 1 ? "" : "s") + (looks ?? "") + ".\n"
    }
}
