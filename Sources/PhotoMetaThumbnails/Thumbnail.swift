/// A thumbnail: the encoded picture, its size, and where it came from.
public struct Thumbnail: Sendable, Equatable {
    /// Where the picture was taken from (`source` in JSON), fastest first.
    public enum Source: String, Sendable, Equatable, Codable, CaseIterable {
        /// A valid entry of the freedesktop thumbnail cache.
        case cache
        /// EXIF IFD1's JPEG thumbnail.
        case embeddedEXIF = "embedded.exif"
        /// A JPEG of the Multi-Picture Format index (Samsung, Sony, Nikon... previews).
        case embeddedMPF = "embedded.mpf"
        /// A HEIF `thmb` item.
        case embeddedHEIF = "embedded.heif"
        /// A raw file's JPEG preview.
        case embeddedRaw = "embedded.raw"
        /// The picture itself, decoded with shrink-on-load.
        case decoded
        /// A frame about 10 % into a video.
        case videoFrame = "video.frame"
    }

    /// The encoded bytes.
    public var bytes: [UInt8]
    /// Its size in pixels.
    public var width: Int
    /// Its height in pixels.
    public var height: Int
    /// How `bytes` are encoded.
    public var format: ThumbnailFormat
    /// Where the picture came from.
    public var source: Source
    /// True for the quick picture of `fast` delivery when it is smaller than asked.
    public var isDegraded: Bool
    /// The file it was written to (a cache entry, or the `--out` file), when it was.
    public var path: String?

    /// A thumbnail of `bytes`.
    public init(
        bytes: [UInt8], width: Int, height: Int, format: ThumbnailFormat, source: Source, isDegraded: Bool = false,
        path: String? = nil
    ) {
        self.bytes = bytes
        self.width = width
        self.height = height
        self.format = format
        self.source = source
        self.isDegraded = isDegraded
        self.path = path
    }
}

/// Why a file got no thumbnail. Each is one file's problem: a scan goes on.
public enum ThumbnailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be read (missing, permission, not a regular file...).
    case unreadable(String)
    case notARegularFile
    /// Not a picture or video the decoders accept (or one whose loader is blocked as untrusted).
    case unsupported(String)
    /// It declares more pixels than `maxPixels`.
    case tooManyPixels(String)
    /// The decoder failed (truncated, corrupt).
    case cannotDecode(String)
    /// No frame could be taken from the video (no video track, undecodable).
    case noVideoFrame(String)
    /// A raw (or undecodable TIFF) file without a usable embedded preview; raw sensor data is
    /// not decoded.
    case noPreview
    /// An earlier attempt failed and the file has not changed since (the cache's `fail/` entry).
    case failedBefore(String)
    /// The thumbnail could not be written (`--out` or the cache).
    case cannotWrite(String)

    /// The reason, as `photometa: FILE: reason` prints it.
    public var description: String {
        switch self {
        case .unreadable(let why): return why
        case .notARegularFile: return "not a regular file"
        case .unsupported(let why): return "cannot be thumbnailed: \(why)"
        case .tooManyPixels(let why): return why
        case .cannotDecode(let why): return "cannot decode: \(why)"
        case .noVideoFrame(let why): return "no video frame: \(why)"
        case .noPreview: return "no usable embedded preview, and the picture cannot be decoded (raw sensor data is not)"
        case .failedBefore(let entry): return "failed before and unchanged since (\(entry)); not retried"
        case .cannotWrite(let why): return "cannot write the thumbnail: \(why)"
        }
    }
}
