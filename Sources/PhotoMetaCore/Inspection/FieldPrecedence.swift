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
    package static let make: [EvidenceSource] = [.exif, .quickTimeKeys, .xmp, .quickTimeUserData, .h264UserData]
    package static let model: [EvidenceSource] = [.exif, .quickTimeKeys, .xmp, .quickTimeUserData, .h264UserData]
    /// A PNG's `Software` text names the program that wrote the file (a screenshot tool, an
    /// editor); an `eXIf` chunk's Software, the device's, comes first.
    package static let software: [EvidenceSource] = [.exif, .quickTimeKeys, .matroskaInfo, .flvMetaData, .pngText]
    package static let lensModel: [EvidenceSource] = [.exif]
    /// A JPEG XL's codestream states its orientation, and its decoders ignore the Exif box's
    /// [ISO/IEC 18181-2]: it comes first.
    package static let orientation: [EvidenceSource] = [.jxlCodestream, .exif, .xmp]
    /// Where the picture was taken: EXIF GPS, then the movie's ISO 6709 point (Apple's key,
    /// then `©xyz` or `loci` in `udta`, then as an `ilst` item), then the file's own XMP
    /// (`exif:GPSLatitude`, as an editor or a WebP or GIF writer keeps it), then a sidecar's.
    package static let location: [EvidenceSource] = [
        .exif, .quickTimeKeys, .quickTimeUserData, .quickTimeItemList, .xmp, .sidecar,
    ]
    package static let contentIdentifier: [EvidenceSource] = [.exif, .quickTimeKeys]
    /// Only for movies: a CR3 is a still in a movie container, and its `mvhd` duration is not
    /// the picture's.
    package static let duration: [EvidenceSource] = [
        .quickTimeMovieHeader, .riffMainHeader, .matroskaInfo, .transportStreamClock, .asfFileProperties, .flvMetaData,
        .flvLastTag,
    ]
    /// The size when the container states none (the container's own size comes first: it is
    /// the picture as stored, where EXIF's PixelXDimension may describe the original).
    package static let size: [EvidenceSource] = [.exif]

    /// Decides every field of `asset` from the evidence (the container's size, when it has one,
    /// is already set). One pass over the sources the file has (most have one): each offers
    /// its values, and a field keeps the one from the source its list puts first (not a
    /// lookup and a copy of a source's evidence per field and source; docs/performance.md,
    /// "The fourth pass").
    package static func decide(_ evidence: [EvidenceSource: FieldEvidence], into asset: inout MediaAsset) {
        var makeP = Pick<String>(make)
        var modelP = Pick<String>(model)
        var softwareP = Pick<String>(software)
        var lensP = Pick<String>(lensModel)
        var orientationP = Pick<Int>(orientation)
        var locationP = Pick<MediaAsset.GPS>(location)
        var identifierP = Pick<String>(contentIdentifier)
        var durationP = Pick<Double>(duration)
        var sizeP = Pick<(Int, Int)>(size)
        for (source, e) in evidence {
            makeP.offer(e.make, from: source)
            modelP.offer(e.model, from: source)
            softwareP.offer(e.software, from: source)
            lensP.offer(e.lensModel, from: source)
            orientationP.offer(e.orientation, from: source)
            locationP.offer(e.location, from: source)
            identifierP.offer(e.contentIdentifier, from: source)
            durationP.offer(e.durationSeconds, from: source)
            // Both dimensions from one source, never a width from one and a height from another.
            if let w = e.width, let h = e.height { sizeP.offer((w, h), from: source) }
        }
        asset.make = makeP.value
        asset.model = modelP.value
        asset.software = softwareP.value
        asset.lensModel = lensP.value
        asset.orientation = orientationP.value
        asset.gps = locationP.value
        asset.contentIdentifier = identifierP.value
        asset.durationSeconds = asset.format.isVideo ? durationP.value : nil
        if asset.width == nil, let (w, h) = sizeP.value {
            asset.width = w
            asset.height = h
        }
    }

    /// A field's value from the best-placed source in `order` that states one.
    private struct Pick<T> {
        let order: [EvidenceSource]
        var rank = Int.max
        var value: T?
        init(_ order: [EvidenceSource]) { self.order = order }

        mutating func offer(_ v: T?, from source: EvidenceSource) {
            guard let v, let r = order.firstIndex(of: source), r < rank else { return }
            rank = r
            value = v
        }
    }
}
