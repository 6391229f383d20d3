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
            WatchEventReport.writeBytes("foldersBytes", of: folders, to: &w)
        case .changes(let inserted, let removed, let changed, let moved):
            w.key("inserted")
            w.beginArray()
            for a in inserted { report.write(a, to: &w) }
            w.endArray()
            w.key("removed")
            w.beginArray()
            for p in removed { w.string(p) }
            w.endArray()
            WatchEventReport.writeBytes("removedBytes", of: removed, to: &w)
            w.key("changed")
            w.beginArray()
            for a in changed { report.write(a, to: &w) }
            w.endArray()
            w.key("moved")
            w.beginArray()
            for m in moved {
                w.beginObject()
                WatchEventReport.writePath("from", "fromBytes", m.from, to: &w)
                WatchEventReport.writePath("to", "toBytes", m.to, to: &w)
                w.endObject()
            }
            w.endArray()
        case .suggestion(let offer):
            offer.writeFields(to: &w, report: report)
        case .withdrawn(let withdrawal):
            WatchEventReport.writePath("path", "pathBytes", withdrawal.path, to: &w)
            w.field("reason", withdrawal.reason.rawValue)
            if let to = withdrawal.to { WatchEventReport.writePath("to", "toBytes", to, to: &w) }
        case .thumbnail(let path, let outcome):
            WatchEventReport.writePath("path", "pathBytes", path, to: &w)
            outcome.writeFields(to: &w)
        case .error(let message):
            w.field("message", message)
        }
        w.endObject()
        return w.output
    }

    /// Writes a path under `key`, and for a name that is not UTF-8 its exact bytes in base64
    /// under `bytesKey`, the key + `Bytes` (`pathBytes`, `fromBytes`, `toBytes`; docs/json.md).
    static func writePath(_ key: StaticString, _ bytesKey: StaticString, _ path: String, to w: inout JSONWriter) {
        w.field(key, path)
        if PathBytes.hasRawBytes(path) { w.field(bytesKey, PathBytes.base64(path)) }
    }

    /// Beside a list of paths, index for index, when any is not UTF-8: the exact bytes of each
    /// such name (base64), null for the others (docs/watch.md).
    static func writeBytes(_ key: StaticString, of paths: [String], to w: inout JSONWriter) {
        guard paths.contains(where: PathBytes.hasRawBytes) else { return }
        w.key(key)
        w.beginArray()
        for p in paths {
            if PathBytes.hasRawBytes(p) { w.string(PathBytes.base64(p)) } else { w.null() }
        }
        w.endArray()
    }

    /// The path as written (U+FFFD for raw bytes), made exact again from its `...Bytes` key.
    static func exact(_ path: String, bytes b64: String?) -> String {
        guard let b64, let bytes = PathBytes.fromBase64(b64) else { return path }
        return PathBytes.decode(bytes)
    }

    /// A rename in a `changes` event.
    package struct Moved: Sendable, Equatable, Codable {
        package var from: String
        package var to: String
        package init(from: String, to: String) {
            self.from = from
            self.to = to
        }

        enum CodingKeys: String, CodingKey { case from, fromBytes, to, toBytes }

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            from = try c.decodePath(forKey: .from, bytesKey: .fromBytes)
            to = try c.decodePath(forKey: .to, bytesKey: .toBytes)
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodePath(from, forKey: .from, bytesKey: .fromBytes)
            try c.encodePath(to, forKey: .to, bytesKey: .toBytes)
        }
    }

    enum CodingKeys: String, CodingKey {
        case schema, event, folders, foldersBytes, inserted, removed, removedBytes, changed, moved, message, path, pathBytes,
            reason, to
        case toBytes
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let schema = try c.decodeIfPresent(Int.self, forKey: .schema), schema > AssetReport.schemaVersion {
            throw DecodingError.dataCorruptedError(
                forKey: .schema, in: c, debugDescription: "schema \(schema) is newer than \(AssetReport.schemaVersion)")
        }
        let event = try c.decode(String.self, forKey: .event)
        switch event {
        case "ready":
            self = .ready(
                folders: WatchEventReport.exact(
                    try c.decode([String].self, forKey: .folders),
                    bytes: try c.decodeIfPresent([String?].self, forKey: .foldersBytes)))
        case "changes":
            self = .changes(
                inserted: try c.decode([MediaAsset].self, forKey: .inserted),
                removed: WatchEventReport.exact(
                    try c.decode([String].self, forKey: .removed),
                    bytes: try c.decodeIfPresent([String?].self, forKey: .removedBytes)),
                changed: try c.decode([MediaAsset].self, forKey: .changed),
                moved: try c.decode([Moved].self, forKey: .moved))
        case "suggestion": self = .suggestion(try OfferReport(from: decoder))
        case "withdrawn":
            self = .withdrawn(
                OfferWithdrawal(
                    path: try c.decodePath(forKey: .path, bytesKey: .pathBytes),
                    reason: try c.decode(OfferWithdrawal.Reason.self, forKey: .reason),
                    to: try c.decodeIfPresent(String.self, forKey: .to).map {
                        WatchEventReport.exact($0, bytes: try c.decodeIfPresent(String.self, forKey: .toBytes))
                    }))
        case "thumbnail":
            self = .thumbnail(
                path: try c.decodePath(forKey: .path, bytesKey: .pathBytes),
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
        case .ready(let folders):
            try c.encode(folders.map(PathBytes.lossy), forKey: .folders)
            if folders.contains(where: PathBytes.hasRawBytes) {
                try c.encode(folders.map { PathBytes.hasRawBytes($0) ? PathBytes.base64($0) : nil }, forKey: .foldersBytes)
            }
        case .changes(let inserted, let removed, let changed, let moved):
            try c.encode(inserted, forKey: .inserted)
            try c.encode(removed.map(PathBytes.lossy), forKey: .removed)
            if removed.contains(where: PathBytes.hasRawBytes) {
                let bytes = removed.map { PathBytes.hasRawBytes($0) ? PathBytes.base64($0) : nil }
                try c.encode(bytes, forKey: .removedBytes)
            }
            try c.encode(changed, forKey: .changed)
            try c.encode(moved, forKey: .moved)
        case .suggestion(let offer): try offer.encode(to: encoder)
        case .withdrawn(let w):
            try c.encodePath(w.path, forKey: .path, bytesKey: .pathBytes)
            try c.encode(w.reason, forKey: .reason)
            if let to = w.to { try c.encodePath(to, forKey: .to, bytesKey: .toBytes) }
        case .thumbnail(let path, let outcome):
            try c.encodePath(path, forKey: .path, bytesKey: .pathBytes)
            try outcome.encode(to: encoder)
        case .error(let message): try c.encode(message, forKey: .message)
        }
    }

    /// `removed` made exact from `removedBytes` (index for index; null for a UTF-8 name).
    static func exact(_ paths: [String], bytes: [String?]?) -> [String] {
        guard let bytes else { return paths }
        return paths.indices.map { i in exact(paths[i], bytes: i < bytes.count ? bytes[i] : nil) }
    }
}
