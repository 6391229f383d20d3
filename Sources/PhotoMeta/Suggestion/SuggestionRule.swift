/// One reason not to offer a file. Rules are values; the engine asks each in order and keeps
/// the first rejection, so `--explain` says exactly which rule turned a file down and why.
public protocol SuggestionRule: Sendable {
    /// The rule's name in reports (`recency`, `media`, `screenshots`, `memory`, `completeness`).
    var name: String { get }
    /// Nil when the candidate passes; otherwise the reason, for people.
    func reject(_ candidate: SuggestionCandidate, in context: SuggestionContext) -> String?
}

/// A candidate turned down, and by which rule.
public struct SuggestionRejection: Sendable, Equatable {
    public var path: String
    public var rule: String
    public var reason: String
}
