/// The candidates an offer can still pick, folded in one at a time before the memory is read:
/// of any number of candidates at most two are kept, and `SuggestionEngine.decide` over them,
/// with the memory, decides exactly what it decides over all of them.
///
/// Why two are enough: the memory rule is the only rule that reads the memory, and it turns
/// down by instant alone (at or before the remembered instant, `MemoryRule`). The decision is
/// the newest candidate (`NewestFirst`) that passes every rule, unless the newest candidate
/// turned down only by completeness is newer (then nothing is offered yet). Without the memory,
/// the newest of each (`best`, `pending`) is kept; with it, each is the newest of its group
/// past the remembered instant when it is past it itself, and otherwise no member of its group
/// is. So a watch that inspects a burst of 50,000 files keeps two candidates, not 50,000.
package struct SuggestionShortlist: Sendable {
    private let engine: SuggestionEngine
    /// The context of the decision to come, without its memory.
    private let context: SuggestionContext
    private var best: (candidate: SuggestionCandidate, instant: Double)?
    private var pending: (candidate: SuggestionCandidate, instant: Double)?

    /// `context`: the now, settings and rules the decision will be made with; its memory
    /// (`remembered`) is not read here.
    package init(engine: SuggestionEngine = SuggestionEngine(), context: SuggestionContext) {
        self.engine = engine
        var c = context
        c.remembered = nil
        self.context = c
    }

    package mutating func add(_ c: SuggestionCandidate) {
        let rejection = engine.firstRejection(c, context)
        // A file completeness turns down for good (damaged, not being written) is like any other
        // rejection: it can never be offered nor make the answer pending.
        let mayBePending = rejection?.0 == .completeness && CompletenessRule.mayStillChange(c, context)
        guard rejection == nil || mayBePending, let t = context.instant(of: c) else { return }
        let newer: ((candidate: SuggestionCandidate, instant: Double)?) -> Bool = { kept in
            kept.map { NewestFirst.precedes(c.path, t, $0.candidate.path, $0.instant) } ?? true
        }
        if rejection == nil {
            if newer(best) { best = (c, t) }
        } else if newer(pending) {
            pending = (c, t)
        }
    }

    /// The candidates kept (at most two), for `SuggestionEngine.decide` with the memory.
    package var kept: [SuggestionCandidate] { [best?.candidate, pending?.candidate].compactMap { $0 } }
}
