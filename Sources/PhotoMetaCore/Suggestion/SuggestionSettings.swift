import Foundation

/// The knobs of the suggestion rules, with the defaults docs/suggest.md explains.
public struct SuggestionSettings: Sendable, Equatable {
    /// Which stills count: screenshots among them, left out, or alone.
    public enum Screenshots: String, Sendable, CaseIterable, Codable {
        case include, exclude, only
    }

    /// How old a capture may be and still count as "just taken". 60 s by default: long enough to
    /// switch to the chat app, short enough that yesterday's photo never appears.
    public var within: Duration = .seconds(60)
    /// Captures up to this far in the future count as now (clocks of phone and computer differ).
    public var futureTolerance: Duration = .seconds(5)
    /// Screenshots included (default), left out, or the only thing offered.
    public var screenshots: Screenshots = .include
    /// Offer videos too (stills only by default).
    public var includeVideos = false
    /// A file modified less than this long ago (real clock) may still be being written.
    public var settleTime: Duration = .seconds(1)
    /// A file cut short and unchanged this long (real clock) is damaged, not being written (a
    /// download that failed, a copy that stopped): turned down, but it holds nothing back.
    public var stalledAfter: Duration = .seconds(30)
    /// The zone for capture dates that carry no offset. Required: the core never looks at the
    /// machine's zone (pass `TimeZone.current` to mean "here").
    public var zone: TimeZone

    /// The defaults of docs/suggest.md, with `zone` for dates that carry no offset.
    public init(zone: TimeZone) { self.zone = zone }
}

/// Everything the engine reads besides the candidates: passed in, never taken from the clock.
package struct SuggestionContext: Sendable {
    /// "Now" for the recency rule (`--now`, default the real clock), seconds since 1970.
    package var now: Double
    /// The real clock, always: whether a file is still being written does not depend on `--now`.
    package var realNow: Double
    /// The remembered instant (seconds since 1970), nil when none.
    package var remembered: Double?
    /// The standing offer's file, by its size and modification time (the memory's, schema 5):
    /// the same photo renamed (a screenshot given a name without its date, dated now by its
    /// birth time) is still the photo offered (`MemoryRule`).
    package var offeredFile: OfferedFile?
    /// The standing offer when it is a raw original (`RawDevelopedPair`): the picture developed
    /// from it, landing after it (a copy in name order puts `.CR3` before `.JPG`), takes its
    /// place (`MemoryRule`).
    package var offeredRaw: OfferedRaw?
    package var settings: SuggestionSettings

    /// A raw original offered: its file's name and capture instant.
    package struct OfferedRaw: Sendable, Equatable, Codable {
        package var name: String
        package var instant: Double
        package init(name: String, instant: Double) {
            self.name = name
            self.instant = instant
        }
    }

    /// A file's content key: its size and modification time in nanoseconds (what `rename(2)`
    /// and `cp -p` keep).
    package struct OfferedFile: Sendable, Equatable, Codable {
        package var size: Int64
        package var mtimeNanoseconds: Int64
        package init(size: Int64, mtimeNanoseconds: Int64) {
            self.size = size
            self.mtimeNanoseconds = mtimeNanoseconds
        }

        /// `c` is this file (its size, and its modification time to the microsecond).
        package func matches(_ c: SuggestionCandidate) -> Bool {
            c.size == size && abs(c.modified - Double(mtimeNanoseconds) / 1e9) < 1e-6
        }
    }

    package init(now: Double, realNow: Double, remembered: Double?, settings: SuggestionSettings) {
        self.now = now
        self.realNow = realNow
        self.remembered = remembered
        self.settings = settings
    }

    /// The capture instant used by every rule (the zone applied only where the file has no offset).
    package func instant(of c: SuggestionCandidate) -> Double? {
        c.captured?.epochSeconds(assuming: settings.zone)
    }
}
