/// Everything photometa knows about one file: the result of `inspect`, and the input of the
/// suggestion rules. A value: no file handles, no references to C objects.
public struct MediaAsset: Sendable, Equatable {
    public struct GPS: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
    }

    /// The path as given or found.
    public var path: String
    public var format: MediaFormat
    public var kind: MediaKind = .unknown
    /// GIF / WebP animation; nil for formats that cannot animate.
    public var animated: Bool?
    public var frameCount: Int?
    /// The GIF frame scan stopped at a cap: `frameCount` is a lower bound.
    public var frameCountIsLowerBound = false
    public var captured: CaptureDate?
    public var make: String?
    public var model: String?
    public var software: String?
    public var lensModel: String?
    /// EXIF (or XMP tiff:) Orientation 1...8.
    public var orientation: Int?
    /// HEIF `irot` rotation in degrees anticlockwise.
    public var rotation: Int?
    /// Stored pixel size as the container states it (EXIF PixelX/YDimension as a fallback).
    public var width: Int?
    public var height: Int?
    public var durationSeconds: Double?
    public var gps: GPS?
    public var thumbnailBytes: Int?
    /// Apple's Live Photo identifier (EXIF maker note or QuickTime key).
    public var contentIdentifier: String?
    public var screenshotEvidence: [ScreenshotEvidence] = []
    public var livePhotoPair: String?
    /// File size in bytes.
    public var fileSize: Int64?
    /// The container is cut short (a partial download, or a file still being written).
    public var truncated = false
    public var diagnostics: [Diagnostic] = []
    /// Set only when the file could not be read at all.
    public var error: String?

    /// Kept so the kind can be recomputed when a Live Photo partner is found later.
    var exifUserComment: String?
    var xmpUserComment: String?

    public init(path: String, format: MediaFormat) {
        self.path = path
        self.format = format
    }

    /// The classifier's view of this asset.
    public var classifierInput: KindClassifier.Input {
        KindClassifier.Input(format: format, make: make, model: model, exifUserComment: exifUserComment,
                             xmpUserComment: xmpUserComment, width: width, height: height, path: path,
                             livePhotoPartner: livePhotoPair)
    }

    /// Re-runs classification, e.g. after `livePhotoPair` was set.
    public mutating func classify() {
        let (k, evidence) = KindClassifier.classify(classifierInput)
        kind = k
        screenshotEvidence = evidence
    }
}
