/// One reason not to offer a file. Rules are values; the engine asks each in order and keeps
/// the first rejection, so `--explain` says exactly which rule turned a file down and why.
package protocol SuggestionRule: Sendable {
    /// The rule's identifier in reports.
    var id: RuleID { get }
    /// Nil when the candidate passes; otherwise the reason, for people.
    func reject(_ candidate: SuggestionCandidate, in context: SuggestionContext) -> String?
    /// True when `reject` would give a reason: what a decision without explanations asks, so a
    /// rule whose reason costs more than its verdict (recency writes two durations) can answer
    /// without writing it.
    func rejects(_ candidate: SuggestionCandidate, in context: SuggestionContext) -> Bool
}

extension SuggestionRule {
    package func rejects(_ candidate: SuggestionCandidate, in context: SuggestionContext) -> Bool {
        reject(candidate, in: context) != nil
    }
}

/// Names a suggestion rule in reports (`media`, `screenshots`, `recency`, `memory`,
/// `completeness`, and `choice` for a file that passed every rule but lost to a newer one).
/// A struct rather than an enum, so reports from a newer photometa with more rules still decode.
public struct RuleID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The identifier as reports write it.
    public let rawValue: String
    /// Any identifier; the known ones are the static members.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Only images and videos, stills unless videos are asked for, never a Live Photo's movie.
    public static let media = RuleID(rawValue: "media")
    /// Screenshots included, excluded or alone.
    public static let screenshots = RuleID(rawValue: "screenshots")
    /// Captured recently, not in the future.
    public static let recency = RuleID(rawValue: "recency")
    /// Not offered or dismissed before.
    public static let memory = RuleID(rawValue: "memory")
    /// Completely written.
    public static let completeness = RuleID(rawValue: "completeness")
    /// Passed every rule, but a newer capture won.
    public static let choice = RuleID(rawValue: "choice")

    /// The raw value.
    public var description: String { rawValue }
}

/// A candidate turned down, and by which rule.
public struct SuggestionRejection: Sendable, Equatable, Codable {
    /// The file, as reported.
    public var path: String
    /// The rule that turned it down (the first that did).
    public var rule: RuleID
    /// Why, for people.
    public var reason: String
    /// The file's kind (after Live Photo pairing).
    public var kind: MediaKind

    /// A rejection of `path` (of `kind`) by `rule`, for `reason`.
    public init(path: String, rule: RuleID, reason: String, kind: MediaKind) {
        self.path = path
        self.rule = rule
        self.reason = reason
        self.kind = kind
    }
}
