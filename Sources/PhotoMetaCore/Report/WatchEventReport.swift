/// An event of `watch --jsonl` as printed (docs/watch.md): `{"schema":1,"event":NAME,...}`, one
/// per line. The one home of every event's shape, written by `json(report:)` for the CLI and
/// read back by `Codable`.
package enum WatchEventReport: Sendable, Equatable, Codable {
    /// Every folder is watched: from now on nothing is missed.
    case ready(folders: [String])
    /// One settled batch: inspected files (inspect's rows) and removed paths.
    case changes(inserted: [MediaAsset], removed: [String], changed: [MediaAsset])
    /// A new offer (recorded before it is printed).
    case suggestion(OfferReport)
    /// A failure that does not stop the watch.
    case error(message: String)

    /// The event's name in the `event` key.
    package var name: String {
        switch self {
        case .ready: return "ready"
        case .changes: return "changes"
        case .suggestion: return "suggestion"
        case .error: return "error"
        }
    }

    /// The line's JSON object (no newline), dates in the report's zone.
    package func json(report: AssetReport) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("schema", AssetReport.schemaVersion)
        w.field("event", name)
        switch self {
        case .ready(let folders):
            w.key("folders")
            w.beginArray()
            for f in folders { w.string(f) }
            w.endArray()
        case .changes(let inserted, let removed, let changed):
            w.key("inserted")
            w.beginArray()
            for a in inserted { report.write(a, to: &w) }
            w.endArray()
            w.key("removed")
            w.beginArray()
            for p in removed { w.string(p) }
            w.endArray()
            w.key("changed")
            w.beginArray()
            for a in changed { report.write(a, to: &w) }
            w.endArray()
        case .suggestion(let offer):
            offer.writeFields(to: &w, report: report)
        case .error(let message):
            w.field("message", message)
        }
        w.endObject()
        return w.output
    }

    enum CodingKeys: String, CodingKey { case schema, event, folders, inserted, removed, changed, message }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let schema = try c.decodeIfPresent(Int.self, forKey: .schema), schema > AssetReport.schemaVersion {
            throw DecodingError.dataCorruptedError(
                forKey: .schema, in: c, debugDescription: "schema \(schema) is newer than \(AssetReport.schemaVersion)")
        }
        let event = try c.decode(String.self, forKey: .event)
        switch event {
        case "ready": self = .ready(folders: try c.decode([String].self, forKey: .folders))
        case "changes":
            self = .changes(
                inserted: try c.decode([MediaAsset].self, forKey: .inserted),
                removed: try c.decode([String].self, forKey: .removed),
                changed: try c.decode([MediaAsset].self, forKey: .changed))
        case "suggestion": self = .suggestion(try OfferReport(from: decoder))
        case "error": self = .error(message: try c.decode(String.self, forKey: .message))
        default:
            throw DecodingError.dataCorruptedError(forKey: .event, in: c, debugDescription: "unknown event \(event)")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(AssetReport.schemaVersion, forKey: .schema)
        try c.encode(name, forKey: .event)
        switch self {
        case .ready(let folders): try c.encode(folders, forKey: .folders)
        case .changes(let inserted, let removed, let changed):
            try c.encode(inserted, forKey: .inserted)
            try c.encode(removed, forKey: .removed)
            try c.encode(changed, forKey: .changed)
        case .suggestion(let offer): try offer.encode(to: encoder)
        case .error(let message): try c.encode(message, forKey: .message)
        }
    }
}
