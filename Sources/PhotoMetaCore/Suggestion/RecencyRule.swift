/// The capture instant lies within `within` of now. Up to `futureTolerance` (5 s) in the future
/// counts as now (clock skew); further in the future is a clock error and is rejected.
package struct RecencyRule: SuggestionRule {
    package let id = RuleID.recency
    package init() {}

    package func reject(_ c: SuggestionCandidate, in context: SuggestionContext) -> String? {
        guard let t = context.instant(of: c) else { return "no capture date" }
        let age = context.now - t
        if age < -context.settings.futureTolerance.seconds {
            return "captured \(DurationText.describe(-age)) in the future (clock error)"
        }
        if age > context.settings.within.seconds {
            return "captured \(DurationText.describe(age)) ago, more than \(DurationText.describe(context.settings.within))"
        }
        return nil
    }
}
