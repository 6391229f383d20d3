/// The precedence table for every reported field but the capture date (that one is
/// `CaptureDateResolver`'s): for each field, the sources in the order they are believed. The
/// first source in the list that states the field wins; a source not in the list is never
/// used for it. Readers only state what they found (`FieldEvidence` by `EvidenceSource`), so
/// a new container adds its evidence and, when it brings a new source, a place in these lists.
///
/// Why this order: EXIF is what the camera wrote about the picture, and is read first
/// everywhere; Apple's QuickTime keys are the same camera's own record of a movie; XMP is
/// often an editor's copy; `udta` and bare `ilst` atoms are the oldest and least specified
/// ([QuickTime File Format, User Data Atoms]).
package enum FieldPrecedence {
    package static let make: [EvidenceSource] = [.exif, .quickTimeKeys, .xmp, .quickTimeUserData]
    package static let model: [EvidenceSource] = [.exif, .quickTimeKeys, .xmp, .quickTimeUserData]
    package static let software: [EvidenceSource] = [.exif, .quickTimeKeys, .matroskaInfo]
    package static let lensModel: [EvidenceSource] = [.exif]
    package static let orientation: [EvidenceSource] = [.exif, .xmp]
    /// Where the picture was taken: EXIF GPS, then the movie's ISO 6709 point (Apple's key,
    /// then `©xyz` in `udta`, then as an `ilst` item), then a sidecar's.
    package static let location: [EvidenceSource] = [
        .exif, .quickTimeKeys, .quickTimeUserData, .quickTimeItemList, .sidecar,
    ]
    package static let contentIdentifier: [EvidenceSource] = [.exif, .quickTimeKeys]
    /// Only for movies: a CR3 is a still in a movie container, and its `mvhd` duration is not
    /// the picture's.
    package static let duration: [EvidenceSource] = [.quickTimeMovieHeader, .riffMainHeader, .matroskaInfo]
    /// The size when the container states none (the container's own size comes first: it is
    /// the picture as stored, where EXIF's PixelXDimension may describe the original).
    package static let size: [EvidenceSource] = [.exif]

    /// The first value `field` has among `sources`, in order.
    package static func first<T>(
        _ field: KeyPath<FieldEvidence, T?>, _ sources: [EvidenceSource], in evidence: [EvidenceSource: FieldEvidence]
    ) -> T? {
        for source in sources {
            if let value = evidence[source]?[keyPath: field] { return value }
        }
        return nil
    }

    /// Decides every field of `asset` from the evidence (the container's size, when it has one,
    /// is already set).
    package static func decide(_ evidence: [EvidenceSource: FieldEvidence], into asset: inout MediaAsset) {
        asset.make = first(\.make, make, in: evidence)
        asset.model = first(\.model, model, in: evidence)
        asset.software = first(\.software, software, in: evidence)
        asset.lensModel = first(\.lensModel, lensModel, in: evidence)
        asset.orientation = first(\.orientation, orientation, in: evidence)
        asset.gps = first(\.location, location, in: evidence)
        asset.contentIdentifier = first(\.contentIdentifier, contentIdentifier, in: evidence)
        asset.durationSeconds = asset.format.isVideo ? first(\.durationSeconds, duration, in: evidence) : nil
        if asset.width == nil {
            // Both dimensions from one source, never a width from one and a height from another.
            for source in size {
                if let w = evidence[source]?.width, let h = evidence[source]?.height {
                    asset.width = w
                    asset.height = h
                    break
                }
            }
        }
    }
}
