/// The encodings a thumbnail can have.
public enum ThumbnailFormat: String, Sendable, Equatable, CaseIterable, Codable {
    /// Keeps alpha; the freedesktop cache's format.
    case png
    /// Alpha flattened on white.
    case jpeg
    /// Keeps alpha.
    case webp

    /// The file name extension.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}

/// What to make: a box, how the picture meets it, the encoding, and how patient to be.
public struct ThumbnailRequest: Sendable, Equatable {
    /// How the picture meets the box (never enlarged beyond its own size).
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// The whole picture inside the box, aspect kept.
        case fit
        /// The picture covers the box, aspect kept, nothing cut (the shorter side equals it).
        case fill
        /// Exactly the box, cut from the centre of the filled picture.
        case crop
    }

    /// Which picture to hand back when a good one takes longer.
    public enum Delivery: String, Sendable, Equatable {
        /// The quick one: an embedded preview whose aspect matches, even smaller than the box.
        case fast
        /// Only the picture at the requested size (the default).
        case exact
        /// Both, quick first (`Thumbnailer.thumbnails(of:_:)` yields up to two).
        case opportunistic
    }

    /// The box's width, in pixels.
    public var width: Int
    /// The box's height, in pixels.
    public var height: Int
    /// How the picture meets the box.
    public var mode: Mode
    /// The encoding.
    public var format: ThumbnailFormat
    /// JPEG and WebP quality, 1...100.
    public var quality: Int
    /// Quick, exact, or both.
    public var delivery: Delivery
    /// Files declaring more pixels than this are refused before anything is decoded.
    public var maxPixels: Int

    /// The default: 256x256, fit, PNG, exact, quality 80, 100 megapixels at most.
    public init(
        width: Int = 256, height: Int = 256, mode: Mode = .fit, format: ThumbnailFormat = .png, quality: Int = 80,
        delivery: Delivery = .exact, maxPixels: Int = 100_000_000
    ) {
        self.width = width
        self.height = height
        self.mode = mode
        self.format = format
        self.quality = quality
        self.delivery = delivery
        self.maxPixels = maxPixels
    }

    /// The largest box side accepted (the shim's limit).
    public static let maximumSide = 16_384

    /// The size the thumbnail of a picture shown at `width` x `height` gets: fit scales it into
    /// the box, fill until it covers the box, crop is the box itself; never enlarged.
    public func outputSize(forPicture width: Int, _ height: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0 else { return (self.width, self.height) }
        let w = Double(width)
        let h = Double(height)
        let fitScale = min(Double(self.width) / w, Double(self.height) / h, 1)
        let fillScale = min(max(Double(self.width) / w, Double(self.height) / h), 1)
        switch mode {
        case .fit: return (max(1, Int((w * fitScale).rounded())), max(1, Int((h * fitScale).rounded())))
        case .fill: return (max(1, Int((w * fillScale).rounded())), max(1, Int((h * fillScale).rounded())))
        case .crop: return (min(self.width, width), min(self.height, height))
        }
    }

    /// The smallest picture, as shown, that can give `outputSize` without enlarging: the fill
    /// size for crop (the box is cut from it), the output itself otherwise.
    package func neededSize(forPicture width: Int, _ height: Int) -> (width: Int, height: Int) {
        guard mode == .crop else { return outputSize(forPicture: width, height) }
        var fill = self
        fill.mode = .fill
        return fill.outputSize(forPicture: width, height)
    }
}
