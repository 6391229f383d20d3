import Foundation
import PhotoMeta
import PhotoMetaCore
import PhotoMetaSystem
@_exported import PhotoMetaThumbnailCache

/// The thumbnails product's version, written into cache entries (`Software`) and naming its
/// failure folder (`fail/photometa-VERSION`).
public enum PhotoMetaThumbnails {
    /// photometa's version.
    public static let version = ThumbnailCache.version
}

/// Makes the picture to show for a photo or video at a requested size: from a valid cache
/// entry, else an embedded preview whose aspect matches, else the file decoded with
/// shrink-on-load (or a video frame), then stored in the freedesktop cache (docs/thumbnails.md).
///
/// Safe to use from several threads at once; each call handles one file and never throws
/// for another file's problem.
public final class Thumbnailer: Sendable {
    /// The shared cache read and written, or nil for neither.
    public let cache: ThumbnailCache?

    /// A thumbnailer using `cache` (the user's freedesktop cache by default).
    public init(cache: ThumbnailCache? = .standard()) {
        self.cache = cache
    }

    /// Loads and starts the image libraries now rather than on the first file: a process that
    /// confines itself (`photometa-thumbnailer`, docs/sandbox.md) calls this before it may no
    /// longer read the libraries' folders. False when libvips could not start.
    @discardableResult
    package static func loadLibraries() -> Bool { VipsCodec.start() }

    /// One thumbnail of the file at `path` as `request` asks (for `opportunistic` delivery, the
    /// exact one; use `thumbnails(of:_:)` for both).
    public func thumbnail(of path: String, _ request: ThumbnailRequest) throws(ThumbnailError) -> Thumbnail {
        var r = request
        if r.delivery == .opportunistic { r.delivery = .exact }
        return try make(path, r)
    }

