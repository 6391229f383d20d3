/// A smaller picture a file carries besides its own: what a thumbnailer may show instead of
/// decoding the full image, if its aspect matches (an edited photo often keeps a stale one).
package struct EmbeddedPreview: Sendable, Equatable {
    /// Where it was found.
    package enum Source: String, Sendable, Equatable {
        /// EXIF IFD1's JPEG thumbnail [EXIF 2.32 4.5.4].
        case exif
        /// A JPEG listed in the APP2 Multi-Picture Format index [CIPA DC-007].
        case mpf
        /// A HEIF `thmb` item [ISO 23008-12 6.4.4]; decoded by the HEIF loader itself.
        case heif
        /// A raw file's JPEG preview (TIFF JPEGInterchangeFormat in IFD0 or a SubIFD, RAF's
        /// embedded JPEG).
        case raw
    }

    package var source: Source
    /// The JPEG's file range; empty for `heif` (the loader finds the item).
    package var offset: Int64
    package var length: Int
    /// Its stored size (the JPEG's SOF, the item's `ispe`).
    package var width: Int
    package var height: Int
}

/// Finds embedded previews. Walks structure only (the IFD entries that locate a JPEG, the MP
/// index, the `thmb` reference); each JPEG found is checked to start with SOI and to have a
/// frame header, whose size it reports. Bounded: a preview is at most `previewMax` bytes, and
/// at most `previewsMax` are reported.
package enum PreviewFinder {
    package static let previewMax = 16 << 20
    static let previewsMax = 8

    /// The previews of the file `source`, largest first.
    package static func previews(_ source: some ByteSource) -> [EmbeddedPreview] {
        let reader = BoundedReader(source)
        guard let head = try? reader.readAvailable(at: 0, count: FormatDetector.headerLength) else { return [] }
        let format = FormatDetector.detect(head)
        return previews(source, format: format, findings: FormatDetector.readContainer(reader, format: format))
    }

    package static func previews(_ source: some ByteSource, format: MediaFormat, findings: ContainerFindings) -> [EmbeddedPreview]
    {
        var found: [EmbeddedPreview] = []
        let hints = findings.previewHints
        func jpeg(_ s: EmbeddedPreview.Source, _ offset: Int64, _ length: Int64) {
            guard found.count < previewsMax, let p = checkedJPEG(source, s, offset, length) else { return }
            if !found.contains(where: { $0.offset == p.offset }) { found.append(p) }
        }
        switch format {
        case .jpeg, .raf:
            if let tiff = hints.exifTIFFOffset, let ifd1 = exifIFD1(source, tiff: tiff) {
                jpeg(.exif, tiff + Int64(ifd1.jpegOffset), Int64(ifd1.jpegLength))
            }
            if let mpf = hints.mpfTIFFOffset {
                for (offset, length) in mpfImages(source, tiff: mpf) { jpeg(.mpf, mpf + offset, length) }
            }
            if let raw = hints.rawJPEG { jpeg(.raw, raw.lowerBound, raw.upperBound - raw.lowerBound + 1) }
        case .tiff, .rw2, .orf:
            let reader = BoundedReader(source)
            guard let head = try? reader.read(at: 0, count: 8), let (layout, ifd0) = TIFFStructure.header(head)
            else { break }
            let little = layout.littleEndian
            guard let root = TIFFImageSize.image(reader, little, at: ifd0) else { break }
            var images = [root]
            for at in root.subIFDs.prefix(TIFFImageSize.subIFDsMax) {
                if let i = TIFFImageSize.image(reader, little, at: at) { images.append(i) }
            }
            for i in images where i.jpegLength > 0 { jpeg(.raw, Int64(i.jpegOffset), Int64(i.jpegLength)) }
            if root.next > 0, let ifd1 = TIFFImageSize.image(reader, little, at: root.next), ifd1.jpegLength > 0 {
                jpeg(.exif, Int64(ifd1.jpegOffset), Int64(ifd1.jpegLength))
            }
        case .heic, .heif, .avif:
            if let w = hints.heifThumbnailWidth, let h = hints.heifThumbnailHeight, w > 0, h > 0 {
                found.append(EmbeddedPreview(source: .heif, offset: 0, length: 0, width: w, height: h))
            }
        default:
            break
        }
        return found.sorted {
            $0.width.multipliedReportingOverflow(by: $0.height).partialValue
                > $1.width.multipliedReportingOverflow(by: $1.height).partialValue
        }
    }

    /// IFD1 of the EXIF block whose TIFF header is at `tiff` in the file.
    static func exifIFD1(_ source: some ByteSource, tiff: Int64) -> TIFFImageSize.Image? {
        let window = BoundedReader(
            WindowByteSource(source, offset: tiff, length: min(Int64(Limits.exifPayloadMax), source.size - tiff)))
        guard let head = try? window.read(at: 0, count: 8), ExifHeader.startsTIFF(head),
            let (layout, at) = TIFFStructure.header(head)
        else { return nil }
        let little = layout.littleEndian
        guard let ifd0 = TIFFImageSize.image(window, little, at: at), ifd0.next > 0 else { return nil }
        return TIFFImageSize.image(window, little, at: ifd0.next)
    }

    /// [CIPA DC-007 5.2.3] The MP Index IFD (the first IFD after the MPF TIFF header): MPEntry
    /// (0xB002, UNDEFINED, 16 bytes per image: attribute u32, size u32, offset u32, two
    /// dependent-image entries u16). Offsets count from the MPF TIFF header; the first image
    /// (offset 0) is the file's own picture and is left out. Only a JPEG [5.2.3.3.1, bits 26-24:
    /// 0] whose MP Type is a picture of the same scene is a preview: a large thumbnail
    /// (0x010001, 0x010002) or a stereo pair's other eye (0x020002). Not an "Undefined" image
    /// (0x000000), which is what Android's Ultra HDR photos list their grey gain map as, nor a
    /// panorama's or a multi-angle set's other frames.
    static let previewTypes: Set<Int> = [0x01_0001, 0x01_0002, 0x02_0002]

    static func mpfImages(_ source: some ByteSource, tiff: Int64) -> [(Int64, Int64)] {
        let window = BoundedReader(
            WindowByteSource(source, offset: tiff, length: min(Int64(Limits.exifPayloadMax), source.size - tiff)))
        guard let head = try? window.read(at: 0, count: 8), ExifHeader.startsTIFF(head),
            let (layout, ifd) = TIFFStructure.header(head), let directory = layout.directory(window, at: ifd)
        else { return [] }
        for e in directory.entries where e.tag == .mpEntry {
            let images = min(e.count / 16, previewsMax + 1)
            guard images > 0, let entries = try? window.read(at: Int64(layout.offset(e)), count: 16 * images) else {
                return []
            }
            return (0..<images).compactMap { k in
                let attribute = layout.u32(entries, 16 * k)
                let size = layout.u32(entries, 16 * k + 4)
                let offset = layout.u32(entries, 16 * k + 8)
                let isJPEG = (attribute >> 24) & 0x7 == 0
                guard isJPEG, previewTypes.contains(attribute & 0xFF_FFFF) else { return nil }
                return offset > 0 && size > 0 ? (Int64(offset), Int64(size)) : nil
            }
        }
        return []
    }

    /// The JPEG at `offset`: inside the file, at most `previewMax` bytes, SOI first and a
    /// frame header giving its size.
    static func checkedJPEG(_ source: some ByteSource, _ s: EmbeddedPreview.Source, _ offset: Int64, _ length: Int64)
        -> EmbeddedPreview?
    {
        guard offset > 0, length > 4, length <= Int64(previewMax), offset <= source.size - length else { return nil }
        let window = BoundedReader(WindowByteSource(source, offset: offset, length: length))
        guard let soi = try? window.read(at: 0, count: 2), soi == [0xFF, 0xD8] else { return nil }
        let p = JPEGReader.read(window)
        guard let w = p.width, let h = p.height, w > 0, h > 0 else { return nil }
        return EmbeddedPreview(source: s, offset: offset, length: Int(length), width: w, height: h)
    }
}
