/// One folder's candidates paired while they arrive in parts (`FolderScan` hands a large
/// folder on in runs, so what it holds follows the run, not the folder). A candidate no movie
/// of the folder can pair with is handed back at once; the folder's movies, and the stills
/// that may be their partners, are held until `finish`, then paired by the one rule
/// (`LivePhotoPairing.apply`). Leaving the others out changes no pair: a movie looks only at
/// the stills of its base name and of its identifier (`LivePhotoPairing.pairingCandidates`).
///
/// What may pair is judged from the listing until every movie has been parsed (a still that
/// shares a base name with a `.mov` name of the folder, or carries a content identifier while
/// the folder has one), and from the movies themselves after. A phone's `DCIM/Camera` of
/// 20,000 photos without a `.mov` holds nothing; an iPhone folder holds its Live Photo halves.
package struct FolderPairing {
    /// Base-name keys (`LivePhotoPairing.stemHash`) of the folder's names a movie may have.
    private let movieNameStems: Set<UInt64>
    /// Every candidate is held (the caller wants the folder whole).
    private let holdsAll: Bool
    /// Keys and identifiers of the movies parsed so far.
    private var movieStems = Set<UInt64>()
    private var movieIDs = Set<String>()
    private var moviesKnown = false
    /// Held candidates, and their positions in the folder (handed on in the listing's order).
    /// Two arrays, so that a folder held whole (the live library's) is reordered and handed
    /// on in place, never copied.
    private var held: [SuggestionCandidate] = []
    private var heldPositions: [Int] = []
    /// Candidates taken, and the span of their captures (`RecencyRule.span`).
    package private(set) var count = 0
    package private(set) var span: ClosedRange<Double>?

    /// How many candidates the folder has (0: not known): a folder held whole is held in one
    /// array of that size, not grown by doubling (50,000 candidates are 11 MB).
    private let expected: Int
    /// The shots whose developed picture the folder holds (`RawDevelopedPair`, from the
    /// listing): a raw of one of them is marked as it is taken.
    private let developedShots: Set<String>

    /// `movieNames`: the paths (as candidates will carry them) of the folder's files whose names
    /// a Live Photo movie may have. `holdsAll`: hold every candidate until `finish`, of which
    /// there are `expected` at most.
    /// `developedShots`: the `RawDevelopedPair` keys of the folder's developed pictures.
    package init(movieNames: [String], holdsAll: Bool, expected: Int = 0, developedShots: Set<String> = []) {
        movieNameStems = Set(movieNames.map(LivePhotoPairing.stemHash))
        self.holdsAll = holdsAll
        self.expected = holdsAll ? expected : 0
        self.developedShots = developedShots
    }

    /// Takes one part of the folder's candidates (and their positions in the folder) and
    /// returns those that can be handed on now, moved, not copied, where nothing is held back.
    /// `lastMovies`: every movie of the folder is in this part or an earlier one.
    package mutating func take(_ part: consuming [SuggestionCandidate], positions: [Int], lastMovies: Bool)
        -> [SuggestionCandidate]
    {
        count += part.count
        if !developedShots.isEmpty {
            for i in part.indices {
                if let shot = RawDevelopedPair.rawKey(part[i].path) {
                    part[i].hasDevelopedPicture = developedShots.contains(shot)
                }
            }
        }
        for i in part.indices {
            let c = part[i]
            RecencyRule.widen(&span, by: c)
            if c.kind == .video, c.canPair, LivePhotoPairing.isMovieName(c.path) {
                movieStems.insert(LivePhotoPairing.stemHash(c.path))
                if let id = c.contentIdentifier { movieIDs.insert(id) }
            }
        }
        var ready: [SuggestionCandidate] = []
        if holdsAll {
            if held.isEmpty {
                (held, heldPositions) = (part, positions)
                if held.capacity < expected {
                    held.reserveCapacity(expected)
                    heldPositions.reserveCapacity(expected)
                }
            } else {
                held += part
                heldPositions += positions
            }
        } else if !movieNameStems.isEmpty {
            for (i, position) in positions.enumerated() {
                let c = part[i]
                if mayPair(c) {
                    held.append(c)
                    heldPositions.append(position)
                } else {
                    ready.append(c)
                }
            }
        } else {
            ready = part
        }
        if lastMovies, !moviesKnown {
            // The movies are all known now: the stills held only on the listing's word go.
            moviesKnown = true
            if !holdsAll {
                var still: [SuggestionCandidate] = []
                var stillPositions: [Int] = []
                for (c, position) in zip(held, heldPositions) {
                    if mayPair(c) {
                        still.append(c)
                        stillPositions.append(position)
                    } else {
                        ready.append(c)
                    }
                }
                (held, heldPositions) = (still, stillPositions)
            }
        }
        return ready
    }

    /// The held candidates, paired, in the folder's order.
    package mutating func finish() -> [SuggestionCandidate] {
        var list = held
        held = []
        FolderPairing.reorder(&list, by: heldPositions)
        heldPositions = []
        LivePhotoPairing.apply(&list)
        return list
    }

    /// Puts `items` in the order of their `positions` (distinct), in place: the permutation's
    /// cycles are followed with swaps, so no second array of candidates is made.
    package static func reorder<T>(_ items: inout [T], by positions: [Int]) {
        guard !zip(positions, positions.dropFirst()).allSatisfy({ $0 < $1 }) else { return }
        let order = positions.indices.sorted { positions[$0] < positions[$1] }
        var done = [Bool](repeating: false, count: items.count)
        for start in order.indices where !done[start] {
            // items[i] takes the item at order[i], cycle by cycle.
            var i = start
            done[i] = true
            while order[i] != start {
                items.swapAt(i, order[i])
                i = order[i]
                done[i] = true
            }
        }
    }

    /// Whether `c` may be half of a pair with a movie of the folder.
    private func mayPair(_ c: SuggestionCandidate) -> Bool {
        guard c.canPair else { return false }
        if c.kind == .video { return LivePhotoPairing.isMovieName(c.path) }
        let stem = LivePhotoPairing.stemHash(c.path)
        if moviesKnown {
            return movieStems.contains(stem) || c.contentIdentifier.map(movieIDs.contains) == true
        }
        return movieNameStems.contains(stem) || c.contentIdentifier != nil
    }
}
