/// A file still being written is not offered yet: modified within the last `settleTime`
/// (1 s, measured on the real clock whatever `--now` says), or its container is cut short.
/// It will qualify on a later run (or the watcher's next event) once it settles. A file cut
/// short that has not changed for `stalledAfter` (30 s) is damaged, not being written: it is
/// turned down too, but it is not pending (`mayStillChange`), so it holds no older photo back.
/// A placeholder (a picture's name on a file still empty, `PlaceholderFile`) is being written
/// in the same way.
package struct CompletenessRule: SuggestionRule {
    package let id = RuleID.completeness
    package init() {}

    package func reject(_ c: SuggestionCandidate, in context: SuggestionContext) -> String? {
        let since = context.realNow - c.modified
        if c.isPlaceholder {
            guard CompletenessRule.mayStillChange(c, context) else {
                return "the file is empty and unchanged for \(DurationText.describe(since)): not being written"
            }
            return "the file is still empty (being created?)"
        }
        if c.truncated {
            guard CompletenessRule.mayStillChange(c, context) else {
                return "the file is cut short and unchanged for \(DurationText.describe(since)): damaged, not being written"
            }
            return "the file is cut short (still being written?)"
        }
        if since >= 0, since < context.settings.settleTime.seconds {
            return "modified \(DurationText.describe(since)) ago; waiting for it to settle"
        }
        return nil
    }

    /// Whether a file this rule turns down may yet qualify: one still settling, or cut short
    /// (or a placeholder, `PlaceholderFile`) and changed within `stalledAfter` (a modification
    /// time in the future counts as recent).
    package static func mayStillChange(_ c: SuggestionCandidate, _ context: SuggestionContext) -> Bool {
        !(c.truncated || c.isPlaceholder) || context.realNow - c.modified < context.settings.stalledAfter.seconds
    }
}
