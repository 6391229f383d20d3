import Foundation
import PhotoMetaCore
import PhotoMetaSystem

/// A watch's offer waits while a file it may name is dated only by its file times and those
/// times changed within the settle time: copy tools set the original's modification time after
/// the file has landed (GNOME Files copying from a phone over MTP: `g_file_copy` closes the
/// copy, then sets its times; KDE Connect does the same after its rename), and a date read
/// before that is the copy's "now". Offered then, a 2019 picture was "just taken", the memory
/// moved to now, and a real photo taken a moment earlier was never offered. The decision is
/// made again when the times have been still for the settle time, with what changed since.
final class OfferDeferral {
    /// The candidates of the decision put off, and when it is due.
    private var held: [SuggestionCandidate] = []
    private(set) var due: Double?

    /// When a decision over `candidates` must wait for: for a file dated only by its file
    /// times and by a time recent enough to be offered (within `within` of `now`: the copy's
    /// own times, which a time set next may replace, however long the copy took), its last
    /// change (`ctime`: a write, a rename in, a time set) plus `settle`, if after `now`. A file
    /// already dated too long ago to be offered (`cp -p` kept its 2019 time) does not wait.
    static func waitUntil(
        _ candidates: [SuggestionCandidate], settle: Double, within: Double, zone: TimeZone, now: Double
    ) -> Double? {
        var until: Double?
        for c in candidates
        where c.captured?.source == .fileBirthTime || c.captured?.source == .fileModificationTime {
            guard let captured = c.captured?.epochSeconds(assuming: zone), captured >= now - within,
                let facts = try? FileFacts.of(c.path)
            else { continue }
            let changed = Double(facts.change.seconds) + Double(facts.change.nanoseconds) / 1e9
            if changed + settle > now { until = max(until ?? 0, changed + settle) }
        }
        return until
    }

    /// Puts off the decision over `candidates` until `until`.
    func hold(_ candidates: [SuggestionCandidate], until: Double) {
        held = candidates
        due = until
    }

    /// `fresh` with the held candidates once due (those whose files are still as they were
    /// when held; a file changed since comes again in `fresh`, and is taken from there).
    func merged(_ fresh: [SuggestionCandidate], at t: Double) -> [SuggestionCandidate] {
        guard let due, t >= due || !fresh.isEmpty else { return fresh }
        let kept = held.filter { h in
            !fresh.contains { PathKey($0.path) == PathKey(h.path) }
                && (try? FileFacts.of(h.path)).map { $0.type == .regular && $0.key.modifiedSeconds == h.modified } == true
        }
        (held, self.due) = ([], nil)
        return fresh + kept
    }
}
