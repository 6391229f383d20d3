/// The container format, decided from content, never from the file name.
public enum MediaFormat: String, Sendable, CaseIterable, Codable {
    case jpeg, png, gif, webp, tiff, heic, heif, avif, mov, mp4
    /// AVI (RIFF `AVI `), whatever the file is named.
    case avi
    /// Canon CR3 raw: an ISO BMFF file (`crx ` brand) whose EXIF sits in a Canon `uuid` box.
    case cr3
    /// Fujifilm RAF raw: a header, then a JPEG preview that holds the EXIF.
    case raf
    /// Minolta MRW raw: blocks, one of which (`TTW`) is a TIFF stream with the EXIF.
    case mrw
    /// Panasonic RW2 raw: TIFF layout under the magic "IIU\0"; its picture size is its sensor
    /// borders'.
    case rw2
    /// Olympus ORF raw: TIFF layout under the magic "IIRO", "IIRS" or "MMOR".
    case orf
    /// JPEG XL [ISO/IEC 18181]: the container (EXIF and XMP boxes, maybe Brotli-compressed) or a
    /// bare codestream.
    case jxl
    /// Matroska [RFC 9559]: EBML DocType `matroska` (`.mkv`, OBS recordings).
    case mkv
    /// WebM: Matroska with the DocType `webm` (GNOME's screen recorder, browsers).
    case webm
    /// An MPEG-2 transport stream: AVCHD's `.MTS`/`.M2TS` (camcorders, cameras), broadcast `.ts`.
    case m2ts
    /// An MPEG program stream: older cameras' and camcorders' `.MPG`, JVC's `.MOD`, a DVD's `.VOB`.
    case mpeg
    /// Flash Video [FLV 10.1 annex E]: older OBS recordings, downloaded clips.
    case flv
    /// Advanced Systems Format [ASF 01.20.03]: `.wmv`, `.asf` (Windows Movie Maker, older
    /// Windows phones and cameras).
    case asf
    case unknown

    /// Stills and videos have different kinds and date sources.
    public var isVideo: Bool {
        self == .mov || self == .mp4 || self == .avi || self == .mkv || self == .webm || self == .m2ts || self == .mpeg
            || self == .flv || self == .asf
    }
}
