/// What the suggestion rules need to know about one file: a slice of `MediaAsset` plus the file
/// times, small enough to keep in the index. A suggestion is one of these.
public struct SuggestionCandidate: Sendable, Equatable, Codable {
    /// The path as reported (the folder as the caller wrote it, joined with the path below it).
    public var path: String
    /// The container format.
    public var format: MediaFormat
    /// The kind, after Live Photo pairing.
    public var kind: MediaKind
    /// When it was taken; nil when nothing says (such a file is never offered).
    public var captured: CaptureDate?
    /// The container is cut short.
    public var truncated: Bool
    /// The file could not be read.
    public var error: FileReadError?
    /// Modification time, seconds since 1970 (real clock).
    public var modified: Double
    /// File size in bytes.
    public var size: Int64
    /// For a Live Photo still its movie; for the movie its still.
    public var livePhotoPair: String?
    /// Which rule paired it (set with `livePhotoPair`).
    public var livePhotoEvidence: LivePhotoEvidence?
    /// A movie's duration in seconds (the Live Photo rule asks for a short clip).
    public var durationSeconds: Double?
    /// Apple's Live Photo content identifier, when the file carries one.
    public var contentIdentifier: String?
    /// A raw original whose developed picture of the same shot lies beside it
    /// (`RawDevelopedPair`): offered through that picture, never on its own. Not encoded: the
    /// folder's names say it, and the scan sets it (`FolderPairing`).
    public var hasDevelopedPicture = false
    /// When the Live Photo partner (`livePhotoPair`) was taken, as the pairing read it. Kept
    /// out of line: a candidate without a partner (nearly all of a library the live library
    /// holds) pays a pointer for it, not a date's 112 bytes. Not encoded: the pairing sets it.
    public var livePhotoPairCaptured: CaptureDate? {
        get { partnerCaptured.first }
        set { partnerCaptured = newValue.map { [$0] } ?? [] }
    }
    private var partnerCaptured: [CaptureDate] = []

    /// The encoded fields: every stored one but the partner's date.
    enum CodingKeys: String, CodingKey {
        case path, format, kind, captured, truncated, error, modified, size, livePhotoPair, livePhotoEvidence
        case durationSeconds, contentIdentifier
    }

    package init(
        path: String, format: MediaFormat, kind: MediaKind, captured: CaptureDate?, truncated: Bool = false,
        error: FileReadError? = nil, modified: Double, size: Int64, livePhotoPair: String? = nil
    ) {
        self.path = path
        self.format = format
        self.kind = kind
        self.captured = captured
        self.truncated = truncated
        self.error = error
        self.modified = modified
        self.size = size
        self.livePhotoPair = livePhotoPair
    }

    package init(_ asset: MediaAsset, modified: Double) {
        self.init(
            path: asset.path, format: asset.format, kind: asset.kind, captured: asset.captured,
            truncated: asset.truncated, error: asset.error, modified: modified, size: asset.fileSize ?? 0,
            livePhotoPair: asset.livePhotoPair)
        contentIdentifier = asset.contentIdentifier
        durationSeconds = asset.durationSeconds
        livePhotoEvidence = asset.livePhotoEvidence
        livePhotoPairCaptured = asset.livePhotoPairCaptured
        if asset.error == .empty, let promised = PlaceholderFile.kind(of: asset.path) {
            kind = promised
            captured = PlaceholderFile.date(modified: modified)
        }
    }

    /// A picture's or video's name on a file still empty (`PlaceholderFile`): dated by its
    /// modification time, of the kind its name promises. Kept in the index as those two.
    package var isPlaceholder: Bool { error == .empty && captured?.source == .fileModificationTime }

    /// The movie half of a Live Photo: offered through its still, never on its own.
    public var isLivePhotoMovie: Bool { kind == .video && livePhotoPair != nil }
}
