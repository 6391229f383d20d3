/// Decides which file to offer: every candidate goes through the rules in order (the first
/// rejection is kept), and among those left the newest capture wins; equal instants break by
/// path. Pure: the clock, the memory and the settings come in through `SuggestionContext`.
package struct SuggestionEngine: Sendable {
    package var rules: [any SuggestionRule]

    /// The rules in the order they are asked (docs/suggest.md).
    package static let defaultRules: [any SuggestionRule] = [
        MediaRule(), ScreenshotRule(), RecencyRule(), MemoryRule(), CompletenessRule(),
    ]

    package init(rules: [any SuggestionRule] = SuggestionEngine.defaultRules) { self.rules = rules }

    package func decide(_ candidates: [SuggestionCandidate], context: SuggestionContext) -> SuggestionDecision {
        var builder = DecisionBuilder(engine: self, context: context)
        for c in candidates { builder.add(c) }
        return builder.decision
    }

    /// Folds candidates in one at a time, in any order, keeping only the best so far (and the
    /// explanations when asked): a folder of any size is decided in constant memory.
    package struct DecisionBuilder {
        let engine: SuggestionEngine
        let context: SuggestionContext
        /// Keep every rejection and outranked path (for `--explain`).
        let explain: Bool
        private var best: (candidate: SuggestionCandidate, instant: Double)?
        private var considered = 0
        private var rejected: [SuggestionRejection] = []
        private var outranked: [String] = []
        /// The newest file that passed every rule but completeness (it is still being written).
        private var pending: (candidate: SuggestionCandidate, instant: Double, retryAfter: Int)?

        package init(engine: SuggestionEngine = SuggestionEngine(), context: SuggestionContext, explain: Bool = true) {
            self.engine = engine
            self.context = context
            self.explain = explain
        }

        /// Counts `n` candidates a rule certainly turns down without asking the rules
        /// (`RecencyRule.certainlyRejects`). For a builder that keeps no explanations: with
        /// `explain` the files would be missing from `rejected`, so callers ask the rules then.
        package mutating func addCertainlyRejected(_ n: Int) { considered += n }

        package mutating func add(_ c: SuggestionCandidate) {
            considered += 1
            // Without explanations only the rule is needed, not its words (most files of a
            // library are turned down by recency, and its reason writes two durations).
            let rejection = explain ? engine.firstRejection(c, context) : engine.firstRejectingRule(c, context).map { ($0, "") }
            if let (rule, reason) = rejection {
                if explain { rejected.append(SuggestionRejection(path: c.path, rule: rule, reason: reason, kind: c.kind)) }
                // Completeness is asked last: a file it turns down passed every other rule, so it
                // is what would be offered once written (unless it is damaged, not being written).
                if rule == .completeness, CompletenessRule.mayStillChange(c, context), let t = context.instant(of: c),
                    pending.map({ NewestFirst.precedes(c.path, t, $0.candidate.path, $0.instant) }) ?? true
                {
                    pending = (c, t, retryAfterMilliseconds(c))
                }
                return
            }
            guard let t = context.instant(of: c) else { return }
            if let b = best {
                // Newest first; equal instants: the path that sorts first (the order `recent` lists in).
                let better = NewestFirst.precedes(c.path, t, b.candidate.path, b.instant)
                if explain { outranked.append(better ? b.candidate.path : c.path) }
                if !better { return }
            }
            best = (c, t)
        }

        /// When to look again at a file being written: when it will have settled, or (a cut
        /// structure, which gives no such time) after half a second.
        private func retryAfterMilliseconds(_ c: SuggestionCandidate) -> Int {
            if c.truncated || c.isPlaceholder { return 500 }
            let left = context.settings.settleTime.seconds - (context.realNow - c.modified)
            return max(50, min(60_000, Int((left * 1000).rounded(.up))))
        }

        /// The suggestion, unless a newer file is still being written: then nothing is offered
        /// yet, and `pending` says which file and when to ask again.
        package var decision: SuggestionDecision {
            // Explanations in path order, whatever order the candidates came in (a scan folds
            // folder after folder; the live library folds what it holds): one answer for both.
            var d = SuggestionDecision(
                suggestion: best?.candidate, instant: best?.instant, considered: considered,
                rejected: rejected.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) },
                outranked: outranked.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            if let p = pending, best.map({ p.instant > $0.instant }) ?? true {
                d.pending = SuggestionDecision.Pending(path: p.candidate.path, retryAfterMilliseconds: p.retryAfter)
                if let b = best, explain { d.outranked.append(b.candidate.path) }
                d.suggestion = nil
                d.instant = nil
            }
            return d
        }
    }

    func firstRejection(_ c: SuggestionCandidate, _ context: SuggestionContext) -> (RuleID, String)? {
        for rule in rules {
            if let reason = rule.reject(c, in: context) { return (rule.id, reason) }
        }
        return nil
    }

    /// The rule `firstRejection` names, without its reason.
    func firstRejectingRule(_ c: SuggestionCandidate, _ context: SuggestionContext) -> RuleID? {
        rules.first { $0.rejects(c, in: context) }?.id
    }
}

/// What the engine decided: the file to offer (if any), and, when explanations were kept, why
/// every other file was not.
public struct SuggestionDecision: Sendable, Equatable, Codable {
    /// The file to offer; nil when nothing qualifies.
    public var suggestion: SuggestionCandidate?
    /// The suggestion's capture instant (seconds since 1970).
    public var instant: Double?
    /// How many files were looked at.
    public var considered: Int
    /// Every candidate that was turned down, with the rule (empty when not kept).
    public var rejected: [SuggestionRejection]
    /// Candidates that passed every rule but lost to a newer one (empty when not kept).
    public var outranked: [String]
    /// Set when the newest file that would be offered is still being written (or settling):
    /// nothing is offered yet, and the caller should ask again after `retryAfterMilliseconds`.
    public var pending: Pending?

    /// A file that will qualify once it is completely written.
    public struct Pending: Sendable, Equatable, Codable {
        /// The file, as reported.
        public var path: String
        /// When to ask again, in milliseconds.
        public var retryAfterMilliseconds: Int

        /// The keys of the report (`retryAfterMs`, docs/suggest.md), so the value decodes from
        /// `suggest --json` and encodes to it.
        /// A name that is not UTF-8 carries its exact bytes in `pathBytes` (docs/json.md).
        enum CodingKeys: String, CodingKey {
            case path, pathBytes
            case retryAfterMilliseconds = "retryAfterMs"
        }

        package init(path: String, retryAfterMilliseconds: Int) {
            self.path = path
            self.retryAfterMilliseconds = retryAfterMilliseconds
        }

        /// Reads the object `suggest --json` prints, the exact name from `pathBytes` if there.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            path = try c.decodePath(forKey: .path, bytesKey: .pathBytes)
            retryAfterMilliseconds = try c.decode(Int.self, forKey: .retryAfterMilliseconds)
        }

        /// Writes the object `suggest --json` prints.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodePath(path, forKey: .path, bytesKey: .pathBytes)
            try c.encode(retryAfterMilliseconds, forKey: .retryAfterMilliseconds)
        }
    }

    package init(
        suggestion: SuggestionCandidate?, instant: Double?, considered: Int, rejected: [SuggestionRejection],
        outranked: [String]
    ) {
        self.suggestion = suggestion
        self.instant = instant
        self.considered = considered
        self.rejected = rejected
        self.outranked = outranked
    }
}
