/// Everything photometa knows about one file: the result of `inspect`, and the input of the
/// suggestion rules. A value: no file handles, no references to C objects.
///
/// `Codable` in the shape of the JSON report (docs/json.md); `captured` is written in the zone
/// set in the encoder's `userInfo[.photoMetaZone]` (UTC when none is set).
public struct MediaAsset: Sendable, Equatable {
    /// A position in degrees (WGS 84), north and east positive.
    public struct GPS: Sendable, Equatable {
        /// Degrees north (negative: south).
        public var latitude: Double
        /// Degrees east (negative: west).
        public var longitude: Double

        /// A position in degrees.
        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// The path as given or found.
    public var path: String
    /// The container format, from the content.
    public var format: MediaFormat
    /// What the file is for a person (photo, screenshot, ...); docs/kinds.md.
    public var kind: MediaKind = .unknown
    /// GIF / WebP / APNG / image sequence animation; nil for formats that cannot animate (and a
    /// PNG without `acTL`).
    public var animated: Bool?
    /// GIF and animated WebP frames as counted, APNG frames as its `acTL` states them.
    public var frameCount: Int?
    /// The GIF or WebP frame scan stopped at a cap or a cut: `frameCount` is a lower bound.
    public var frameCountIsLowerBound = false
    /// When it was taken, and where that came from; nil when nothing says.
    public var captured: CaptureDate?
    /// Camera maker and model, software and lens, as the file states them (cleaned).
    public var make: String?
    /// Camera model.
    public var model: String?
    /// The software that wrote the file (camera firmware, editor).
    public var software: String?
    /// Lens model.
    public var lensModel: String?
    /// EXIF (or XMP tiff:) Orientation 1...8.
    public var orientation: Int?
    /// HEIF `irot` rotation in degrees anticlockwise.
    public var rotation: Int?
    /// Stored pixel size as the container states it (EXIF PixelX/YDimension as a fallback).
    public var width: Int?
    /// Stored pixel height (see `width`).
    public var height: Int?
    /// The size a player shows a video at, only where the container states one that differs
    /// from `width` x `height` (Matroska's display size: anamorphic video).
    public var displayWidth: Int?
    /// The display height (see `displayWidth`).
    public var displayHeight: Int?
    /// Movie duration in seconds.
    public var durationSeconds: Double?
    /// Where it was taken, from EXIF GPS, else a movie's ISO 6709 location (`©xyz`, Apple's key).
    public var gps: GPS?
    /// Size of the embedded EXIF thumbnail in bytes.
    public var thumbnailBytes: Int?
    /// Apple's Live Photo identifier (EXIF maker note or QuickTime key).
    public var contentIdentifier: String?
    /// Every reason to believe the still is a screenshot.
    public var screenshotEvidence: [ScreenshotEvidence] = []
    /// For a Live Photo still its movie; for the movie its still.
    public var livePhotoPair: String?
    /// Which rule paired it (set with `livePhotoPair`), or whose Motion Photo it is (set with
    /// `motionPhoto`).
    public var livePhotoEvidence: LivePhotoEvidence?
    /// When the Live Photo partner (`livePhotoPair`) was taken, as the pairing read it (not
    /// reported: the partner's own entry says it).
    public var livePhotoPairCaptured: CaptureDate?
    /// A Motion Photo's video inside this still's file (kind `livePhoto`, no partner).
    public var motionPhoto: MotionPhoto?
    /// File size in bytes.
    public var fileSize: Int64?
    /// The container is cut short (a partial download, or a file still being written).
    public var truncated = false
    /// Problems met inside the file; none of them stopped the inspection.
    public var diagnostics: [Diagnostic] = []
    /// Set only when the file could not be read at all.
    public var error: FileReadError?

    /// Kept so the kind can be recomputed when a Live Photo partner is found later.
    package var exifUserComment: String?
    package var xmpUserComment: String?
    /// A movie with sound tracks only (`ContainerFindings.audioOnly`).
    package var audioOnly = false

    /// An asset with nothing known yet but its path and format.
    public init(path: String, format: MediaFormat) {
        self.path = path
        self.format = format
    }

    /// An asset for a file that could not be read.
    package static func failed(_ path: String, _ error: FileReadError) -> MediaAsset {
        var a = MediaAsset(path: path, format: .unknown)
        a.error = error
        return a
    }

    /// The classifier's view of this asset.
    package var classifierInput: KindClassifier.Input {
        KindClassifier.Input(
            format: format, make: make, model: model, software: software, exifUserComment: exifUserComment,
            xmpUserComment: xmpUserComment, width: width, height: height, path: path, isMotionPhoto: motionPhoto != nil,
            isAudioOnly: audioOnly)
    }

    /// Runs classification (the file alone; pairing sets `livePhoto` later).
    package mutating func classify() {
        let (k, evidence) = KindClassifier.classify(classifierInput)
        kind = k
        screenshotEvidence = evidence
    }
}
