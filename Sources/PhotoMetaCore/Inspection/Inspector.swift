/// The pure inspection pipeline for one file: bytes in, `MediaAsset` out.
///
/// containers (find payloads) → EXIF (libexif) and XMP → dates (precedence table) →
/// classification. No file system access: the caller passes the bytes, the path (for name and
/// folder evidence) and the file times. Live Photo pairing needs the folder, so it is left to
/// the caller (`FileInspector` does it).
public enum Inspector {
    /// Inspects bytes held in memory. `path` supplies the name and folders that are evidence
    /// (dates in file names, `Screenshots` folders); nothing is opened.
    public static func inspect(bytes: [UInt8], path: String, fileTimes: FileTimes? = nil) -> MediaAsset {
        inspect(MemoryByteSource(bytes), path: path, fileTimes: fileTimes)
    }

    /// Inspects any source of bytes; reads are bounded by a per-file budget (docs/robustness.md).
    public static func inspect(_ source: some ByteSource, path: String, fileTimes: FileTimes? = nil) -> MediaAsset {
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
        let payloads = readContainer(reader, format: format)
        asset.diagnostics = payloads.diagnostics
        asset.truncated = payloads.truncated
        asset.width = payloads.width
        asset.height = payloads.height
        asset.rotation = payloads.rotation
        asset.frameCount = payloads.frameCount
        asset.frameCountIsLowerBound = payloads.frameCountIsLowerBound
        asset.animated = payloads.animated
        // A CR3 is a still in a movie container: its mvhd duration is not the picture's.
        asset.durationSeconds = format.isVideo ? payloads.quickTime?.durationSeconds ?? payloads.durationSeconds : nil

        var exif: ExifRecord?
        if let tiff = payloads.exif {
            let record = ExifDecoder.decode(tiff: tiff)
            asset.diagnostics += record.diagnostics
            exif = record
        }
        for (stream, first) in [(payloads.exifIFDStream, ExifDecoder.FirstIFD.exif), (payloads.gpsIFDStream, .gps)] {
            guard let stream else { continue }
            var merged = exif ?? ExifRecord()
            merged.fillGaps(from: ExifDecoder.decode(tiff: stream, firstIFD: first))
            asset.diagnostics += merged.diagnostics.suffix(from: exif?.diagnostics.count ?? 0)
            exif = merged
        }
        if format == .tiff, let end = exif?.imageDataEnd, end > source.size {
            asset.truncated = true
            asset.diagnostics.append(
                Diagnostic("tiff", "image data runs to offset \(end), past the end of the file (\(source.size) bytes)"))
        }
        let xmp = XMPReader.read(payloads.xmp)
        let qt = payloads.quickTime

        asset.make = exif?.make ?? qt?.make ?? xmp.make ?? qt?.keys["udta.mak"]
        asset.model = exif?.model ?? qt?.model ?? xmp.model ?? qt?.keys["udta.mod"]
        asset.software = exif?.software ?? qt?.keys["com.apple.quicktime.software"]
        asset.lensModel = exif?.lensModel
        asset.orientation = exif?.orientation ?? xmp.orientation
        if asset.width == nil, let w = exif?.pixelWidth, let h = exif?.pixelHeight {
            asset.width = w
            asset.height = h
        }
        if let lat = exif?.gpsLatitude, let lon = exif?.gpsLongitude {
            asset.gps = MediaAsset.GPS(latitude: lat, longitude: lon)
        } else if let point = qt?.location {
            asset.gps = MediaAsset.GPS(latitude: point.latitude, longitude: point.longitude)
        }
        asset.thumbnailBytes = exif?.thumbnailBytes
        asset.contentIdentifier = exif?.contentIdentifier ?? qt?.contentIdentifier
        asset.exifUserComment = exif?.userComment
        asset.xmpUserComment = xmp.userComment

        let fileName = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        let evidence = DateEvidence(
            exif: exif, xmp: xmp, quickTime: qt,
            riffDates: [payloads.riffDateTimeOriginal, payloads.riffCreationDate].compactMap { $0 },
            pngCreationTime: payloads.pngCreationTime,
            fileName: fileName, fileTimes: fileTimes)
        let (date, dateDiagnostics) = CaptureDateResolver.resolve(evidence)
        asset.captured = date
        asset.diagnostics += dateDiagnostics
        asset.classify()
        return asset
    }

    package static func readContainer(_ reader: BoundedReader, format: MediaFormat) -> ContainerPayloads {
        switch format {
        case .jpeg: return JPEGReader.read(reader)
        case .png: return PNGReader.read(reader)
        case .gif: return GIFReader.read(reader)
        case .webp: return WebPReader.read(reader)
        case .avi: return AVIReader.read(reader)
        case .raf: return RAFReader.read(reader)
        case .mrw: return MRWReader.read(reader)
        case .tiff: return TIFFReader.read(reader)
        case .heic, .heif, .avif: return HEIFReader.read(reader, format: format)
        case .mov, .mp4, .cr3: return QuickTimeReader.read(reader, format: format)
        case .unknown: return ContainerPayloads(format: .unknown)
        }
    }
}
