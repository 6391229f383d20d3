/// Nothing is offered twice: an asset captured at or before the folder's remembered instant
/// (the last offer or dismissal) is turned down. Instants are compared, not identities, so
/// the same photo read twice, renamed or copied does not come back.
package struct MemoryRule: SuggestionRule {
    package let id = RuleID.memory
    package init() {}

    package func reject(_ c: SuggestionCandidate, in context: SuggestionContext) -> String? {
        guard let remembered = context.remembered, let t = context.instant(of: c) else { return nil }
        return t <= remembered ? "already offered or dismissed (captured at or before the remembered time)" : nil
    }
}
