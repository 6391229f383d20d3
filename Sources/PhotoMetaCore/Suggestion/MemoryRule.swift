/// Nothing is offered twice: an asset captured at or before the profile's remembered instant
/// (the last offer or dismissal) is turned down. Instants are compared, so the same photo
/// read twice, renamed or copied does not come back; and so is the offered file itself by its
/// size and modification time (`SuggestionContext.offeredFile`), whose instant a rename may
/// have moved (`Screenshot_20241129-221500.png` renamed `bug.png` is dated by its birth time,
/// a fraction of a second after its name's).
package struct MemoryRule: SuggestionRule {
    package let id = RuleID.memory
    package init() {}

    package func reject(_ c: SuggestionCandidate, in context: SuggestionContext) -> String? {
        if let f = context.offeredFile, f.matches(c) { return MemoryRule.sameFileReason }
        guard let remembered = context.remembered, let t = context.instant(of: c) else { return nil }
        if t <= remembered { return MemoryRule.developsOfferedRaw(c, at: t, in: context) ? nil : MemoryRule.reason }
        if let movie = MemoryRule.movieInstant(of: c, in: context), abs(movie - remembered) < 0.001 {
            return MemoryRule.partnerReason
        }
        return nil
    }

    /// For a Live Photo still, its movie's instant. A Live Photo is one moment in two files;
    /// its movie, offered alone with `--videos` before the still arrived, offered the moment,
    /// and the still (a fraction of a second later, as EXIF keeps sub-seconds and QuickTime
    /// dates whole seconds) must not be offered again. The memory keeps the instant of what it
    /// offered last, so the movie was that offer when the remembered instant is the movie's
    /// own. Only then: a movie merely older than the memory (it starts before its still; a
    /// Live Photo taken a second after the last offer) says nothing, and the still is new.
    package static func movieInstant(of c: SuggestionCandidate, in context: SuggestionContext) -> Double? {
        guard c.kind == .livePhoto else { return nil }
        return c.livePhotoPairCaptured?.epochSeconds(assuming: context.settings.zone)
    }

    /// Whether `c`, captured at `t`, is the picture developed in the shot whose raw original is
    /// the standing offer and the last thing remembered (`RawDevelopedPair`): it takes the raw's
    /// place (a chat sends the picture), once; the raw beside it is then turned down by `media`.
    /// Within a second of the raw: a picture dated by its file times may lose the raw's
    /// sub-seconds.
    package static func developsOfferedRaw(_ c: SuggestionCandidate, at t: Double, in context: SuggestionContext) -> Bool {
        guard let raw = context.offeredRaw, let remembered = context.remembered, abs(raw.instant - remembered) < 0.001,
            abs(t - raw.instant) <= 1, let shot = RawDevelopedPair.developedKey(c.path)
        else { return false }
        return RawDevelopedPair.rawKey(raw.name) == shot
    }

    static let reason = "already offered or dismissed (captured at or before the remembered time)"
    static let sameFileReason = "already offered (the file offered, renamed or copied)"
    static let partnerReason = "already offered (as its Live Photo movie, the last offer)"
}

extension SuggestionDecision {
    /// The decision once the memory, read again under its write lock, reaches `remembered` at
    /// or past the suggestion's instant (another asker offered it, or something newer, first):
    /// the suggestion is turned down by the memory rule, as a decision made now would turn it
    /// down, and nothing is offered.
    package func seenMeanwhile(remembered: Double) -> SuggestionDecision {
        guard let s = suggestion, let t = instant, t <= remembered else { return self }
        var d = self
        d.suggestion = nil
        d.instant = nil
        d.rejected.append(SuggestionRejection(path: s.path, rule: .memory, reason: MemoryRule.reason, kind: s.kind))
        return d
    }
}
