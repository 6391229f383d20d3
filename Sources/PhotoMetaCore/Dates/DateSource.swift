/// Where a capture date came from, in precedence order (see `CaptureDateResolver` and
/// docs/dates.md). The raw value is the `source` string of the JSON report.
public enum DateSource: String, Sendable, CaseIterable, Codable {
    case exifDateTimeOriginal = "exif.DateTimeOriginal"
    case exifDateTimeDigitized = "exif.DateTimeDigitized"
    case quickTimeCreationDate = "quicktime.CreationDate"
    case quickTimeMovieHeader = "quicktime.mvhd"
    /// AVI `IDIT`, else `INFO/ICRD`.
    case riffDateTimeOriginal = "riff.DateTimeOriginal"
    /// Matroska / WebM `Info/DateUTC`: an instant [RFC 9559 5.1.2, DateUTC].
    case matroskaDateUTC = "matroska.DateUTC"
    /// ASF's File Properties `Creation Date`: an instant [ASF 3.2].
    case asfCreationDate = "asf.CreationDate"
    /// FLV `onMetaData`'s `creationdate`: a recorder's asctime text, or an AMF date (an instant).
    case flvCreationDate = "flv.CreationDate"
    /// AVCHD: the recording time in the H.264 stream's MDPM user data (a transport stream's
    /// only date; `TransportStreamReader`).
    case h264DateTimeOriginal = "h264.DateTimeOriginal"
    case xmpDateTimeOriginal = "xmp.DateTimeOriginal"
    case xmpDateCreated = "xmp.DateCreated"
    case xmpCreateDate = "xmp.CreateDate"
    /// IPTC IIM DateCreated (2:55), with TimeCreated (2:60) when there is one, from a JPEG's
    /// Photoshop APP13 segment.
    case iptcDateCreated = "iptc.DateCreated"
    case pngCreationTime = "png.CreationTime"
    /// EXIF GPSDateStamp and GPSTimeStamp: the UTC time of the position fix, an instant
    /// [EXIF 2.32 4.6.6].
    case exifGPSDateTime = "exif.GPSDateTime"
    /// XMP `exif:GPSTimeStamp`: the same, as one ISO 8601 date-time, UTC when it names no zone.
    case xmpGPSTimeStamp = "xmp.GPSTimeStamp"
    case exifDateTime = "exif.DateTime"
    /// An XMP sidecar beside the file (`NAME.EXT.xmp`, `NAME.xmp`): its DateTimeOriginal,
    /// DateCreated or CreateDate.
    case sidecarXMP = "sidecar.xmp"
    /// A Google Takeout JSON beside the file: `photoTakenTime` (an instant).
    case sidecarTakeout = "sidecar.takeout"
    case fileName = "filename"
    case fileBirthTime = "file.birthtime"
    case fileModificationTime = "file.mtime"

    /// The file's own times, not anything it says: the last resort of the precedence table.
    public var isFileTime: Bool { self == .fileBirthTime || self == .fileModificationTime }
}

/// Where the UTC offset of a wall-clock date came from; the raw value is the JSON
/// `offsetSource`. `zone` means the date is an instant shown in the caller's zone.
public enum OffsetSource: String, Sendable, CaseIterable, Codable {
    case offsetTimeOriginal = "exif.OffsetTimeOriginal"
    case offsetTimeDigitized = "exif.OffsetTimeDigitized"
    case offsetTime = "exif.OffsetTime"
    case gps = "gps"
    /// A file time agreed with the wall clock to the second once shifted by this offset.
    case fileTime = "file.time"
    case embedded = "embedded"
    case zone = "zone"
}
