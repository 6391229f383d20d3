/// A file with a picture's or video's name that is still empty: the name made before the bytes.
/// A camera app or a sync client creates the file and then writes it; Firefox leaves
/// `photo.jpg` empty while `photo.jpg.part` fills, and renames the part over it. It is no
/// picture yet, but it is the newest one in the making, so `suggest` must not offer the photo
/// before it: its candidate is dated by its modification time (the moment it was made) and
/// given the kind its name promises, `media` lets it through while it may still change, and
/// `completeness` turns it down as being written, which makes the answer pending on it
/// (`CompletenessRule`). Once it has stayed empty for `stalledAfter` it is an empty file,
/// turned down by `media` as before, and holds nothing back. `recent` never lists it.
package enum PlaceholderFile {
    /// The kind a placeholder named `path` is made to become: a photo for an image's extension,
    /// a video for a movie's; nil for any other name (an empty `notes.txt` is no photo in the
    /// making). A screenshot tool names its file before it writes it: a picture whose name or
    /// folder is a screenshot's (`KindClassifier.screenshotEvidence`) is a screenshot in the
    /// making, so `--screenshots only` waits for it too.
    package static func kind(of path: String) -> MediaKind? {
        guard let promised = NamedKind.promised(by: path[...]) else { return nil }
        guard promised == .photo else { return promised }
        let evidence = KindClassifier.screenshotEvidence(KindClassifier.Input(format: .unknown, path: path))
        return evidence.isEmpty ? .photo : .screenshot
    }

    /// The date of a placeholder modified at `modified` (seconds since 1970): that instant.
    package static func date(modified: Double) -> CaptureDate? {
        guard modified.isFinite, abs(modified) < 1e11 else { return nil }
        let whole = modified.rounded(.down)
        guard let t = LocalDateTime(secondsAsIfUTC: Int64(whole), nanosecond: Int((modified - whole) * 1e9), fractionDigits: 3)
        else { return nil }
        return CaptureDate(.instant(utc: t), source: .fileModificationTime)
    }
}
