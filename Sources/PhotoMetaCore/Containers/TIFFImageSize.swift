/// The size of the picture a TIFF-based raw holds, which is not always IFD0's: NEF and DNG keep a
/// small preview in IFD0 and the full-resolution image in a SubIFD [TIFF 6.0 p.36
/// NewSubfileType; TIFF Technical Note 1 (SubIFDs, tag 0x014A); DNG 1.6 "IFD structure"]. libexif
/// does not follow SubIFDs, so this step walks the directories' structure (counts, tags, types
/// and the in-entry SHORT/LONG of three tags) the way `HEIFReader` reads `ispe`; every other
/// value stays libexif's to decode.
package enum TIFFImageSize {
    /// At most this many SubIFDs are looked at (DNG writes 1 to 3, NEF 2).
    static let subIFDsMax = 16

    /// One directory's image: NewSubfileType (0 when absent), width and height.
    struct Image {
        var subfileType: Int
        var width: Int
        var height: Int
        var subIFDs: [Int]
        /// JPEGInterchangeFormat / JPEGInterchangeFormatLength (0x0201/0x0202): a JPEG
        /// thumbnail or preview stored whole [TIFF 6.0 p.105; EXIF 2.32 4.6.5].
        var jpegOffset = 0
        var jpegLength = 0
        /// The next IFD's offset (IFD1 after IFD0), 0 for none.
        var next = 0
    }

    /// The full-resolution image's size when IFD0 points at SubIFDs: the largest image whose
    /// NewSubfileType says it is not a reduced-resolution copy (bit 0 clear), among IFD0 and its
    /// SubIFDs. Nil when there are no SubIFDs (IFD0's own size, which libexif reads, stands) or
    /// none qualifies.
    package static func fullResolution(_ reader: BoundedReader, littleEndian: Bool, ifd0: Int) -> (width: Int, height: Int)? {
        guard let root = image(reader, littleEndian, at: ifd0), !root.subIFDs.isEmpty else { return nil }
        var images = [root]
        for at in root.subIFDs.prefix(subIFDsMax) {
            if let i = image(reader, littleEndian, at: at) { images.append(i) }
        }
        let full = images.filter { $0.subfileType & 1 == 0 && $0.width > 0 && $0.height > 0 }
        guard
            let best = full.max(by: {
                $0.width.multipliedReportingOverflow(by: $0.height).partialValue
                    < $1.width.multipliedReportingOverflow(by: $1.height).partialValue
            })
        else {
            return nil
        }
        return (best.width, best.height)
    }

    /// The picture's size as the container states it: RW2's sensor crop, ORF's IFD0 image (the
    /// raw's full size, as exiftool reports it, where the Exif IFD's PixelXDimension is the
    /// camera's developed JPEG), the full-resolution image among IFD0's SubIFDs, else IFD0's
    /// own image (`ownImage`). Nil leaves the size to EXIF.
    package static func pictureSize(
        _ reader: BoundedReader, format: MediaFormat, littleEndian: Bool, ifd0: Int
    ) -> (width: Int, height: Int)? {
        switch format {
        case .rw2:
            return panasonicCrop(reader, littleEndian: littleEndian, ifd0: ifd0)
        case .orf:
            guard let root = image(reader, littleEndian, at: ifd0), root.width > 0, root.height > 0 else { return nil }
            return (root.width, root.height)
        default:
            return fullResolution(reader, littleEndian: littleEndian, ifd0: ifd0)
                ?? ownImage(reader, littleEndian: littleEndian, ifd0: ifd0)
        }
    }

    /// A TIFF without SubIFDs is IFD0's image [TIFF 6.0 p.18, ImageWidth], not the Exif IFD's
    /// PixelXDimension, which describes compressed data and "should not exist in an
    /// uncompressed file" [EXIF 2.32 4.6.5]: an editor that resizes a photo and saves a TIFF
    /// may keep the original's (Photoshop: a 200x130 TIFF that says 2100x1368). exiftool's
    /// Composite:ImageSize is IFD0's too, except for Canon CR2 and Phase One IIQ, whose IFD0
    /// holds a preview (CR2: a smaller JPEG; IIQ: a 1x1 placeholder) and whose Exif IFD states
    /// the picture; those two say so in the header, after the TIFF one (offset 8: "CR" [CR2
    /// header], "IIII" [IIQ]). Nil for them, for an IFD0 that says it is a reduced-resolution
    /// copy [TIFF 6.0 p.36, NewSubfileType bit 0], and for an IFD0 without a size.
    static func ownImage(_ reader: BoundedReader, littleEndian: Bool, ifd0: Int) -> (width: Int, height: Int)? {
        if let marker = try? reader.read(at: 8, count: 4), marker.count == 4 {
            if marker[0] == 0x43, marker[1] == 0x52 { return nil }  // "CR"
            if marker == [0x49, 0x49, 0x49, 0x49] { return nil }  // "IIII"
        }
        guard let root = image(reader, littleEndian, at: ifd0), root.subfileType & 1 == 0, root.width > 0, root.height > 0
        else { return nil }
        return (root.width, root.height)
    }

    /// Panasonic RW2: the picture is the sensor area inside the borders IFD0 states (right minus
    /// left by bottom minus top), as exiftool's Composite:ImageWidth/ImageHeight and raw
    /// converters crop it. Nil when the borders are missing or do not make a picture.
    package static func panasonicCrop(_ reader: BoundedReader, littleEndian: Bool, ifd0: Int) -> (width: Int, height: Int)? {
        let tiff = TIFFStructure(littleEndian: littleEndian)
        guard let d = tiff.directory(reader, at: ifd0) else { return nil }
        var border: [TIFFTag: Int] = [:]
        for e in d.entries {
            if [.panasonicTopBorder, .panasonicLeftBorder, .panasonicBottomBorder, .panasonicRightBorder].contains(e.tag) {
                border[e.tag] = tiff.inline(e)
            }
        }
        guard let top = border[.panasonicTopBorder], let left = border[.panasonicLeftBorder],
            let bottom = border[.panasonicBottomBorder], let right = border[.panasonicRightBorder], right > left, bottom > top
        else { return nil }
        return (right - left, bottom - top)
    }

    /// One IFD's image [TIFF 6.0 p.14: count, 12-byte entries, next offset].
    static func image(_ reader: BoundedReader, _ little: Bool, at offset: Int) -> Image? {
        let tiff = TIFFStructure(littleEndian: little)
        guard let d = tiff.directory(reader, at: offset) else { return nil }
        var result = Image(subfileType: 0, width: 0, height: 0, subIFDs: [])
        result.next = d.next
        for e in d.entries {
            let inline = tiff.inline(e)
            switch e.tag {
            case .newSubfileType: result.subfileType = inline ?? 0
            case .imageWidth: result.width = inline ?? 0
            case .imageLength: result.height = inline ?? 0
            case .jpegInterchangeFormat: result.jpegOffset = inline ?? 0
            case .jpegInterchangeFormatLength: result.jpegLength = inline ?? 0
            case .panasonicJpgFromRaw where e.type == 7 && e.count > 4 && result.jpegLength == 0:
                // RW2 keeps its preview as one UNDEFINED value: the field is its offset.
                result.jpegOffset = tiff.offset(e)
                result.jpegLength = e.count
            case .subIFDs where e.type == 4 || e.type == 13:
                if e.count == 1 {
                    result.subIFDs = [tiff.offset(e)]
                } else if e.count > 1 {
                    // More than one offset: the field points at an array of LONGs.
                    let k = min(e.count, subIFDsMax)
                    if let list = try? reader.read(at: Int64(tiff.offset(e)), count: 4 * k) {
                        result.subIFDs = (0..<k).map { tiff.u32(list, 4 * $0) }
                    }
                }
            default: break
            }
        }
        return result
    }
}
