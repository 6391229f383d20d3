/// A file the Live Photo rule can pair: what the rule reads (`pairingMember`) and what pairing
/// writes back. `MediaAsset` (inspect) and `SuggestionCandidate` (suggest, watch, the index)
/// both are one, so the pair, its evidence and the still's kind are set in one place
/// (`LivePhotoPairing.link`), whichever command paired them.
package protocol LivePhotoPairable {
    var path: String { get }
    var kind: MediaKind { get set }
    var contentIdentifier: String? { get }
    var captured: CaptureDate? { get }
    var durationSeconds: Double? { get }
    var livePhotoPair: String? { get set }
    var livePhotoEvidence: LivePhotoEvidence? { get set }
}

extension LivePhotoPairable {
    /// What the rule needs to know about this file.
    package var pairingMember: LivePhotoPairing.Member {
        LivePhotoPairing.Member(
            path: path, kind: kind, contentIdentifier: contentIdentifier, captured: captured,
            durationSeconds: durationSeconds)
    }
}

extension MediaAsset: LivePhotoPairable {}
extension SuggestionCandidate: LivePhotoPairable {}

extension LivePhotoPairing {
    /// Pairs `items` (one folder's files, or several folders'): both halves of each pair name
    /// each other, and each still becomes a Live Photo.
    package static func apply<T: LivePhotoPairable>(_ items: inout [T]) {
        // Every pair has a movie half: a folder without a video (most of a photo library) has
        // none, and is not split into names at all.
        guard items.contains(where: { $0.kind == .video }) else { return }
        for p in pairs(items.map(\.pairingMember)) {
            let stillPath = items[p.still].path
            let moviePath = items[p.movie].path
            link(&items[p.still], partner: moviePath, evidence: p.evidence, isStill: true)
            link(&items[p.movie], partner: stillPath, evidence: p.evidence, isStill: false)
        }
    }

    /// Writes one half of a pair. The still's kind becomes `livePhoto` here and only here (the
    /// classifier runs before pairing and knows nothing of partners): "a still with a movie
    /// partner is a Live Photo" (docs/kinds.md). A movie stays a video, offered through its still.
    package static func link<T: LivePhotoPairable>(
        _ item: inout T, partner: String, evidence: LivePhotoEvidence, isStill: Bool
    ) {
        item.livePhotoPair = partner
        item.livePhotoEvidence = evidence
        if isStill { item.kind = .livePhoto }
    }
}
