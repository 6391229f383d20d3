/// The EXIF values photometa uses, as the file holds them: strings stay raw (dates are parsed
/// later by the date stage, which can then say why a value was rejected). Pure values; produced
/// by `ExifDecoder` from libexif.
public struct ExifRecord: Sendable, Equatable {
    public var dateTimeOriginal: String?
    public var dateTimeDigitized: String?
    /// IFD0 DateTime (0x0132), the file's modification date.
    public var dateTime: String?
    public var offsetTime: String?
    public var offsetTimeOriginal: String?
    public var offsetTimeDigitized: String?
    public var subSecTime: String?
    public var subSecTimeOriginal: String?
    public var subSecTimeDigitized: String?
    public var make: String?
    public var model: String?
    public var software: String?
    public var lensModel: String?
    /// IFD0 Orientation [EXIF 2.32 4.6.4 A], 1...8.
    public var orientation: Int?
    /// PixelXDimension / PixelYDimension (EXIF IFD), else IFD0 ImageWidth / ImageLength.
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    public var userComment: String?
    public var imageDescription: String?
    public var gpsLatitude: Double?
    public var gpsLongitude: Double?
    /// GPSDateStamp "YYYY:MM:DD" as written.
    public var gpsDateStamp: String?
    /// GPSTimeStamp in seconds since midnight UTC.
    public var gpsTimeOfDay: Double?
    /// Bytes of the embedded (IFD1) thumbnail.
    public var thumbnailBytes: Int?
    /// For TIFF files: one past the last byte of IFD0's strips or tiles (StripOffsets +
    /// StripByteCounts, TileOffsets + TileByteCounts) [TIFF 6.0 8, 15]: beyond the file's end,
    /// the file is cut short.
    public var imageDataEnd: Int64?
    /// Apple maker note tag 0x0011: pairs a Live Photo still with its movie.
    public var contentIdentifier: String?
    public var diagnostics: [Diagnostic] = []

    public init() {}
}
