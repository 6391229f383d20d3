/// What a file is, from the user's point of view. docs/kinds.md gives the rules.
public enum MediaKind: String, Sendable, CaseIterable, Codable {
    case video, livePhoto, gif, screenshot, photo, unknown

    /// Photos, screenshots, Live Photo stills and GIFs.
    public var isStill: Bool { self == .photo || self == .screenshot || self == .livePhoto || self == .gif }
}

/// One reason to believe a still is a screenshot; the report lists every one that fired.
public enum ScreenshotEvidence: Sendable, Equatable, CustomStringConvertible {
    /// EXIF or XMP UserComment is "Screenshot" (iOS writes this).
    case userComment(source: String)
    /// The software the file names (PNG `Software` text, EXIF Software) is a screenshot tool
    /// (`ScreenshotSoftware`); the value as written.
    case software(String)
    /// The file name follows a screenshot tool's scheme.
    case fileName(pattern: String)
    /// The file sits in a folder named `Screenshots` (any depth).
    case folder
    /// A PNG without camera make and model, at a known phone or desktop screen size.
    case screenSize(width: Int, height: Int)

    /// The evidence as the report writes it: `exif.UserComment=Screenshot`, `filename:PATTERN`, `folder:Screenshots`, `screenSize:WxH`.
    public var description: String {
        switch self {
        case .userComment(let s): return "\(s)=Screenshot"
        case .software(let name): return "software:\(name)"
        case .fileName(let p): return "filename:\(p)"
        case .folder: return "folder:Screenshots"
        case .screenSize(let w, let h): return "screenSize:\(w)x\(h)"
        }
    }
}
