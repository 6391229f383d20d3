import Foundation
import PhotoMetaCore
import PhotoMetaSystem

/// A watch's offer put off, with what it will be decided over (docs/watch.md, "An offer dated
/// by file times waits for them"):
///
/// - **Unsettled files.** A file dated only by its file times, by a time recent enough to be
///   offered, whose times changed within the settle time: copy tools set the original's
///   modification time after the file has landed (GNOME Files copying from a phone over MTP:
///   `g_file_copy` closes the copy, then sets its times; KDE Connect after its rename), and a
///   date read before that is the copy's "now". Decided at once, a 2019 picture was offered
///   as just taken, the memory moved to now, and a photo taken a moment before was never
///   offered. Its path is kept (followed through renames) and the file inspected again once
///   its times have been still for the settle time.
/// - **The settled candidates** of the batches since: at most six, as `SuggestionShortlist`
///   keeps them (the decision over them is the decision over all), so a burst costs no more.
/// - **A pending answer.** A newer file still being written, or cut short, holds the older
///   photos back; the decision is made again when it will have settled, or when a file cut
///   short has been still long enough to be called damaged (`CompletenessRule.stalledAfter`).
final class OfferDeferral {
    /// Unsettled files (paths as reported) → when their times will have been still long enough.
    private var unsettled: [PathKey: Double] = [:]
    /// The settled candidates held, and when a pending answer is asked again.
    private var held: [SuggestionCandidate] = []
    private var retry: Double?

    /// When the decision is next due (nil: nothing is put off).
    var due: Double? { (Array(unsettled.values) + [retry].compactMap { $0 }).min() }

    /// Still waiting for an unsettled file.
    var waitsForFiles: Bool { !unsettled.isEmpty }

    /// When a file dated only by its file times must be waited for: its last change (`ctime`:
    /// a write, a rename in, a time set) plus `settle`, when its date is recent enough to be
    /// offered (within `within` of `now`; a file already dated too long ago, as `cp -p` keeps a
    /// 2019 time, does not wait) and that moment is still to come.
    static func unsettledUntil(
        _ c: SuggestionCandidate, settle: Double, within: Double, zone: TimeZone, now: Double
    ) -> Double? {
        guard c.captured?.source.isFileTime == true,
            let captured = c.captured?.epochSeconds(assuming: zone), captured >= now - within,
            let facts = try? FileFacts.of(c.path)
        else { return nil }
        let until = Double(facts.change.seconds) + Double(facts.change.nanoseconds) / 1e9 + settle
        return until > now ? until : nil
    }

    /// `path` is to be inspected again at `until`.
    func waitFor(_ path: String, until: Double) {
        unsettled[PathKey(path)] = max(until, unsettled[PathKey(path)] ?? until)
    }

    /// A batch was reported: its files' latest state replaces what was put off about them (an
    /// unsettled path is inspected again anyway), and what went or was renamed is followed.
    func follow(_ c: ChangeSet) {
        for f in c.inserted + c.changed {
            unsettled.removeValue(forKey: PathKey(f.path))
            held.removeAll { PathKey($0.path) == PathKey(f.path) }
        }
        for p in c.removed {
            unsettled.removeValue(forKey: PathKey(p))
            held.removeAll { PathKey($0.path) == PathKey(p) }
        }
        // Renamed: followed, and inspected again at the new name (a name's date may come or
        // go with it: a cut file renamed `IMG_2019...` no longer holds the others back).
        for m in c.moved {
            if let until = unsettled.removeValue(forKey: PathKey(m.from)) { unsettled[PathKey(m.to.path)] = until }
            if held.contains(where: { PathKey($0.path) == PathKey(m.from) }) {
                held.removeAll { PathKey($0.path) == PathKey(m.from) }
                unsettled[PathKey(m.to.path)] = 0
            }
        }
    }

    /// The unsettled paths whose time has come (taken out: the caller inspects them again).
    func takeDue(at t: Double) -> [String] {
        let due = unsettled.filter { $0.value <= t }.map(\.key)
        for k in due { unsettled.removeValue(forKey: k) }
        return due.map(\.path)
    }

    /// The held candidates, taken out for a decision.
    func takeHeld() -> [SuggestionCandidate] {
        defer { (held, retry) = ([], nil) }
        return held
    }

    /// Holds `candidates`, folded to what an offer can pick (`SuggestionShortlist`: the
    /// decision over them is the decision over all), until the unsettled files are settled,
    /// and, for a pending answer, until `retryAt`.
    func hold(_ candidates: [SuggestionCandidate], context: SuggestionContext, retryAt: Double? = nil) {
        var shortlist = SuggestionShortlist(context: context)
        for c in candidates { shortlist.add(c) }
        held = shortlist.kept
        retry = retryAt
    }
}
