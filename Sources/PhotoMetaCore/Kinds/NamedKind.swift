/// The kind a file's name promises by its extension alone: a photo for an image's, a video for
/// a movie's. Only for files whose bytes cannot say (a placeholder still empty,
/// `PlaceholderFile`; a Qt save in progress, `TemporaryNames`): everywhere else the format is
/// decided by content.
package enum NamedKind {
    /// The kind the extension of `name` (a path or a name; any case) promises; nil for any other.
    package static func promised(by name: Substring) -> MediaKind? {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), !name.utf8[dot...].contains(UInt8(ascii: "/")),
            name.utf8.distance(from: dot, to: name.utf8.endIndex) <= 6
        else { return nil }
        let ext = name[name.utf8.index(after: dot)...].lowercased()
        if imageExtensions.contains(ext) { return .photo }
        if videoExtensions.contains(ext) { return .video }
        return nil
    }

    static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "heic", "heif", "hif", "avif", "png", "webp", "gif", "jxl", "tif", "tiff", "dng",
    ]
    static let videoExtensions: Set<String> = ["mp4", "mov", "m4v", "3gp", "webm", "mkv"]
}
