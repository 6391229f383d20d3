/// The EXIF values photometa uses, as the file holds them: strings stay raw (dates are parsed
/// later by the date stage, which can then say why a value was rejected). Pure values; produced
/// by `ExifDecoder` from libexif.
package struct ExifRecord: Sendable, Equatable {
    package var dateTimeOriginal: String?
    package var dateTimeDigitized: String?
    /// IFD0 DateTime (0x0132), the file's modification date.
    package var dateTime: String?
    package var offsetTime: String?
    package var offsetTimeOriginal: String?
    package var offsetTimeDigitized: String?
    package var subSecTime: String?
    package var subSecTimeOriginal: String?
    package var subSecTimeDigitized: String?
    package var make: String?
    package var model: String?
    package var software: String?
    package var lensModel: String?
    /// IFD0 Orientation [EXIF 2.32 4.6.4 A], 1...8.
    package var orientation: Int?
    /// PixelXDimension / PixelYDimension (EXIF IFD), else IFD0 ImageWidth / ImageLength.
    package var pixelWidth: Int?
    package var pixelHeight: Int?
    package var userComment: String?
    package var imageDescription: String?
    package var gpsLatitude: Double?
    package var gpsLongitude: Double?
    /// GPSDateStamp "YYYY:MM:DD" as written.
    package var gpsDateStamp: String?
    /// GPSTimeStamp in seconds since midnight UTC.
    package var gpsTimeOfDay: Double?
    /// Bytes of the embedded (IFD1) thumbnail.
    package var thumbnailBytes: Int?
    /// For TIFF files: one past the last byte of IFD0's strips or tiles (StripOffsets +
    /// StripByteCounts, TileOffsets + TileByteCounts) [TIFF 6.0 8, 15]: beyond the file's end,
    /// the file is cut short.
    package var imageDataEnd: Int64?
    /// Apple maker note tag 0x0011: pairs a Live Photo still with its movie.
    package var contentIdentifier: String?
    package var diagnostics: [Diagnostic] = []

    package init() {}

    /// Fills the fields this record lacks from `other`, and keeps its diagnostics: for Canon
    /// CR3, whose IFD0, Exif IFD and GPS IFD come as separate TIFF streams, each decoded by
    /// libexif on its own.
    package mutating func fillGaps(from other: ExifRecord) {
        func fill<T>(_ k: WritableKeyPath<ExifRecord, T?>) {
            if self[keyPath: k] == nil { self[keyPath: k] = other[keyPath: k] }
        }
        fill(\.dateTimeOriginal)
        fill(\.dateTimeDigitized)
        fill(\.dateTime)
        fill(\.offsetTime)
        fill(\.offsetTimeOriginal)
        fill(\.offsetTimeDigitized)
        fill(\.subSecTime)
        fill(\.subSecTimeOriginal)
        fill(\.subSecTimeDigitized)
        fill(\.make)
        fill(\.model)
        fill(\.software)
        fill(\.lensModel)
        fill(\.orientation)
        if pixelWidth == nil, pixelHeight == nil {
            pixelWidth = other.pixelWidth
            pixelHeight = other.pixelHeight
        }
        fill(\.userComment)
        fill(\.imageDescription)
        if gpsLatitude == nil, gpsLongitude == nil {
            gpsLatitude = other.gpsLatitude
            gpsLongitude = other.gpsLongitude
        }
        fill(\.gpsDateStamp)
        fill(\.gpsTimeOfDay)
        fill(\.contentIdentifier)
        diagnostics += other.diagnostics
    }
}
