import Foundation

/// The order of captures, newest first, shared by `recent` and the suggestion engine: the later
/// instant first; equal instants by path, the path whose bytes sort first before the other.
/// A total order on distinct paths, so any fold of the same files gives the same answer.
package enum NewestFirst {
    /// True when `a` (captured at `aInstant`) comes before `b` (captured at `bInstant`).
    package static func precedes(_ a: String, _ aInstant: Double, _ b: String, _ bInstant: Double) -> Bool {
        aInstant != bInstant ? aInstant > bInstant : a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}

/// The rule of `recent` (docs/recent.md): the newest `limit` assets by capture instant, newest
/// first ([`NewestFirst`]), among the candidates `suggest` would consider as media — the media
/// rule's notion (`MediaRule`: images and videos, never an unreadable or unknown file, never
/// the movie half of a Live Photo), videos only when `kinds` holds `.video` — of the asked
/// kinds, with a capture date. No recency threshold, no memory, no completeness: a file still
/// being written is listed (recent is a listing, not an offer).
///
/// Folds candidates in any order, one at a time, keeping at most `2 × limit` of them (sorted
/// and cut back to `limit` when the buffer fills, and anything not newer than the `limit`-th
/// kept is dropped at once), so a library of any size is listed in memory bounded by `limit`.
/// Instants come from `SuggestionContext.instant(of:)`: the zone is assumed only for dates
/// that carry no offset, exactly as the suggestion rules read them.
package struct RecentSelection: Sendable {
    /// The kinds listed when none are asked for: every still kind (no videos).
    package static let stillKinds: Set<MediaKind> = [.photo, .screenshot, .livePhoto, .gif]

    /// At most this many are kept (zero: none).
    package let limit: Int
    /// The kinds listed.
    package let kinds: Set<MediaKind>
    /// The media rule's context: the zone for dates without an offset, videos when asked for.
    /// Its clock fields are not read (the media rule and `instant(of:)` do not look at them).
    private let context: SuggestionContext
    private var kept: [Entry] = []
    /// The `limit`-th newest once `limit` are known: a candidate not before it is dropped.
    private var last: Entry?
    /// How many candidates were admitted (media, of the kinds, dated), kept or not.
    package private(set) var admitted = 0

    private struct Entry: Sendable {
        var candidate: SuggestionCandidate
        var instant: Double
        func precedes(_ other: Entry) -> Bool {
            NewestFirst.precedes(candidate.path, instant, other.candidate.path, other.instant)
        }
    }

    /// A selection of the newest `limit` of `kinds`, reading dates without an offset in `zone`.
    package init(limit: Int, kinds: Set<MediaKind> = RecentSelection.stillKinds, zone: TimeZone) {
        self.limit = max(0, limit)
        self.kinds = kinds
        var settings = SuggestionSettings(zone: zone)
        settings.includeVideos = kinds.contains(.video)
        context = SuggestionContext(now: 0, realNow: 0, remembered: nil, settings: settings)
    }

    /// The candidate's capture instant when `recent` lists it at all (media by the media rule,
    /// one of `kinds`, with a capture date); nil otherwise.
    package func instant(ifListed c: SuggestionCandidate) -> Double? {
        guard !c.isPlaceholder, MediaRule().reject(c, in: context) == nil, kinds.contains(c.kind) else { return nil }
        return context.instant(of: c)
    }

    /// Folds one candidate in.
    package mutating func add(_ c: SuggestionCandidate) {
        guard let t = instant(ifListed: c) else { return }
        admitted += 1
        let entry = Entry(candidate: c, instant: t)
        guard limit > 0, last.map({ entry.precedes($0) }) ?? true else { return }
        kept.append(entry)
        if kept.count >= 2 * limit { trim() }
    }

    /// The newest `limit`, newest first.
    package var selected: [SuggestionCandidate] {
        var copy = self
        copy.trim()
        return copy.kept.map(\.candidate)
    }

    /// Once `limit` are known: the instant of the `limit`-th newest. A file captured before it
    /// (by more than any zone can move a date: `CaptureDate.widestZoneOffset`) cannot be
    /// listed, which lets the live library stop early.
    package var cutoff: Double? {
        var copy = self
        copy.trim()
        return copy.kept.count == limit && limit > 0 ? copy.last?.instant : nil
    }

    /// Sorts what is kept, cuts it back to `limit`, and remembers the last one kept.
    private mutating func trim() {
        kept.sort { $0.precedes($1) }
        if kept.count > limit { kept.removeLast(kept.count - limit) }
        if kept.count == limit { last = kept.last }
    }
}
