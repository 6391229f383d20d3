/// A file still being written is not offered yet: modified within the last `settleTime`
/// (1 s, measured on the real clock whatever `--now` says), or its container is cut short.
/// It will qualify on a later run (or the watcher's next event) once it settles.
package struct CompletenessRule: SuggestionRule {
    package let id = RuleID.completeness
    package init() {}

    package func reject(_ c: SuggestionCandidate, in context: SuggestionContext) -> String? {
        if c.truncated { return "the file is cut short (still being written?)" }
        let since = context.realNow - c.modified
        if since >= 0, since < context.settings.settleTime.seconds {
            return "modified \(DurationText.describe(since)) ago; waiting for it to settle"
        }
        return nil
    }
}
