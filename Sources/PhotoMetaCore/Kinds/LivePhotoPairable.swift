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
    /// The partner's capture date (set with `livePhotoPair`): the pair's first instant is what
    /// the memory compares (a Live Photo whose movie was offered was offered, `MemoryRule`).
    var livePhotoPairCaptured: CaptureDate? { get set }
    /// False for a file that could not be read (a placeholder still empty keeps the kind its
    /// name promises, `PlaceholderFile`): no half of a Live Photo, as `inspect` pairs only
    /// files it read.
    var canPair: Bool { get }
}

extension LivePhotoPairable {
    /// What the rule needs to know about this file.
    package var pairingMember: LivePhotoPairing.Member {
        LivePhotoPairing.Member(
            path: path, kind: kind, contentIdentifier: contentIdentifier, captured: captured,
            durationSeconds: durationSeconds)
    }
}

extension MediaAsset: LivePhotoPairable {
    package var canPair: Bool { error == nil }
}
extension SuggestionCandidate: LivePhotoPairable {
    package var canPair: Bool { error == nil }
}

extension LivePhotoPairing {
    /// Pairs `items` (one folder's files, or several folders'): both halves of each pair name
    /// each other, and each still becomes a Live Photo.
    package static func apply<T: LivePhotoPairable>(_ items: inout [T]) {
        // Every pair has a movie half: a folder without a video (most of a photo library) has
        // none, and is not split into names at all.
        guard items.contains(where: { $0.kind == .video }) else { return }
        let members = pairingCandidates(items)
        for p in pairs(members.map { items[$0].pairingMember }) {
            let (still, movie) = (members[p.still], members[p.movie])
            let stillPath = items[still].path
            let moviePath = items[movie].path
            let (stillCaptured, movieCaptured) = (items[still].captured, items[movie].captured)
            link(&items[still], partner: moviePath, captured: movieCaptured, evidence: p.evidence, isStill: true)
            link(&items[movie], partner: stillPath, captured: stillCaptured, evidence: p.evidence, isStill: false)
        }
    }

    /// Writes one half of a pair. The still's kind becomes `livePhoto` here and only here (the
    /// classifier runs before pairing and knows nothing of partners): "a still with a movie
    /// partner is a Live Photo" (docs/kinds.md). A movie stays a video, offered through its still.
    package static func link<T: LivePhotoPairable>(
        _ item: inout T, partner: String, captured: CaptureDate?, evidence: LivePhotoEvidence, isStill: Bool
    ) {
        item.livePhotoPair = partner
        item.livePhotoPairCaptured = captured
        item.livePhotoEvidence = evidence
        if isStill { item.kind = .livePhoto }
    }

    /// The positions of the items the rule can pair, in order: the videos, and the stills that
    /// share a video's base-name key (passes 1 and 3) or one of the videos' identifiers (pass
    /// 2). Any other still is in no group a movie looks at, so leaving it out changes no pair
    /// (the groups keep their path order): a folder of 330 photos and a few clips hands the
    /// rule a few dozen members, not 330 (two thirds of a cold `suggest`'s folder work).
    static func pairingCandidates<T: LivePhotoPairable>(_ items: [T]) -> [Int] {
        var stems = Set<UInt64>()
        var identifiers = Set<String>()
        for item in items where item.kind == .video && item.canPair {
            stems.insert(stemHash(item.path))
            if let id = item.contentIdentifier { identifiers.insert(id) }
        }
        return items.indices.filter { i in
            guard items[i].canPair else { return false }
            if items[i].kind == .video { return true }
            if !identifiers.isEmpty, let id = items[i].contentIdentifier, identifiers.contains(id) { return true }
            return stems.contains(stemHash(items[i].path))
        }
    }

    /// A hash (`FNV1a`) of the key `role` groups a file by: "dir/IMG_0001" of
    /// "dir/IMG_0001.HEIC", the path up to its name's last dot (the whole path when the name has
    /// none, or only a leading one), as `split` cuts it. Read off the path's bytes in place;
    /// equal keys hash equal, and a collision only hands the rule one more member, which it
    /// judges as any other.
    package static func stemHash(_ path: String) -> UInt64 {
        if let h = path.utf8.withContiguousStorageIfAvailable({ stemHash(bytes: $0) }) { return h }
        return Array(path.utf8).withUnsafeBufferPointer { stemHash(bytes: $0) }
    }

    private static func stemHash(bytes b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var end = b.count
        var i = b.count - 1
        while i >= 0, b[i] != UInt8(ascii: "/") {
            if b[i] == UInt8(ascii: "."), end == b.count { end = i }
            i -= 1
        }
        if end == i + 1 { end = b.count }  // a leading dot: the whole name is the base
        var h = FNV1a()
        let key = UnsafeBufferPointer(rebasing: b[..<end])
        if key.contains(where: { $0 >= 0x80 }) {
            // Keys are compared as strings, composed and decomposed spellings alike ("Café"
            // written by Linux, "Cafe\u{301}" copied through macOS): their hash is the composed
            // (NFC) spelling's, or the two halves of a Live Photo would never meet.
            var composed = Text.canonical(String(decoding: key, as: UTF8.self))
            composed.withUTF8 { h.add(buffer: $0) }
        } else {
            h.add(buffer: key)
        }
        return h.value
    }
}
