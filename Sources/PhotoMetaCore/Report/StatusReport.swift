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

    /// A service that answers.
    package init(pid: Int32, folders: [String], files: Int, since: Double) {
        serving = true
        self.pid = pid
        self.folders = folders
        self.files = files
        self.since = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: since))
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
        w.endObject()
        return w.output
    }

    package var text: String {
        guard serving, let pid else { return "No service answers: \(TerminalText.escape(reason ?? "unknown")).\n" }
        let named = folders.map(TerminalText.escape).joined(separator: ", ")
        return
            "Served by photometa serve (pid \(pid)) since \(since ?? "?"): \(named), \(files ?? 0) file\(files == 1 ? "" : "s").\n"
    }
}
