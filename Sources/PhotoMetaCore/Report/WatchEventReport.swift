/// An event of `watch --jsonl` as printed (docs/watch.md): `{"schema":1,"event":NAME,...}`, one
/// per line. The one home of every event's shape, written by `json(report:)` for the CLI and
/// read back by `Codable`.
package enum WatchEventReport: Sendable, Equatable, Codable {
    /// Every folder is watched: from now on nothing is missed.
    case ready(folders: [String])
    /// One settled batch: inspected files (inspect's rows), removed paths and renames.
    case changes(inserted: [MediaAsset], removed: [String], changed: [MediaAsset], moved: [Moved])
    /// A new offer (recorded before it is printed), or the standing one (`standing` true) once
    /// at the start.
    case suggestion(OfferReport)
    /// The standing offer stopped standing.
    case withdrawn(OfferWithdrawal)
    /// An offer's picture, made after the offer was printed (`--thumbnail`).
    case thumbnail(path: String, ThumbnailOutcome)
    /// A failure that does not stop the watch.
    case error(message: String)

    /// The event's name in the `event` key.
    package var name: String {
        switch self {
        case .ready: return "ready"
        case .changes: return "changes"
        case .suggestion: return "suggestion"
        case .withdrawn: return "withdrawn"
        case .thumbnail: return "thumbnail"
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
        case .changes(let inserted, let removed, let changed, let moved):
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
            w.key("moved")
            w.beginArray()
            for m in moved {
                w.beginObject()
                w.field("from", m.from)
                w.field("to", m.to)
                w.endObject()
            }
            w.endArray()
        case .suggestion(let offer):
            offer.writeFields(to: &w, report: report)
        case .withdrawn(let withdrawal):
            w.field("path", withdrawal.path)
            w.field("reason", withdrawal.reason.rawValue)
            if let to = withdrawal.to { w.field("to", to) }
        case .thumbnail(let path, let outcome):
            w.field("path", path)
            outcome.writeFields(to: &w)
        case .error(let message):
            w.field("message", message)
        }
        w.endObject()
        return w.output
    }

    /// A rename in a `changes` event.
    package struct Moved: Sendable, Equatable, Codable {
        package var from: String
        package var to: String
        package init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    enum CodingKeys: String, CodingKey {
        case schema, event, folders, inserted, removed, changed, moved, message, path, reason, to
    }

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
                changed: try c.decode([MediaAsset].self, forKey: .changed),
                moved: try c.decode([Moved].self, forKey: .moved))
        case "suggestion": self = .suggestion(try OfferReport(from: decoder))
        case "withdrawn":
            self = .withdrawn(
                OfferWithdrawal(
                    path: try c.decode(String.self, forKey: .path),
                    reason: try c.decode(OfferWithdrawal.Reason.self, forKey: .reason),
                    to: try c.decodeIfPresent(String.self, forKey: .to)))
        case "thumbnail":
            self = .thumbnail(
                path: try c.decode(String.self, forKey: .path),
                try ThumbnailOutcome(from: decoder) ?? ThumbnailOutcome(made: nil, error: nil))
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
        case .changes(let inserted, let removed, let changed, let moved):
            try c.encode(inserted, forKey: .inserted)
            try c.encode(removed, forKey: .removed)
            try c.encode(changed, forKey: .changed)
            try c.encode(moved, forKey: .moved)
        case .suggestion(let offer): try offer.encode(to: encoder)
        case .withdrawn(let w):
            try c.encode(w.path, forKey: .path)
            try c.encode(w.reason, forKey: .reason)
            try c.encodeIfPresent(w.to, forKey: .to)
        case .thumbnail(let path, let outcome):
            try c.encode(path, forKey: .path)
            try outcome.encode(to: encoder)
        case .error(let message): try c.encode(message, forKey: .message)
        }
    }
}
