/// The video a Motion Photo carries inside the still's file (Google's appended or `mpvd`
/// video, Samsung's trailer): where it lies, and how long it plays when its `mvhd` could be
/// read. `MediaAsset.livePhotoEvidence` says whose form it is (`motionPhoto.google`,
/// `motionPhoto.samsung`).
public struct MotionPhoto: Sendable, Equatable, Codable {
    /// The video's first byte, from the start of the file.
    public var offset: Int64
    /// The video's length in bytes.
    public var length: Int64
    /// The video's `mvhd` duration in seconds; nil when it could not be read within the budget.
    public var durationSeconds: Double?

    /// A video of `length` bytes at `offset`.
    public init(offset: Int64, length: Int64, durationSeconds: Double? = nil) {
        self.offset = offset
        self.length = length
        self.durationSeconds = durationSeconds
    }

    enum CodingKeys: String, CodingKey {
        case offset, length
        case durationSeconds = "duration"
    }

    /// Writes `duration` as null when unknown, as the report does.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(offset, forKey: .offset)
        try c.encode(length, forKey: .length)
        try c.encode(durationSeconds, forKey: .durationSeconds)
    }
}