    /// The quick picture first (a matching embedded preview, possibly smaller than the box),
    /// then the exact one; a single element when the first is already exact or there is no
    /// quick one. Ends with the error when the exact one fails.
    public func thumbnails(of path: String, _ request: ThumbnailRequest) -> AsyncThrowingStream<Thumbnail, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task.detached { [self] in
                var fast = request
                fast.delivery = .fast
                let quick = try? self.make(path, fast)
                if let quick { continuation.yield(quick) }
                if let quick, !quick.isDegraded {
                    continuation.finish()
                    return
                }
                var exact = request
                exact.delivery = .exact
                do throws(ThumbnailError) {
                    continuation.yield(try self.make(path, exact))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    func make(_ path: String, _ request: ThumbnailRequest) throws(ThumbnailError) -> Thumbnail {
        if let hit = try cached(path, request) { return hit }
        let s = try subject(path)
        if let w = s.asset.width, let h = s.asset.height,
            w.multipliedReportingOverflow(by: h).partialValue > request.maxPixels
                || w.multipliedReportingOverflow(by: h).overflow
        {
            throw .tooManyPixels("image has \(w)x\(h) pixels, more than the limit of \(request.maxPixels)")
        }
        let shown = s.shown ?? (request.width, request.height)
        let needed = request.neededSize(forPicture: shown.width, shown.height)
        try Thumbnailer.checkFill(request, shown: shown, needed: needed)
        let picture = s.asset.width.flatMap { w in s.asset.height.map { (width: w, height: $0) } }
        // The cache: a valid entry of a bucket that holds what is needed.
        if let made = try throughCache(s, request, needed: needed, picture: picture) { return made }
        if s.shown == nil {
            // Size unknown until decoded (a video): an upright picture four times the box first
            // (fill and crop of a wide frame need more than the box), then the request from it.
            let side = min(4 * max(request.width, request.height), ThumbnailRequest.maximumSide)
            var first = ThumbnailRequest(width: side, height: side)
            first.maxPixels = request.maxPixels
            first.delivery = request.delivery
            let (encoded, source, degraded) = try produce(s, first, chunks: [])
            return try derive(from: encoded.bytes, at: nil, source: source, shown: nil, request, degraded: degraded)
        }
        // Fit keeps its box: fitted into the rounded output size, libvips rounds again (600x315
        // in 256x134 was 255x134). Fill and crop are made at their output size.
        var direct = request
        if request.mode != .fit { (direct.width, direct.height) = request.outputSize(forPicture: shown.width, shown.height) }
        let (encoded, source, degraded) = try produce(s, direct, chunks: [])
        return Thumbnail(
            bytes: encoded.bytes, width: encoded.width, height: encoded.height, format: request.format, source: source,
            isDegraded: degraded)
    }

    /// The request from an upright picture already small (a cache entry, the bucket's new
    /// entry): the same bytes when they are the answer, else resized from them.
    func derive(
        from png: [UInt8], at path: String?, source: Thumbnail.Source, shown known: (width: Int, height: Int)?,
        _ request: ThumbnailRequest, degraded: Bool = false, chunks: [(String, String)] = []
    ) throws(ThumbnailError) -> Thumbnail {
        guard let header = pngSize(png) else { throw .cannotDecode("the cache entry is not a PNG") }
        // Unknown (a video): the upright picture's own aspect, at the size it has.
        let shown = known ?? header
        let out = request.outputSize(forPicture: shown.width, shown.height)
        // The entry is the answer when it has the size asked, or, fitted, when it already fits
        // the box at its own aspect: libvips' shrink-on-load may round a side the other way
        // (a 3000x1999 JPEG's 256 px entry is 256x170, the picture's aspect says 171).
        let fits =
            request.mode == .fit && (header.width, header.height) == request.outputSize(forPicture: header.width, header.height)
        if request.format == .png, chunks.isEmpty,
            (header.width, header.height) == out || fits || degraded && request.mode == .fit
        {
            return Thumbnail(
                bytes: png, width: header.width, height: header.height, format: .png, source: source, isDegraded: degraded,
                path: path)
        }
        // Exactly `out`, the size the picture's own aspect gives: the entry's size was rounded
        // once, and fitted into the rounded box libvips rounds again (a 600x315 picture's
        // 512x269 entry fitted into 256x134 was 255x134). Covering `out` and cutting the
        // centre loses at most that pixel.
        var o = VipsCodec.Options(
            width: out.width, height: out.height, crop: true, orientation: 1, maxPixels: request.maxPixels,
            format: request.format, quality: request.quality, text: chunks)
        if degraded, request.mode != .crop {
            o.width = min(request.width, header.width)
            o.height = min(request.height, header.height)
            o.crop = false
        }
        do throws(VipsCodec.Failure) {
            let e = try VipsCodec.thumbnail(bytes: png, o)
            return Thumbnail(
                bytes: e.bytes, width: e.width, height: e.height, format: request.format, source: source, isDegraded: degraded)
        } catch {
            throw error.reason
        }
    }

    /// Makes the picture for `request` (a box already at its output size) from the best source:
    /// an embedded preview, a video frame, or the decoded file. Returns it, where it came from,
    /// and whether it is smaller than asked (`fast` only).
    func produce(_ s: Subject, _ request: ThumbnailRequest, chunks: [(String, String)]) throws(ThumbnailError) -> (
        VipsCodec.Encoded, Thumbnail.Source, Bool
    ) {
        let shown = s.shown ?? (request.width, request.height)
        let needed = request.neededSize(forPicture: shown.width, shown.height)
        var o = VipsCodec.Options(
            width: request.width, height: request.height, crop: request.mode == .crop, maxPixels: request.maxPixels,
            format: request.format, quality: request.quality, text: chunks)
        let fillBox = request.mode == .fill ? request.outputSize(forPicture: shown.width, shown.height) : nil
        if let fillBox {
            o.width = fillBox.width
            o.height = fillBox.height
        }
        let isRaw = [.raf, .cr3, .mrw, .rw2, .orf].contains(s.asset.format) || rawTIFF(s)
        // Embedded previews, largest first: the aspect must match the picture's (a stale
        // preview of an edited photo does not); large enough, unless fast or raw.
        if !s.isVideo, let source = try? FileByteSource(path: s.canonical) {
            let previews = PreviewFinder.previews(source)
            for p in previews {
                guard aspectMatches(p, s) else { continue }
                let quarter = !s.isHEIF && (5...8).contains(s.asset.orientation ?? 1)
                let pw = quarter ? p.height : p.width
                let ph = quarter ? p.width : p.height
                let bigEnough = pw >= needed.width && ph >= needed.height
                guard bigEnough || request.delivery == .fast || isRaw else { continue }
                let kind: Thumbnail.Source =
                    switch p.source {
                    case .exif: .embeddedEXIF
                    case .mpf: .embeddedMPF
                    case .heif: .embeddedHEIF
                    case .raw: .embeddedRaw
                    }
                do throws(VipsCodec.Failure) {
                    if p.source == .heif {
                        // libvips' HEIF loader takes the thumbnail item itself when it is big enough.
                        guard bigEnough else { continue }
                        return (try VipsCodec.thumbnail(path: s.canonical, o), kind, false)
                    }
                    guard let bytes = try? source.read(at: p.offset, count: p.length), bytes.count == p.length else { continue }
                    var po = o
                    po.orientation = s.asset.orientation ?? 1
                    return (try VipsCodec.thumbnail(bytes: bytes, po), kind, !bigEnough)
                } catch {
                    continue  // A broken preview: try the next source.
                }
            }
        }
        // A cut file's preview may be what was cut (or, for a TIFF, the directory libvips
        // needs, so that it was taken for a raw): say what happened, not "raw sensor data".
        if isRaw { throw s.asset.truncated ? .cannotDecode(Self.truncatedCause + "; no usable embedded preview") : .noPreview }
        // libvips' JPEG XL loader is one it marks untrusted; its module is not even loaded
        // (CVipsRuntime.c), so libvips would call the file unknown: say what it is.
        if s.asset.format == .jxl { throw .unsupported("JPEG XL: libvips' loader is blocked (untrusted format) and not loaded") }
        do throws(VipsCodec.Failure) {
            if s.isVideo { return (try VipsCodec.videoFrame(path: s.canonical, percent: 10, o), .videoFrame, false) }
            guard let pixels = heavyPixels(s) else { return (try VipsCodec.thumbnail(path: s.canonical, o), .decoded, false) }
            return try Self.heavyDecodes.run(pixels: pixels) { () throws(VipsCodec.Failure) in
                (try VipsCodec.thumbnail(path: s.canonical, o), .decoded, false)
            }
        } catch {
            throw Self.explained(error.reason, truncated: s.asset.truncated)
        }
    }

    /// A decoder's failure on a file the inspection found cut short says that first: the
    /// decoder's own words ("TIFFFillStrip: Read error at scanline…", "bad seek to 922") name
    /// its step, not the cause a user can act on.
    static func explained(_ reason: ThumbnailError, truncated: Bool) -> ThumbnailError {
        guard truncated else { return reason }
        switch reason {
        case .cannotDecode(let why): return .cannotDecode("\(truncatedCause); \(why)")
        case .noVideoFrame(let why): return .noVideoFrame("\(truncatedCause); \(why)")
        default: return reason
        }
    }

    /// What a file the inspection reports `truncated` is told to be.
    static let truncatedCause = "the file is truncated (it ends before its data does)"

    /// A TIFF whose picture is not IFD0's image (NEF, DNG, ARW keep the raw data in a SubIFD),
    /// or one libvips cannot open at all: libvips would show IFD0's small preview or nothing.
    func rawTIFF(_ s: Subject) -> Bool {
        guard s.asset.format == .tiff else { return false }
        guard let header = try? VipsCodec.header(path: s.canonical) else { return true }
        guard let w = s.asset.width, let h = s.asset.height else { return false }
        return header.width != w || header.height != h
    }

    /// The preview's stored aspect is within 1 % of the picture's.
    func aspectMatches(_ p: EmbeddedPreview, _ s: Subject) -> Bool {
        guard let w = s.asset.width, let h = s.asset.height, w > 0, h > 0, p.width > 0, p.height > 0 else { return false }
        let picture = Double(w) / Double(h)
        return abs(Double(p.width) / Double(p.height) - picture) <= 0.01 * picture
    }

    /// Records that the file could not be thumbnailed (the standard's `fail/` folder), so it is
    /// not retried until it changes. Only for the file's own problems, not for a full disk.
    func recordFailure(_ key: ThumbnailCache.Key, _ error: ThumbnailError) {
        guard let cache else { return }
        switch error {
        // Not tooManyPixels: the limit is the caller's and may be raised next time.
        case .cannotDecode, .unsupported, .noVideoFrame, .noPreview: break
        default: return
        }
        var o = VipsCodec.Options(
            width: 1, height: 1, maxPixels: 1, format: .png, quality: 80, text: ThumbnailCache.chunks(key))
        o.orientation = 1
        // A 1x1 transparent PNG of our own making carries the keys.
        guard let png = try? VipsCodec.thumbnail(bytes: Self.onePixelPNG, o) else { return }
        try? cache.store(png.bytes, at: cache.failurePath(key))
    }

    /// A 1x1 grey PNG [PNG 1.2], the body of failure entries.
    static let onePixelPNG: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3A, 0x7E, 0x9B, 0x55, 0x00, 0x00, 0x00, 0x0A, 0x49,
        0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x48, 0xAF, 0xA4, 0x71, 0x00, 0x00,
        0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    /// Width and height from a PNG's IHDR.
    func pngSize(_ png: [UInt8]) -> (width: Int, height: Int)? { PNGText.size(png) }
}
