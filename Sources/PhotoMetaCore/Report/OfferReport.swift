import Foundation

/// An offer as photometa prints it: `suggestion` in `suggest --json` (new or standing), and the
/// `suggestion` event of `watch --jsonl` (docs/suggest.md, docs/watch.md). One shape for every
/// path, written by `write(to:report:)` and read back by `Codable` (tests hold the two to each
/// other): what a client shows (the file, its format, kind and size, when it was taken, its
/// Live Photo movie) and the one instant the rules decided with.
package struct OfferReport: Sendable, Equatable, Codable {
    /// The file, as reported.
    package var path: String
    package var format: MediaFormat
    package var kind: MediaKind
    /// The picture's stored size in pixels, as `inspect` reports it (nil: not known).
    package var width: Int?
    package var height: Int?
    package var captured: CaptureDate?
    /// The capture instant the rules used, ISO 8601 in UTC: `captured.utc`, or where the file
    /// gives no offset `captured.assumed.utc` (then `instantAssumed` is true).
    package var instant: String?
    package var instantAssumed: Bool?
    /// Seconds since the capture, to the millisecond (negative: a clock slightly ahead).
    package var ageSeconds: Double?
    /// For a Live Photo its movie, and which rule paired them.
    package var livePhotoPair: String?
    package var livePhotoEvidence: LivePhotoEvidence?
    /// True for the offer standing since an earlier run (`watch` at its start); nil for a new
    /// one (the key is then not written).
    package var standing: Bool?
    /// The offer's picture, when one was asked for (`--thumbnail`); nil when none was asked.
    package var thumbnail: ThumbnailOutcome?

    /// The offer of `c`; `size` is the picture's (from an inspection of the file), `zone` the
    /// one dates without an offset are read in (the rules' and the report's).
    package init(
        _ c: SuggestionCandidate, size: (width: Int?, height: Int?)? = nil, zone: TimeZone, ageSeconds: Double?,
        thumbnail: ThumbnailOutcome? = nil
    ) {
        path = c.path
        format = c.format
        kind = c.kind
        width = size?.width
        height = size?.height
        captured = c.captured
        if let r = c.captured?.rendered(in: zone) {
            instant = r.utc ?? r.assumed?.utc
            instantAssumed = r.utc == nil
        }
        self.ageSeconds = ageSeconds.map { ($0 * 1000).rounded() / 1000 }
        livePhotoPair = c.livePhotoPair
        livePhotoEvidence = c.livePhotoEvidence
        self.thumbnail = thumbnail
    }

    enum CodingKeys: String, CodingKey {
        case path, pathBytes, format, kind, width, height, captured, instant, instantAssumed, ageSeconds, livePhotoPair
        case livePhotoEvidence, standing, thumbnail, thumbnailError
    }

    /// Writes the offer's fields into the object `w` has open.
    package func writeFields(to w: inout JSONWriter, report: AssetReport) {
        w.field("path", path)
        // A name that is not UTF-8: its exact bytes beside the shown path, as `inspect` has them,
        // so a client can open the file offered.
        if PathBytes.hasRawBytes(path) { w.field("pathBytes", PathBytes.base64(path)) }
        w.field("format", format.rawValue)
        w.field("kind", kind.rawValue)
        w.field("width", width)
        w.field("height", height)
        w.key("captured")
        report.writeCaptured(captured, to: &w)
        w.field("instant", instant)
        w.field("instantAssumed", instantAssumed)
        w.field("ageSeconds", ageSeconds)
        w.field("livePhotoPair", livePhotoPair)
        w.field("livePhotoEvidence", livePhotoEvidence?.rawValue)
        if let standing { w.field("standing", standing) }
        if let thumbnail { thumbnail.writeFields(to: &w) }
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = try c.decodePath(forKey: .path, bytesKey: .pathBytes)
        format = try c.decode(MediaFormat.self, forKey: .format)
        kind = try c.decode(MediaKind.self, forKey: .kind)
        width = try c.decodeIfPresent(Int.self, forKey: .width)
        height = try c.decodeIfPresent(Int.self, forKey: .height)
        captured = try c.decodeIfPresent(CaptureDate.self, forKey: .captured)
        instant = try c.decodeIfPresent(String.self, forKey: .instant)
        instantAssumed = try c.decodeIfPresent(Bool.self, forKey: .instantAssumed)
        ageSeconds = try c.decodeIfPresent(Double.self, forKey: .ageSeconds)
        livePhotoPair = try c.decodeIfPresent(String.self, forKey: .livePhotoPair)
        livePhotoEvidence = try c.decodeIfPresent(LivePhotoEvidence.self, forKey: .livePhotoEvidence)
        standing = try c.decodeIfPresent(Bool.self, forKey: .standing)
        thumbnail = try ThumbnailOutcome(from: decoder)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodePath(path, forKey: .path, bytesKey: .pathBytes)
        try c.encode(format, forKey: .format)
        try c.encode(kind, forKey: .kind)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(captured, forKey: .captured)
        try c.encode(instant, forKey: .instant)
        try c.encode(instantAssumed, forKey: .instantAssumed)
        try c.encode(ageSeconds, forKey: .ageSeconds)
        try c.encode(livePhotoPair, forKey: .livePhotoPair)
        try c.encode(livePhotoEvidence, forKey: .livePhotoEvidence)
        try c.encodeIfPresent(standing, forKey: .standing)
        try thumbnail?.encode(to: encoder)
    }
}

