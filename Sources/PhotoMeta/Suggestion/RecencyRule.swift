/// The capture instant lies within `within` of now. Up to `futureTolerance` (5 s) in the future
/// counts as now (clock skew); further in the future is a clock error and is rejected.
public struct RecencyRule: SuggestionRule {
    public let name = "recency"
    public init() {}

    public func reject(_ c: SuggestionCandidate, in context: SuggestionContext) -> String? {
        guard let t = context.instant(of: c) else { return "no capture date" }
        let age = context.now - t
        if age < -context.settings.futureTolerance {
            return "captured \(Duration.describe(-age)) in the future (clock error)"
        }
        if age > context.settings.within {
            return "captured \(Duration.describe(age)) ago, more than \(Duration.describe(context.settings.within))"
        }
        return nil
    }
}
