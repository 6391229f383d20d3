/// The pure inspection pipeline for one file: bytes in, `MediaAsset` out.
///
/// containers (find EXIF streams, XMP packets and evidence) → EXIF (libexif) and XMP →
/// fields (`FieldPrecedence`) and dates (`CaptureDateResolver`) → classification. No file
/// system access: the caller passes the bytes, the path (for name and folder evidence) and the
/// file times. Live Photo pairing needs the folder, so it is left to the caller
/// (`FileInspector` does it). Nothing here knows a container format: each reader hands over
/// `ContainerFindings`, the same shape for all.
public enum Inspector {
    /// Inspects bytes held in memory. `path` supplies the name and folders that are evidence
    /// (dates in file names, `Screenshots` folders); nothing is opened.
    public static func inspect(bytes: [UInt8], path: String, fileTimes: FileTimes? = nil) -> MediaAsset {
        inspect(MemoryByteSource(bytes), path: path, fileTimes: fileTimes)
    }

    /// Inspects any source of bytes; reads are bounded by a per-file budget (docs/robustness.md).
    public static func inspect(_ source: some ByteSource, path: String, fileTimes: FileTimes? = nil) -> MediaAsset {
        inspect(source, path: path, fileTimes: fileTimes, sidecars: [])
    }

    /// With the file's sidecars, already read by the caller (`FileInspector`): their dates rank
    /// below the file's own and above its name, their position below the file's.
    /// `latestNameYear`: names dated after it are refused (the caller's clock: next year).
    package static func inspect(
        _ source: some ByteSource, path: String, fileTimes: FileTimes?, sidecars: [SidecarFile], latestNameYear: Int? = nil
    ) -> MediaAsset {
        let reader = BoundedReader(source)
        let head: [UInt8]
        do throws(ReadFailure) {
            head = try reader.readAvailable(at: 0, count: FormatDetector.headerLength)
        } catch {
            return MediaAsset.failed(path, .unreadable(error))
        }
        let format = FormatDetector.detect(head)
        var asset = MediaAsset(path: path, format: format)
        asset.fileSize = source.size
        guard format != .unknown else {
            asset.error = source.size == 0 ? .empty : .unsupportedFormat
            return asset
        }
        let found = FormatDetector.readContainer(reader, format: format)
        asset.diagnostics = found.diagnostics
        asset.truncated = found.truncated
        asset.width = found.width
        asset.height = found.height
        asset.rotation = found.rotation
        asset.frameCount = found.frameCount
        asset.frameCountIsLowerBound = found.frameCountIsLowerBound
        asset.animated = found.animated
        asset.motionPhoto = found.motionPhoto
        asset.displayWidth = found.displayWidth
        asset.displayHeight = found.displayHeight
        asset.livePhotoEvidence = found.motionPhotoEvidence
        asset.audioOnly = found.audioOnly

        let exif = decodeExif(found, into: &asset)
        if found.exifOffsetsAreFileOffsets, let end = exif?.imageDataEnd, end > source.size {
            asset.truncated = true
            asset.diagnostics.append(
                Diagnostic("tiff", "image data runs to offset \(end), past the end of the file (\(source.size) bytes)"))
        }
        let xmp = XMPReader.read(found.xmp)
        let fileName = path.lastIndex(ofASCII: UInt8(ascii: "/")).map { String(path[path.utf8.index(after: $0)...]) } ?? path
        let beside = SidecarEvidence.read(sidecars, pictureName: fileName)
        asset.diagnostics += beside.diagnostics
        var evidence = found.evidence
        evidence[.sidecar] = FieldEvidence(location: beside.location)
        evidence[.exif] = exif?.fieldEvidence
        evidence[.xmp] = xmp.fieldEvidence
        FieldPrecedence.decide(evidence, into: &asset)
        asset.thumbnailBytes = exif?.thumbnailBytes
        asset.exifUserComment = exif?.userComment
        asset.xmpUserComment = xmp.userComment

        let dates = DateEvidence(
            exif: exif, xmp: xmp, clues: found.dates + beside.clues, fileName: fileName, fileTimes: fileTimes,
            latestNameYear: latestNameYear, isStill: !asset.format.isVideo)
        let (date, dateDiagnostics) = CaptureDateResolver.resolve(dates)
        asset.captured = date
        asset.diagnostics += dateDiagnostics
        asset.classify()
        return asset
    }

    /// The file's EXIF record: the stream that starts at IFD0, its gaps filled from streams
    /// that start at the Exif and GPS IFDs (Canon CR3 stores them apart), in that order; the
    /// decoders' diagnostics added to the asset's. Nil when the file has no EXIF stream.
    static func decodeExif(_ found: ContainerFindings, into asset: inout MediaAsset) -> ExifRecord? {
        var exif: ExifRecord?
        if let stream = found.exifInput(startingAt: .ifd0) {
            let record = ExifDecoder.decode(app1: stream.app1)
            asset.diagnostics += record.diagnostics
            exif = record
        }
        for first in [ExifDecoder.FirstIFD.exif, .gps] {
            guard let stream = found.exifInput(startingAt: first) else { continue }
            var merged = exif ?? ExifRecord()
            merged.fillGaps(from: ExifDecoder.decode(app1: stream.app1, firstIFD: first))
            asset.diagnostics += merged.diagnostics.suffix(from: exif?.diagnostics.count ?? 0)
            exif = merged
        }
        return exif
    }
}