/// What became of an offer's picture: made (from the cache or the helper), or why not. Written
/// as `thumbnail` (the object or null) and `thumbnailError` in an offer or a `thumbnail` event.
package struct ThumbnailOutcome: Sendable, Equatable {
    package var made: ThumbnailReport?
    package var error: String?

    package init(made: ThumbnailReport?, error: String?) {
        self.made = made
        self.error = error
    }

    enum CodingKeys: String, CodingKey { case thumbnail, thumbnailError }

    /// Writes `thumbnail` and `thumbnailError` into the object `w` has open.
    package func writeFields(to w: inout JSONWriter) {
        w.key("thumbnail")
        if let made { made.write(to: &w) } else { w.null() }
        w.field("thumbnailError", error)
    }

    /// Reads the two keys; nil when neither is there (no picture was asked for).
    package init?(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard c.contains(.thumbnail) || c.contains(.thumbnailError) else { return nil }
        made = try c.decodeIfPresent(ThumbnailReport.self, forKey: .thumbnail)
        error = try c.decodeIfPresent(String.self, forKey: .thumbnailError)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(made, forKey: .thumbnail)
        try c.encode(error, forKey: .thumbnailError)
    }
}

/// A thumbnail as reports print it (`thumbnail --json`, an offer's `thumbnail`).
package struct ThumbnailReport: Sendable, Equatable, Codable {
    /// The picture's file (nil: written to stdout, or not written).
    package var path: String?
    package var width: Int
    package var height: Int
    /// Where the picture came from (`cache`, `embedded`, `decoded`, `video`...).
    package var source: String
    /// `png`, `jpeg` or `webp`.
    package var format: String

    package init(path: String?, width: Int, height: Int, source: String, format: String) {
        self.path = path
        self.width = width
        self.height = height
        self.source = source
        self.format = format
    }

    enum CodingKeys: String, CodingKey { case path, pathBytes, width, height, source, format }

    /// Writes the object (`pathBytes` only for a name that is not UTF-8, docs/json.md).
    package func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("path", path)
        if let p = path, PathBytes.hasRawBytes(p) { w.field("pathBytes", PathBytes.base64(p)) }
        w.field("width", width)
        w.field("height", height)
        w.field("source", source)
        w.field("format", format)
        w.endObject()
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = try c.decodeIfPresent(String.self, forKey: .path)
        if let b64 = try c.decodeIfPresent(String.self, forKey: .pathBytes), let bytes = PathBytes.fromBase64(b64) {
            path = PathBytes.decode(bytes)
        }
        width = try c.decode(Int.self, forKey: .width)
        height = try c.decode(Int.self, forKey: .height)
        source = try c.decode(String.self, forKey: .source)
        format = try c.decode(String.self, forKey: .format)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(path.map(PathBytes.lossy), forKey: .path)
        if let p = path, PathBytes.hasRawBytes(p) { try c.encode(PathBytes.base64(p), forKey: .pathBytes) }
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(source, forKey: .source)
        try c.encode(format, forKey: .format)
    }
}
