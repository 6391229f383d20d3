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
        /// Every candidate that was turned down, with the rule (empty when not kept).
        public var rejected: [SuggestionRejection]
        /// Candidates that passed every rule but lost to a newer one (empty when not kept).
        public var outranked: [String]
    }

    public func decide(_ candidates: [SuggestionCandidate], context: SuggestionContext) -> Decision {
        var builder = DecisionBuilder(engine: self, context: context)
        for c in candidates { builder.add(c) }
        return builder.decision
    }

    /// Folds candidates in one at a time, in any order, keeping only the best so far (and the
    /// explanations when asked): a folder of any size is decided in constant memory.
    public struct DecisionBuilder {
        let engine: SuggestionEngine
        let context: SuggestionContext
        /// Keep every rejection and outranked path (for `--explain`).
        let explain: Bool
        private var best: (candidate: SuggestionCandidate, instant: Double)?
        private var considered = 0
        private var rejected: [SuggestionRejection] = []
        private var outranked: [String] = []

        public init(engine: SuggestionEngine = SuggestionEngine(), context: SuggestionContext, explain: Bool = true) {
            self.engine = engine
            self.context = context
            self.explain = explain
        }

        public mutating func add(_ c: SuggestionCandidate) {
            considered += 1
            if let (rule, reason) = engine.firstRejection(c, context) {
                if explain { rejected.append(SuggestionRejection(path: c.path, rule: rule, reason: reason)) }
                return
            }
            guard let t = context.instant(of: c) else { return }
            if let b = best {
                // Newest first; equal instants: the path that sorts first.
                let better = t != b.instant ? t > b.instant : c.path.utf8.lexicographicallyPrecedes(b.candidate.path.utf8)
                if explain { outranked.append(better ? b.candidate.path : c.path) }
                if !better { return }
            }
            best = (c, t)
        }

        public var decision: Decision {
            Decision(suggestion: best?.candidate, instant: best?.instant, considered: considered, rejected: rejected,
                     outranked: outranked.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        }
    }

    func firstRejection(_ c: SuggestionCandidate, _ context: SuggestionContext) -> (String, String)? {
        for rule in rules {
            if let reason = rule.reject(c, in: context) { return (rule.name, reason) }
        }
        return nil
    }
}
