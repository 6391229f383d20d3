import PhotoMetaCore
import PhotoMetaSystem

/// What is on offer now: the memory's standing offer, checked against the folders and the clock.
enum StandingOffer {
    /// The memory's standing offer (`offer`: its file's canonical path and capture instant) if
    /// it still stands at `now`: captured within the window, its file a regular file inside one
    /// of `roots` that reads as media. The candidate's path is shown under its root's display
    /// name. One home for `suggest --standing` and the standing offer a watch reports at start.
    static func find(
        _ offer: (file: String, instant: Double), roots: [FolderScan.Root], settings: SuggestionSettings, now: Double
    ) -> (candidate: SuggestionCandidate, root: FolderScan.Root)? {
        guard now - offer.instant <= settings.within.seconds, offer.instant - now <= settings.futureTolerance.seconds,
            let root = roots.first(where: { offer.file.hasPrefix($0.path == "/" ? "/" : $0.path + "/") }),
            let facts = try? FileFacts.of(offer.file), facts.type == .regular
        else { return nil }
        let prefix = root.display.hasSuffix("/") ? String(root.display.dropLast()) : root.display
        let shown = prefix + offer.file.dropFirst(root.path == "/" ? 0 : root.path.count)
        let asset = FileInspector.inspect(path: shown)
        guard asset.error == nil, !asset.isNotMedia else { return nil }
        return (SuggestionCandidate(asset, modified: facts.key.modifiedSeconds), root)
    }
}
