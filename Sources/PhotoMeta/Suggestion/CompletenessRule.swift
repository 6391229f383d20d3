/// A file still being written is not offered yet: modified within the last `settleTime`
/// (1 s, measured on the real clock whatever `--now` says), or its container is cut short.
/// It will qualify on a later run (or the watcher's next event) once it settles.
public struct CompletenessRule: SuggestionRule {
    public let name = "completeness"
    public init() {}

    public func reject(_ c: SuggestionCandidate, in context: SuggestionContext) -> String? {
        if c.truncated { return "the file is cut short (still being written?)" }
        let since = context.realNow - c.modified
        if since >= 0, since < context.settings.settleTime {
            return "modified \(Duration.describe(since)) ago; waiting for it to settle"
        }
        return nil
    }
}
