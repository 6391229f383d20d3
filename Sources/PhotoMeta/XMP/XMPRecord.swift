/// The XMP properties photometa uses, raw as written.
public struct XMPRecord: Sendable, Equatable {
    public var dateTimeOriginal: String?   // exif:DateTimeOriginal
    public var dateCreated: String?        // photoshop:DateCreated
    public var createDate: String?         // xmp:CreateDate
    public var userComment: String?        // exif:UserComment
    public var make: String?               // tiff:Make
    public var model: String?              // tiff:Model
    public var orientation: Int?           // tiff:Orientation

    public init() {}

    public var isEmpty: Bool { self == XMPRecord() }
}
