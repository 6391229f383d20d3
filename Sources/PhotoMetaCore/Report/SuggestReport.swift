import Foundation

/// What `suggest --json` prints (docs/suggest.md): the one home of the shape, written by
/// `json(zone:)` for the CLI and read back by `Codable`.
package struct SuggestReport: Sendable, Equatable, Codable {
    /// A file turned down (by `rule`, or outranked: rule `choice`).
    package struct Rejection: Sendable, Equatable, Codable {
        package var path: String
        package var rule: RuleID
        package var reason: String

        package init(path: String, rule: RuleID, reason: String) {
            self.path = path
            self.rule = rule
            self.reason = reason
        }

        enum CodingKeys: String, CodingKey { case path, pathBytes, rule, reason }

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            path = try c.decodePath(forKey: .path, bytesKey: .pathBytes)
            rule = try c.decode(RuleID.self, forKey: .rule)
            reason = try c.decode(String.self, forKey: .reason)
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodePath(path, forKey: .path, bytesKey: .pathBytes)
            try c.encode(rule, forKey: .rule)
            try c.encode(reason, forKey: .reason)
        }
    }

    /// An entry not considered at all, and why.
    package struct Skipped: Sendable, Equatable, Codable {
        package var path: String
        package var reason: String

        package init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        enum CodingKeys: String, CodingKey { case path, pathBytes, reason }

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            path = try c.decodePath(forKey: .path, bytesKey: .pathBytes)
            reason = try c.decode(String.self, forKey: .reason)
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodePath(path, forKey: .path, bytesKey: .pathBytes)
            try c.encode(reason, forKey: .reason)
        }
    }

    package var schema = AssetReport.schemaVersion
    package var suggestion: OfferReport?
    package var considered: Int
    /// The offer was recorded in the memory.
    package var recorded: Bool
    /// Who answered: `service` (a running `photometa serve`) or `scan` (the folders walked).
    package var from = "scan"
    /// Set (true) for `suggest --standing`: the offer is the one standing, not a new one.
    package var standing: Bool?
    package var pending: SuggestionDecision.Pending?
    /// With `--explain` only (nil: the keys are not written).
    package var rejected: [Rejection]?
    package var skipped: [Skipped]?

    /// The report of `decision`; `explain` adds every rejection (outranked files as rule
    /// `choice`) and the skipped entries. `size`: the offered picture's, `zone`: the rules'.
    package init(
        _ decision: SuggestionDecision, ageSeconds: Double?, recorded: Bool, explain: Bool, skipped: [Skipped],
        zone: TimeZone, size: (width: Int?, height: Int?)? = nil, thumbnail: ThumbnailOutcome? = nil
    ) {
        suggestion = decision.suggestion.map {
            OfferReport($0, size: size, zone: zone, ageSeconds: ageSeconds, thumbnail: thumbnail)
        }
        considered = decision.considered
        self.recorded = recorded
        pending = decision.pending
        if explain {
            rejected =
                decision.rejected.map { Rejection(path: $0.path, rule: $0.rule, reason: $0.reason) }
                + decision.outranked.map {
                    Rejection(path: $0, rule: .choice, reason: SuggestReport.outrankedReason(pending: decision.pending != nil))
                }
            self.skipped = skipped
        }
    }

    /// Why an outranked file was not offered: a newer one qualifies, or (`pending`) a newer one
    /// will once it is written, and nothing is offered until then.
    package static func outrankedReason(pending: Bool) -> String {
        pending ? "a newer file is still being written" : "a newer capture qualifies"
    }

    /// The JSON object, dates shown in `zone` where the file gives no offset.
    package func json(report: AssetReport) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("schema", schema)
        w.key("suggestion")
        if let s = suggestion {
            w.beginObject()
            s.writeFields(to: &w, report: report)
            w.endObject()
        } else {
            w.null()
        }
        w.field("considered", considered)
        w.field("recorded", recorded)
        w.field("from", from)
        if let standing { w.field("standing", standing) }
        w.key("pending")
        if let p = pending {
            w.beginObject()
            WatchEventReport.writePath("path", "pathBytes", p.path, to: &w)
            w.field("retryAfterMs", p.retryAfterMilliseconds)
            w.endObject()
        } else {
            w.null()
        }
        if let rejected {
            w.key("rejected")
            w.beginArray()
            for r in rejected { SuggestReport.writeEntry(r.path, rule: r.rule, reason: r.reason, to: &w) }
            w.endArray()
        }
        if let skipped {
            w.key("skipped")
            w.beginArray()
            for s in skipped { SuggestReport.writeEntry(s.path, rule: nil, reason: s.reason, to: &w) }
            w.endArray()
        }
        w.endObject()
        return w.output
    }

    private static func writeEntry(_ path: String, rule: RuleID?, reason: String, to w: inout JSONWriter) {
        w.beginObject()
        WatchEventReport.writePath("path", "pathBytes", path, to: &w)
        if let rule { w.field("rule", rule.rawValue) }
        w.field("reason", reason)
        w.endObject()
    }

    enum CodingKeys: String, CodingKey {
        case schema, suggestion, considered, recorded, from, standing, pending, rejected, skipped
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(schema, forKey: .schema)
        try c.encode(suggestion, forKey: .suggestion)
        try c.encode(considered, forKey: .considered)
        try c.encode(recorded, forKey: .recorded)
        try c.encode(from, forKey: .from)
        try c.encodeIfPresent(standing, forKey: .standing)
        try c.encode(pending, forKey: .pending)
        try c.encodeIfPresent(rejected, forKey: .rejected)
        try c.encodeIfPresent(skipped, forKey: .skipped)
    }
}
