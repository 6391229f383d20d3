/// The candidates an offer can still pick, folded in one at a time before the memory is read:
/// of any number of candidates at most six are kept, and `SuggestionEngine.decide` over them,
/// with the memory, decides exactly what it decides over all of them.
///
/// Why six are enough: the memory rule is the only rule that reads the memory. It turns down
/// a candidate captured at or before the remembered instant, and a Live Photo still whose
/// movie's instant is the remembered one (`MemoryRule`: the movie was the last offer). The
/// decision is the newest candidate (`NewestFirst`) that passes every rule, unless the newest
/// candidate turned down only by completeness is newer (then nothing is offered yet). In each
/// group (`best`, `pending`): if its newest passes the memory, it is the group's answer; if it
/// is turned down by its instant, so is every older one; if by its movie's instant, so is
/// every candidate with that movie instant, and the answer is the newest of the others, when
/// it passes. So each group keeps its newest and the newest whose movie instant differs (none
/// counts as differing). The memory also turns down the offered file itself, by its size and
/// modification time, whatever its instant now (renamed, its name's date lost): then the answer
/// is the next newest, so each group keeps that too. A watch that inspects a burst of 50,000
/// files keeps six, not 50,000.
package struct SuggestionShortlist: Sendable {
    private let engine: SuggestionEngine
    /// The context of the decision to come, without its memory.
    private let context: SuggestionContext
    private var best = Group()
    private var pending = Group()

    /// `context`: the now, settings and rules the decision will be made with; its memory
    /// (`remembered`, `offeredFile`) is not read here.
    package init(engine: SuggestionEngine = SuggestionEngine(), context: SuggestionContext) {
        self.engine = engine
        var c = context
        c.remembered = nil
        c.offeredFile = nil
        self.context = c
    }

    package mutating func add(_ c: SuggestionCandidate) {
        let rejection = engine.firstRejection(c, context)
        // A file completeness turns down for good (damaged, not being written) is like any other
        // rejection: it can never be offered nor make the answer pending.
        let mayBePending = rejection?.0 == .completeness && CompletenessRule.mayStillChange(c, context)
        guard rejection == nil || mayBePending, let t = context.instant(of: c) else { return }
        let entry = Group.Entry(candidate: c, instant: t, movie: MemoryRule.movieInstant(of: c, in: context))
        if rejection == nil { best.add(entry) } else { pending.add(entry) }
    }

    /// The candidates kept, for `SuggestionEngine.decide` with the memory.
    package var kept: [SuggestionCandidate] {
        var seen: Set<PathKey> = []
        return [best.newest, best.otherMovie, best.second, pending.newest, pending.otherMovie, pending.second]
            .compactMap { $0?.candidate }.filter { seen.insert(PathKey($0.path)).inserted }
    }

    /// One group's newest candidate, and its newest whose movie instant is not the newest's.
    private struct Group: Sendable {
        struct Entry: Sendable {
            var candidate: SuggestionCandidate
            var instant: Double
            /// A Live Photo still's movie instant (`MemoryRule.movieInstant`).
            var movie: Double?

            func precedes(_ other: Entry) -> Bool {
                NewestFirst.precedes(candidate.path, instant, other.candidate.path, other.instant)
            }

            /// Turned down together by a memory at a movie's instant: both have that movie
            /// instant (`MemoryRule`'s tolerance).
            func sharesMovie(_ other: Entry) -> Bool {
                guard let a = movie, let b = other.movie else { return false }
                return abs(a - b) < 0.001
            }
        }
        private(set) var newest: Entry?
        private(set) var otherMovie: Entry?
        /// The newest after `newest`.
        private(set) var second: Entry?

        mutating func add(_ e: Entry) {
            guard let n = newest else {
                newest = e
                return
            }
            if e.precedes(n) {
                second = n
            } else if second.map({ e.precedes($0) }) ?? true {
                second = e
            }
            // Only a newest with a movie can be turned down by it; then the old newest is the
            // newest not sharing the new one's movie, unless it shares it.
            if e.precedes(n) {
                otherMovie = e.movie == nil ? nil : (e.sharesMovie(n) ? otherMovie : n)
                newest = e
            } else if n.movie != nil, !e.sharesMovie(n), otherMovie.map({ e.precedes($0) }) ?? true {
                otherMovie = e
            }
        }
    }
}
