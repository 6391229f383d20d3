extension MediaAsset {
    /// A file that was read and is neither an image nor a video (`notes.txt` beside the photos,
    /// an empty file): `inspect -r` leaves it out of a folder's rows and `watch` never reports it
    /// (nor its removal). A file that could not be opened is not this: its error is news. The one
    /// home of the rule; a file named on the command line is reported whatever it is. Sidecars
    /// (`NAME.EXT.xmp`, Takeout's `.json`, `SidecarNames.isSidecar`) fall under it: no format
    /// is detected in XML or JSON, so they are read into their pictures, never listed as media.
    package var isNotMedia: Bool { error != nil && format == .unknown && fileSize != nil }
}
