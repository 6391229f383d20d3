/// Decides which file to offer: every candidate goes through the rules in order (the first
/// rejection is kept), and among those left the newest capture wins; equal instants break by
/// path. Pure: the clock, the memory and the settings come in through `SuggestionContext`.
public struct SuggestionEngine: Sendable {
    public var rules: [any SuggestionRule]

    /// The rules in the order they are asked (docs/suggest.md).
    public static let defaultRules: [any SuggestionRule] = [
        MediaRule(), ScreenshotRule(), RecencyRule(), MemoryRule(), CompletenessRule(),
    ]

    public init(rules: [any SuggestionRule] = SuggestionEngine.defaultRules) { self.rules = rules }

    public struct Decision: Sendable {
        public var suggestion: SuggestionCandidate?
        /// The suggestion's capture instant (seconds since 1970).
        public var instant: Double?
        public var considered: Int
        /// Every candidate that was turned down, with the rule.
        public var rejected: [SuggestionRejection]
        /// Candidates that passed every rule but lost to a newer one.
        public var outranked: [String]
    }

    public func decide(_ candidates: [SuggestionCandidate], context: SuggestionContext) -> Decision {
        var rejected: [SuggestionRejection] = []
        var qualified: [(SuggestionCandidate, Double)] = []
        for c in candidates {
            if let (rule, reason) = firstRejection(c, context) {
                rejected.append(SuggestionRejection(path: c.path, rule: rule, reason: reason))
            } else if let t = context.instant(of: c) {
                qualified.append((c, t))
            }
        }
        // Newest first; equal instants: the path that sorts first.
        qualified.sort { a, b in a.1 != b.1 ? a.1 > b.1 : a.0.path.utf8.lexicographicallyPrecedes(b.0.path.utf8) }
        return Decision(suggestion: qualified.first?.0, instant: qualified.first?.1, considered: candidates.count,
                        rejected: rejected, outranked: qualified.dropFirst().map(\.0.path))
    }

    func firstRejection(_ c: SuggestionCandidate, _ context: SuggestionContext) -> (String, String)? {
        for rule in rules {
            if let reason = rule.reject(c, in: context) { return (rule.name, reason) }
        }
        return nil
    }
}
