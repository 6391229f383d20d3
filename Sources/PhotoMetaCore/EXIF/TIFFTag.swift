/// A TIFF tag number (EXIF's tags are TIFF tags [EXIF 2.32 4.6.1]), with a name for each tag
/// photometa reads or relocates: the one home of tag numbers in the core. (Not `ExifTag`:
/// libexif's C enum has that name.) A struct rather than an enum so a number photometa has no
/// name for stays representable (an entry is copied whatever its tag). Numbers are unique only within a directory's context (GPS tag 2
/// is not IFD0's tag 2); the constants say which directory they belong to.
package struct TIFFTag: Hashable, Sendable {
    package let number: Int

    package init(_ number: Int) { self.number = number }

    // MARK: IFD0 (and IFD1), TIFF attributes [EXIF 2.32 4.6.4; TIFF 6.0 8]

    /// [TIFF 6.0 p.36] NewSubfileType: bit 0 set for a reduced-resolution copy.
    package static let newSubfileType = TIFFTag(0x00FE)
    /// [EXIF 2.32 4.6.4 A] ImageWidth, ImageLength.
    package static let imageWidth = TIFFTag(0x0100)
    package static let imageLength = TIFFTag(0x0101)
    /// [EXIF 2.32 4.6.4 D] ImageDescription, Make, Model, Software.
    package static let imageDescription = TIFFTag(0x010E)
    package static let make = TIFFTag(0x010F)
    package static let model = TIFFTag(0x0110)
    /// [EXIF 2.32 4.6.4 B] StripOffsets, StripByteCounts.
    package static let stripOffsets = TIFFTag(0x0111)
    package static let stripByteCounts = TIFFTag(0x0117)
    /// [EXIF 2.32 4.6.4 A] Orientation, 1...8.
    package static let orientation = TIFFTag(0x0112)
    package static let software = TIFFTag(0x0131)
    /// [EXIF 2.32 4.6.4 D] DateTime: the file's modification date.
    package static let dateTime = TIFFTag(0x0132)
    /// [TIFF 6.0 15, Tiled Images] TileOffsets, TileByteCounts.
    package static let tileOffsets = TIFFTag(0x0144)
    package static let tileByteCounts = TIFFTag(0x0145)
    /// [TIFF Technical Note 1] SubIFDs: the offsets of child IFDs (DNG and NEF keep the
    /// full-resolution image there).
    package static let subIFDs = TIFFTag(0x014A)
    /// [EXIF 2.32 4.6.4 B] JPEGInterchangeFormat and its length: IFD1's JPEG thumbnail (in
    /// IFD0 of a raw, a preview).
    /// Panasonic RW2 IFD0: the sensor borders of the picture, SHORTs (exiftool's
    /// SensorTopBorder ... SensorRightBorder), and the whole JPEG preview (JpgFromRaw,
    /// UNDEFINED) [exiftool PanasonicRaw tags; RW2 has no published specification].
    package static let panasonicTopBorder = TIFFTag(0x0004)
    package static let panasonicLeftBorder = TIFFTag(0x0005)
    package static let panasonicBottomBorder = TIFFTag(0x0006)
    package static let panasonicRightBorder = TIFFTag(0x0007)
    package static let panasonicJpgFromRaw = TIFFTag(0x002E)
    package static let jpegInterchangeFormat = TIFFTag(0x0201)
    package static let jpegInterchangeFormatLength = TIFFTag(0x0202)
    /// [EXIF 2.32 4.6.3 A, B] The Exif and GPS IFD pointers.
    package static let exifIFDPointer = TIFFTag(0x8769)
    package static let gpsIFDPointer = TIFFTag(0x8825)

    // MARK: Exif IFD [EXIF 2.32 4.6.5]

    /// [EXIF 2.32 4.6.5 G] DateTimeOriginal, DateTimeDigitized; OffsetTime, OffsetTimeOriginal,
    /// OffsetTimeDigitized; SubSecTime, SubSecTimeOriginal, SubSecTimeDigitized.
    package static let dateTimeOriginal = TIFFTag(0x9003)
    package static let dateTimeDigitized = TIFFTag(0x9004)
    package static let offsetTime = TIFFTag(0x9010)
    package static let offsetTimeOriginal = TIFFTag(0x9011)
    package static let offsetTimeDigitized = TIFFTag(0x9012)
    package static let subSecTime = TIFFTag(0x9290)
    package static let subSecTimeOriginal = TIFFTag(0x9291)
    package static let subSecTimeDigitized = TIFFTag(0x9292)
    /// [EXIF 2.32 4.6.5 E] MakerNote, UserComment.
    package static let makerNote = TIFFTag(0x927C)
    package static let userComment = TIFFTag(0x9286)
    /// [EXIF 2.32 4.6.5 C] PixelXDimension, PixelYDimension.
    package static let pixelXDimension = TIFFTag(0xA002)
    package static let pixelYDimension = TIFFTag(0xA003)
    /// [EXIF 2.32 4.6.3 C] The Interoperability IFD pointer.
    package static let interoperabilityIFDPointer = TIFFTag(0xA005)
    /// [EXIF 2.32 4.6.5 I] LensModel.
    package static let lensModel = TIFFTag(0xA434)

    // MARK: GPS IFD [EXIF 2.32 4.6.6]

    package static let gpsLatitudeRef = TIFFTag(0x0001)
    package static let gpsLatitude = TIFFTag(0x0002)
    package static let gpsLongitudeRef = TIFFTag(0x0003)
    package static let gpsLongitude = TIFFTag(0x0004)
    /// GPSTimeStamp: UTC time of day as three RATIONALs.
    package static let gpsTimeStamp = TIFFTag(0x0007)
    /// GPSDateStamp: UTC date, "YYYY:MM:DD".
    package static let gpsDateStamp = TIFFTag(0x001D)

    // MARK: Other directories

    /// [CIPA DC-007 5.2.3.3] MPEntry, in the MP Index IFD of a JPEG's APP2 "MPF".
    package static let mpEntry = TIFFTag(0xB002)
    /// Apple's maker note: MediaGroupUUID, the Live Photo content identifier (exiftool's
    /// Apple table; no published specification).
    package static let appleMediaGroupUUID = TIFFTag(0x0011)
}
