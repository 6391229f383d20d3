/// The XMP properties photometa uses, raw as written.
package struct XMPRecord: Sendable, Equatable {
    package var dateTimeOriginal: String?  // exif:DateTimeOriginal
    package var dateCreated: String?  // photoshop:DateCreated
    package var createDate: String?  // xmp:CreateDate
    package var gpsTimeStamp: String?  // exif:GPSTimeStamp (date and time, UTC)
    package var userComment: String?  // exif:UserComment
    package var make: String?  // tiff:Make
    package var model: String?  // tiff:Model
    package var orientation: Int?  // tiff:Orientation
    package var gpsLatitude: String?  // exif:GPSLatitude
    package var gpsLongitude: String?  // exif:GPSLongitude

    package init() {}

    package var isEmpty: Bool { self == XMPRecord() }
}
