/// Screenshots included (default), excluded, or the only thing offered.
package struct ScreenshotRule: SuggestionRule {
    package let id = RuleID.screenshots
    package init() {}

    package func reject(_ c: SuggestionCandidate, in context: SuggestionContext) -> String? {
        switch context.settings.screenshots {
        case .include: return nil
        case .exclude: return c.kind == .screenshot ? "screenshot (--screenshots exclude)" : nil
        case .only: return c.kind == .screenshot ? nil : "not a screenshot (--screenshots only)"
        }
    }
}
