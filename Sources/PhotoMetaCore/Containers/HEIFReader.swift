/// HEIF, HEIC and AVIF stills [ISO 23008-12]: follows `meta` → `iinf` / `iloc` to the Exif and
/// XMP items, and `iprp` → `ipco` / `ipma` to the primary item's `ispe` size and `irot` rotation.
package enum HEIFReader {
    struct ItemInfo {
        var type: String
        var contentType: String?
    }

    struct Extent {
        var offset: UInt64
        var length: UInt64
    }

    struct Location {
        var constructionMethod: Int
        var baseOffset: UInt64
        var extents: [Extent]
    }

    package static func read(_ reader: BoundedReader, format: MediaFormat) -> ContainerFindings {
        var out = ContainerFindings(format: format)
        let top = BoxWalker.children(reader, from: 0, to: reader.size, domain: "heif", into: &out)
        let isSequence = top.contains { $0.type == "moov" }
        readItems(reader, top: top, into: &out, expected: !isSequence)
        if isSequence { addImageSequence(reader, into: &out) }
        // [Motion Photo format 1.0] A HEIC Motion Photo ends with its video in an `mpvd` box.
        if !isSequence { MotionPhotoLocator.locate(reader, into: &out) }
        return out
    }

    /// [ISO 23008-12 7] An image sequence (brand `msf1`; `avis` for AVIF) is a movie: `moov`
    /// with a `pict` track, read as QuickTime is. Its `mvhd` gives the date, its track the
    /// size when there is no primary item (a sequence may have no `meta` at all), and it is
    /// animated.
    static func addImageSequence(_ reader: BoundedReader, into out: inout ContainerFindings) {
        let movie = QuickTimeReader.read(reader, format: out.format)
        out.diagnostics += movie.diagnostics
        if movie.truncated { out.truncated = true }
        out.evidence.merge(movie.evidence) { mine, _ in mine }
        out.dates += movie.dates
        if out.width == nil || out.height == nil, let w = movie.width, let h = movie.height {
            out.width = w
            out.height = h
        }
        out.animated = true
    }

    /// The items of the `meta` box: Exif and XMP payloads, the primary item's size and
    /// rotation. `expected`: a still must have one (an image sequence need not).
    static func readItems(_ reader: BoundedReader, top: [BoxHeader], into out: inout ContainerFindings, expected: Bool) {
        guard let meta = top.first(where: { $0.type == "meta" }) else {
            if expected { out.note("heif", "no 'meta' box") }
            return
        }
        // [ISO 14496-12 8.11.1] meta is a FullBox: skip version and flags.
        guard meta.dataLength >= 4 else {
            out.note("heif", "'meta' box of \(meta.dataLength) bytes is too short for its header")
            return
        }
        let m = readMetaChildren(reader, meta, into: &out)
        readPrimaryProperties(reader, m, into: &out)
        readPayloads(reader, m, into: &out)
    }

    /// The children of `meta` that locate items and their properties.
    struct MetaChildren {
        var primary: UInt32?
        var items: [UInt32: ItemInfo] = [:]
        var locations: [UInt32: Location] = [:]
        var properties: [BoxHeader] = []
        var associations: [UInt32: [Int]] = [:]
        var idat: BoxHeader?
        var references: [(thumbnail: UInt32, of: UInt32)] = []
    }

    /// [ISO 23008-12 9.3] `pitm`, `iinf`, `iloc`, `iprp` (`ipco`, `ipma`), `idat` and `iref`.
    static func readMetaChildren(_ reader: BoundedReader, _ meta: BoxHeader, into out: inout ContainerFindings) -> MetaChildren {
        var m = MetaChildren()
        let boxes = BoxWalker.children(reader, from: meta.dataStart + 4, to: meta.end, domain: "heif", into: &out)
        for box in boxes {
            switch box.type {
            case "iref":
                if let b = BoxWalker.body(reader, box, domain: "heif", into: &out) { m.references = readThumbnailReferences(b) }
            case "pitm":
                if let b = BoxWalker.body(reader, box, domain: "heif", into: &out) {
                    var r = ByteReader(b)
                    let version = r.u8()
                    _ = r.skip(3)
                    m.primary = version == 0 ? r.u16be().map(UInt32.init) : r.u32be()
                }
            case "iinf":
                m.items = readItemInfo(reader, box, into: &out)
            case "iloc":
                if let b = BoxWalker.body(reader, box, domain: "heif", into: &out) {
                    m.locations = readLocations(b, into: &out)
                }
            case "iprp":
                for child in BoxWalker.children(reader, from: box.dataStart, to: box.end, domain: "heif", into: &out) {
                    if child.type == "ipco" {
                        m.properties = BoxWalker.children(
                            reader, from: child.dataStart, to: child.end, domain: "heif", into: &out)
                    } else if child.type == "ipma", let b = BoxWalker.body(reader, child, domain: "heif", into: &out) {
                        readAssociations(b, into: &m.associations)
                    }
                }
            case "idat":
                m.idat = box
            default:
                break
            }
        }
        return m
    }

    /// The primary item's size and rotation, its largest thumbnail's size (for `PreviewFinder`),
    /// and, when the primary item has no size, the largest `ispe`.
    static func readPrimaryProperties(_ reader: BoundedReader, _ m: MetaChildren, into out: inout ContainerFindings) {
        let properties = m.properties
        let associations = m.associations
        let primary = m.primary
        // The primary item's size and rotation.
        let primaryProps = primary.flatMap { associations[$0] } ?? []
        for index in primaryProps where index >= 1 && index <= properties.count {
            let prop = properties[index - 1]
            guard prop.type == "ispe" || prop.type == "irot",
                let b = BoxWalker.body(reader, prop, domain: "heif", into: &out)
            else { continue }
            var r = ByteReader(b)
            if prop.type == "ispe" {
                // [ISO 23008-12 6.5.3] FullBox, image_width u32, image_height u32.
                if r.skip(4), let w = r.u32be(), let h = r.u32be() {
                    out.width = Int(w)
                    out.height = Int(h)
                }
            } else if let angle = r.u8() {
                // [ISO 23008-12 6.5.10] angle * 90 degrees anticlockwise.
                out.rotation = Int(angle & 0x03) * 90
            }
        }
        // The thumbnails of the primary item: the largest one's ispe, for PreviewFinder.
        for id in m.references.filter({ $0.of == primary }).map(\.thumbnail) {
            for index in associations[id] ?? [] where index >= 1 && index <= properties.count {
                let prop = properties[index - 1]
                guard prop.type == "ispe", let b = BoxWalker.body(reader, prop, domain: "heif", into: &out) else { continue }
                var r = ByteReader(b)
                if r.skip(4), let w = r.u32be(), let h = r.u32be(),
                    UInt64(w) * UInt64(h)
                        > UInt64(out.previewHints.heifThumbnailWidth ?? 0) * UInt64(out.previewHints.heifThumbnailHeight ?? 0)
                {
                    out.previewHints.heifThumbnailWidth = Int(w)
                    out.previewHints.heifThumbnailHeight = Int(h)
                }
            }
        }
        if out.width == nil {
            // No association for the primary item: take the largest ispe.
            for prop in properties where prop.type == "ispe" {
                guard let b = BoxWalker.body(reader, prop, domain: "heif", into: &out) else { continue }
                var r = ByteReader(b)
                // UInt32 × UInt32 fits in UInt64; compare areas there (Int could overflow).
                if r.skip(4), let w = r.u32be(), let h = r.u32be(),
                    UInt64(w) * UInt64(h) > UInt64(out.width ?? 0) * UInt64(out.height ?? 0)
                {
                    out.width = Int(w)
                    out.height = Int(h)
                }
            }
        }
    }

    /// The Exif and XMP items' bytes.
    static func readPayloads(_ reader: BoundedReader, _ m: MetaChildren, into out: inout ContainerFindings) {
        for (id, info) in m.items.sorted(by: { $0.key < $1.key }) {
            let isExif = info.type == "Exif"
            let isXMP = info.type == "mime" && info.contentType?.hasPrefix("application/rdf+xml") == true
            guard isExif || isXMP else { continue }
            guard let loc = m.locations[id] else {
                out.note("heif", "item \(id) (\(info.type)) has no location")
                continue
            }
            // The Exif item also holds its 4-byte offset field and usually "Exif\0\0".
            let cap = isExif ? Limits.exifPayloadMax + 10 : Limits.xmpPayloadMax
            guard let data = itemData(reader, loc, idat: m.idat, cap: cap, into: &out) else { continue }
            if isExif {
                // [ISO 23008-12 A.2.1] exif_tiff_header_offset (u32), then that many bytes
                // (usually "Exif\0\0"), then the TIFF header.
                var r = ByteReader(data)
                guard let skip = r.u32be() else {
                    out.note("heif", "Exif item shorter than its offset field")
                    continue
                }
                // The offset field may point anywhere: clamp it into the item.
                let tiffStart = min(data.count, 4 + Int(skip))
                let tail = Array(data[tiffStart...])
                if ExifHeader.startsTIFF(tail) {
                    out.setExif(tail, domain: "heif")
                } else {
                    // A wrong offset field is common; the prefix handling in setExif copes.
                    out.setExif(Array(data[4...]), domain: "heif")
                }
            } else {
                out.addXMP(data, domain: "heif")
            }
        }
    }
}
