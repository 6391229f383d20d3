/// The candidates an offer can still pick, folded in one at a time before the memory is read:
/// of any number of candidates a few are kept (two, unless Live Photos are among the newest),
/// and `SuggestionEngine.decide` over them, with the memory, decides exactly what it decides
/// over all of them.
///
/// Why a few are enough: the memory rule is the only rule that reads the memory, and it turns
/// down a candidate when its memory instant is at or before the remembered instant
/// (`MemoryRule`: the capture instant, or for a Live Photo still the earlier of its own and its
/// movie's). The decision is the newest candidate (`NewestFirst`) that passes every rule,
/// unless the newest candidate turned down only by completeness is newer (then nothing is
/// offered yet). So in each group (`best`, `pending`) a candidate that another one beats on
/// both counts (newer, and a memory instant at least as late) can never be picked: whenever it
/// passes the memory, the other does too and is newer. What is kept is each group's candidates
/// that nothing beats so: one, the newest, when every memory instant is the capture instant; a
/// few when a newer Live Photo's movie is older than an older photo. A watch that inspects a
/// burst of 50,000 files keeps a handful of candidates, not 50,000.
package struct SuggestionShortlist: Sendable {
    private let engine: SuggestionEngine
    /// The context of the decision to come, without its memory.
    private let context: SuggestionContext
    private var best = Front()
    private var pending = Front()

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
        let entry = Front.Entry(candidate: c, instant: t, memoryInstant: MemoryRule.firstInstant(of: c, at: t, in: context) ?? t)
        if rejection == nil { best.add(entry) } else { pending.add(entry) }
    }

    /// The candidates kept, for `SuggestionEngine.decide` with the memory.
    package var kept: [SuggestionCandidate] { (best.entries + pending.entries).map(\.candidate) }

    /// The candidates of one group that no other beats on both counts.
    private struct Front: Sendable {
        struct Entry: Sendable {
            var candidate: SuggestionCandidate
            var instant: Double
            var memoryInstant: Double

            /// Newer (or as new and first by path) and remembered no earlier: whenever `other`
            /// would be picked, this one would be instead.
            func beats(_ other: Entry) -> Bool {
                NewestFirst.precedes(candidate.path, instant, other.candidate.path, other.instant)
                    && memoryInstant >= other.memoryInstant
            }
        }
        private(set) var entries: [Entry] = []

        mutating func add(_ e: Entry) {
            if entries.contains(where: { $0.beats(e) }) { return }
            entries.removeAll { e.beats($0) }
            entries.append(e)
        }
    }
}
