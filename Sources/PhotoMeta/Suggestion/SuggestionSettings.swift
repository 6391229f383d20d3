import Foundation

/// The knobs of the suggestion rules, with the defaults docs/suggest.md explains.
public struct SuggestionSettings: Sendable {
    public enum Screenshots: String, Sendable, CaseIterable {
        case include, exclude, only
    }

    /// How old a capture may be and still count as "just taken". 60 s by default: long enough to
    /// switch to the chat app, short enough that yesterday's photo never appears.
    public var within: Double = 60
    /// Captures up to this far in the future count as now (clocks of phone and computer differ).
    public var futureTolerance: Double = 5
    public var screenshots: Screenshots = .include
    public var includeVideos = false
    /// A file modified less than this long ago (real clock) may still be being written.
    public var settleTime: Double = 1
    /// The zone for capture dates that carry no offset.
    public var zone: TimeZone = .current

    public init() {}
}

/// Everything the engine reads besides the candidates: passed in, never taken from the clock.
public struct SuggestionContext: Sendable {
    /// "Now" for the recency rule (`--now`, default the real clock).
    public var now: Double
    /// The real clock, always: whether a file is still being written does not depend on `--now`.
    public var realNow: Double
    /// The folder's remembered instant (seconds since 1970), nil when none.
    public var remembered: Double?
    public var settings: SuggestionSettings

    public init(now: Double, realNow: Double, remembered: Double?, settings: SuggestionSettings) {
        self.now = now; self.realNow = realNow; self.remembered = remembered; self.settings = settings
    }

    /// The capture instant used by every rule (the zone applied only where the file has no offset).
    public func instant(of c: SuggestionCandidate) -> Double? {
        c.captured?.epochSeconds(assuming: settings.zone)
    }
}
