import PhotoMetaCore
import PhotoMetaStore

/// The offer path that `suggest` and `watch` share: read what the profile was offered or
/// dismissed, decide with the rules at an instant, record the offer. One memory per profile,
/// across folders (docs/suggest.md). Each caller hands the offer on at its own step: `suggest`
/// prints before it records (an offer nobody saw is made again), `watch` records before it
/// delivers (a client that saw the event finds the memory already updated).
package struct Offering {
    /// The profile whose memory this is.
    package let profile: String
    private let memory: SuggestionMemory

    /// Opens the memory at `statePath`; `readOnly` creates and writes nothing (`--peek`).
    package init(statePath: String, profile: String, readOnly: Bool = false) throws(StateFileError) {
        memory = try SuggestionMemory(path: statePath, readOnly: readOnly)
        self.profile = profile
    }

    /// What the rules need at `now` (`realNow`: the real clock, for completeness): the
    /// settings and the remembered instant, read from the memory now.
    package func context(settings: SuggestionSettings, now: Double, realNow: Double) throws(StateFileError)
        -> SuggestionContext
    {
        SuggestionContext(now: now, realNow: realNow, remembered: try memory.remembered(profile: profile), settings: settings)
    }

    /// Records the decision's offer (the memory moves to its capture instant). False when there
    /// was nothing to offer.
    @discardableResult
    package func record(_ decision: SuggestionDecision, now: Double) throws(StateFileError) -> Bool {
        guard let s = decision.suggestion, let instant = decision.instant else { return false }
        try memory.advance(profile: profile, to: instant, offered: s.path, now: now)
        return true
    }
}
