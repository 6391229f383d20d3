/// An offer as photometa prints it: `suggestion` in `suggest --json`, and the `suggestion`
/// event of `watch --jsonl` (docs/suggest.md, docs/watch.md). One shape for both, written by
/// `write(to:report:)` and read back by `Codable` (tests hold the two to each other).
package struct OfferReport: Sendable, Equatable, Codable {
    /// The file, as reported.
    package var path: String
    package var kind: MediaKind
    package var captured: CaptureDate?
    /// Seconds since the capture, to the millisecond (negative: a clock slightly ahead).
    package var ageSeconds: Double?
    /// For a Live Photo its movie, and which rule paired them.
    package var livePhotoPair: String?
    package var livePhotoEvidence: LivePhotoEvidence?
    /// The offer's picture, when one was asked for (`--thumbnail`); nil when none was asked.
    package var thumbnail: ThumbnailOutcome?

    package init(_ c: SuggestionCandidate, ageSeconds: Double?, thumbnail: ThumbnailOutcome? = nil) {
        path = c.path
        kind = c.kind
        captured = c.captured
        self.ageSeconds = ageSeconds.map { ($0 * 1000).rounded() / 1000 }
        livePhotoPair = c.livePhotoPair
        livePhotoEvidence = c.livePhotoEvidence
        self.thumbnail = thumbnail
    }

    enum CodingKeys: String, CodingKey {
        case path, kind, captured, ageSeconds, livePhotoPair, livePhotoEvidence, thumbnail, thumbnailError
    }

    /// Writes the offer's fields into the object `w` has open.
    package func writeFields(to w: inout JSONWriter, report: AssetReport) {
        w.field("path", path)
        w.field("kind", kind.rawValue)
        w.key("captured")
        report.writeCaptured(captured, to: &w)
        w.field("ageSeconds", ageSeconds)
        w.field("livePhotoPair", livePhotoPair)
        w.field("livePhotoEvidence", livePhotoEvidence?.rawValue)
        if let thumbnail {
            w.key("thumbnail")
            if let made = thumbnail.made { made.write(to: &w) } else { w.null() }
            w.field("thumbnailError", thumbnail.error)
        }
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = try c.decode(String.self, forKey: .path)
        kind = try c.decode(MediaKind.self, forKey: .kind)
        captured = try c.decodeIfPresent(CaptureDate.self, forKey: .captured)
        ageSeconds = try c.decodeIfPresent(Double.self, forKey: .ageSeconds)
        livePhotoPair = try c.decodeIfPresent(String.self, forKey: .livePhotoPair)
        livePhotoEvidence = try c.decodeIfPresent(LivePhotoEvidence.self, forKey: .livePhotoEvidence)
        // The keys are there only when a picture was asked for.
        if c.contains(.thumbnail) || c.contains(.thumbnailError) {
            thumbnail = ThumbnailOutcome(
                made: try c.decodeIfPresent(ThumbnailReport.self, forKey: .thumbnail),
                error: try c.decodeIfPresent(String.self, forKey: .thumbnailError))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(path, forKey: .path)
        try c.encode(kind, forKey: .kind)
        try c.encode(captured, forKey: .captured)
        try c.encode(ageSeconds, forKey: .ageSeconds)
        try c.encode(livePhotoPair, forKey: .livePhotoPair)
        try c.encode(livePhotoEvidence, forKey: .livePhotoEvidence)
        if let thumbnail {
            try c.encode(thumbnail.made, forKey: .thumbnail)
            try c.encode(thumbnail.error, forKey: .thumbnailError)
        }
    }
}

/// What became of an offer's picture: made (from the cache or the helper), or why not.
package struct ThumbnailOutcome: Sendable, Equatable {
    package var made: ThumbnailReport?
    package var error: String?

    package init(made: ThumbnailReport?, error: String?) {
        self.made = made
        self.error = error
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
