/// When the watcher looks again after events: once they have been quiet for the debounce (a
/// copy's many writes make one look), but no later than `longestDelay` after the first of
/// them, and at once after `mostEvents`. Without the bounds a writer that never pauses (a
/// download writing every few milliseconds, a flood of temporary names) would put the look
/// off for as long as it runs: no photo reported meanwhile, and every name it touched kept
/// (200,000 short-lived names held 12 MB of names and 6 MB of their times, `watch_bench.py`'s
/// churn). A pure value; the times are the watcher's clock.
struct LookSchedule {
    /// Quiet time that ends a run of events (seconds).
    let debounce: Double
    /// The most a look waits after the first event since the last look (seconds), unless the
    /// debounce asked for is longer: then the debounce after the first event.
    static let longestDelay = 0.25
    /// The most events taken in between two looks (`watch`: each names a file or a folder;
    /// `serve` tells one for each batch it takes, and relies on the delay).
    static let mostEvents = 8192

    /// Something happened since the last look.
    private(set) var dirty = false
    private var first = 0.0
    private var last = 0.0
    private var events = 0

    init(debounce: Double) { self.debounce = debounce }

    /// An event at `t`.
    mutating func event(at t: Double) {
        if !dirty { first = t }
        dirty = true
        last = t
        events += 1
    }

    /// This schedule with an event at `t`.
    func after(_ t: Double) -> LookSchedule {
        var s = self
        s.event(at: t)
        return s
    }

    /// Something asks for a look as soon as the loop comes round (a poll, a rescan's turn, a
    /// folder left unwatched).
    mutating func lookNow() {
        dirty = true
        (first, last) = (0, 0)
    }

    /// The time the next look is due; nil while nothing happened.
    var due: Double? {
        guard dirty else { return nil }
        if events >= LookSchedule.mostEvents { return first }
        return min(last + debounce, first + max(LookSchedule.longestDelay, debounce))
    }

    /// Whether a look is due at `t`.
    func isDue(at t: Double) -> Bool { due.map { t >= $0 } ?? false }

    /// The look was made: what happened is taken in.
    mutating func looked() {
        dirty = false
        events = 0
    }
}
