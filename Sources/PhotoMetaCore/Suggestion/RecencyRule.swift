/// The capture instant lies within `within` of now. Up to `futureTolerance` (5 s) in the future
/// counts as now (clock skew); further in the future is a clock error and is rejected. A
/// video's capture instant is when its recording started; it counts as recent while its end
/// (start plus duration, `recordingSeconds`) is within the window, so a 90 s clip stopped a
/// moment ago is offered, not turned down as 95 s old.
package struct RecencyRule: SuggestionRule {
    package let id = RuleID.recency
    package init() {}

    package func reject(_ c: SuggestionCandidate, in context: SuggestionContext) -> String? {
        switch verdict(c, context) {
        case .recent: return nil
        case .undated: return "no capture date"
        case .future(let age): return "captured \(DurationText.describe(-age)) in the future (clock error)"
        case .old(let age):
            let recording = RecencyRule.recordingSeconds(of: c)
            let ended =
                recording > 0
                ? " (a \(DurationText.describe(recording)) video, ended \(DurationText.describe(age - recording)) ago)" : ""
            return
                "captured \(DurationText.describe(age)) ago\(ended), more than \(DurationText.describe(context.settings.within))"
        }
    }

    /// How long a video recorded for, counted after its capture instant: its duration, up to
    /// `longestRecording` (a damaged or hostile header's duration of years must not make an
    /// old video recent); 0 for anything else.
    package static func recordingSeconds(of c: SuggestionCandidate) -> Double {
        guard c.kind == .video, let d = c.durationSeconds, d.isFinite, d > 0 else { return 0 }
        return min(d, longestRecording)
    }

    /// 12 h: longer than any phone or camera recording a chat offers.
    static let longestRecording = 12.0 * 3600

    package func rejects(_ c: SuggestionCandidate, in context: SuggestionContext) -> Bool {
        if case .recent = verdict(c, context) { return false }
        return true
    }

    /// The rule itself, for `reject` (which words it) and `rejects` (which does not).
    private enum Verdict {
        case recent, undated
        case future(age: Double)
        case old(age: Double)
    }

    private func verdict(_ c: SuggestionCandidate, _ context: SuggestionContext) -> Verdict {
        guard let t = context.instant(of: c) else { return .undated }
        let age = context.now - t
        if age < -context.settings.futureTolerance.seconds { return .future(age: age) }
        if age - RecencyRule.recordingSeconds(of: c) > context.settings.within.seconds { return .old(age: age) }
        return .recent
    }
}

extension RecencyRule {
    /// True when this rule turns `c` down whatever the zone: it has no date, or its date is so
    /// far outside the window that no zone offset brings it in. The rule's own bounds, widened
    /// by the widest zone offset and a second, on the date without its zone
    /// (`secondsIgnoringUnknownZone`), so no zone is computed. The live library skips such
    /// files when no explanation is asked: a skipped file would have been turned down (by this
    /// rule, or one before it), so the decision is the same.
    package static func certainlyRejects(_ c: SuggestionCandidate, in context: SuggestionContext) -> Bool {
        guard let d = c.captured else { return true }
        let t = d.secondsIgnoringUnknownZone
        let slack = d.isExact ? 1 : CaptureDate.widestZoneOffset + 1
        return context.now - t - recordingSeconds(of: c) > context.settings.within.seconds + slack
            || t - context.now > context.settings.futureTolerance.seconds + slack
    }
}

extension RecencyRule {
    /// The earliest capture and the latest capture (a video's: its recording's end) of
    /// `candidates`, zone ignored (`secondsIgnoringUnknownZone`); nil when none has a date. What
    /// a folder needs to be passed over whole by `certainlyRejects(span:in:)`.
    package static func span(of candidates: [SuggestionCandidate]) -> ClosedRange<Double>? {
        var span: ClosedRange<Double>?
        for c in candidates { widen(&span, by: c) }
        return span
    }

    /// `span` with one more candidate (a folder handed on in parts, `FolderPairing`).
    package static func widen(_ span: inout ClosedRange<Double>?, by c: SuggestionCandidate) {
        guard let t = c.captured?.secondsIgnoringUnknownZone else { return }
        let end = t + recordingSeconds(of: c)
        // NaN or an end below the start (a negative duration is 0) leave no range.
        guard t <= end else { return }
        span = span.map { min($0.lowerBound, t)...max($0.upperBound, end) } ?? t...end
    }

    /// True when this rule certainly turns down every file of a folder whose dated files span
    /// `span` (nil: none is dated, and an undated file is always turned down): the bounds of
    /// `certainlyRejects(_:in:)`, widened by the widest zone offset whatever the files' zones.
    /// A scan without explanations, and the live library, count such a folder without asking
    /// the rules of each file: the decision is the same.
    package static func certainlyRejects(span: ClosedRange<Double>?, in context: SuggestionContext) -> Bool {
        guard let span else { return true }
        let slack = CaptureDate.widestZoneOffset + 1
        return context.now - span.upperBound > context.settings.within.seconds + slack
            || span.lowerBound - context.now > context.settings.futureTolerance.seconds + slack
    }
}
