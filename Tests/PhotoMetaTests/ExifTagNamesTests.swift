import CExif
import CExifTagNames
import XCTest

@testable import PhotoMetaCore

/// CExifTagNames answers libexif's tag-name lookups from memory (CExifTagNames.c): every
/// answer must be the pointer libexif itself returns, and libexif's own calls must reach it.
final class ExifTagNamesTests: XCTestCase {
    func testEveryTagAndIFDIsAnsweredAsLibexifAnswers() throws {
        XCTAssertNotNil(photometa_exif_tag_name_from_libexif(EXIF_TAG_MAKE, EXIF_IFD_0), "libexif's own lookup not found")
        var known = 0
        for tag in UInt32(0)...0xFFFF {
            let t = ExifTag(rawValue: tag)
            var anyIFD: UnsafePointer<CChar>?
            for ifd in 0..<EXIF_IFD_COUNT.rawValue {
                let i = ExifIfd(rawValue: ifd)
                let libexif = photometa_exif_tag_name_from_libexif(t, i)
                // Twice: the first answer is asked for, the second remembered.
                XCTAssertEqual(exif_tag_get_name_in_ifd(t, i), libexif, "tag \(tag) in IFD \(ifd)")
                XCTAssertEqual(exif_tag_get_name_in_ifd(t, i), libexif, "tag \(tag) in IFD \(ifd), remembered")
                if anyIFD == nil { anyIFD = libexif }
            }
            // exif_tag_get_name names a tag known in any IFD; which IFD's entry it returns is
            // libexif's choice, so only that it names one is compared.
            let name = exif_tag_get_name(t)
            XCTAssertEqual(name == nil, anyIFD == nil, "tag \(tag)")
            XCTAssertEqual(exif_tag_get_name(t), name, "tag \(tag), remembered")
            if name != nil { known += 1 }
        }
        XCTAssertGreaterThan(known, 150, "libexif knows every EXIF 2.3 tag")
        XCTAssertEqual(
            exif_tag_get_name_in_ifd(EXIF_TAG_DATE_TIME_ORIGINAL, EXIF_IFD_EXIF).map { String(cString: $0) }, "DateTimeOriginal")
    }

    func testLibexifsOwnLookupsReachTheRememberedNames() throws {
        let bytes = try TestPaths.bytes("IMG_20240315_093012.jpg")
        let p = FormatDetector.readContainer(BoundedReader(MemoryByteSource(bytes)), format: .jpeg)
        let tiff = try XCTUnwrap(p.exif)
        _ = ExifDecoder.decode(tiff: tiff)
        let before = photometa_exif_tag_names_remembered()
        let record = ExifDecoder.decode(tiff: tiff)
        XCTAssertEqual(record.make, "Google")
        // Nothing in photometa asks for a tag name: these are libexif's calls from
        // exif_data_load_data, answered by the definitions that interpose its own.
        XCTAssertGreaterThan(photometa_exif_tag_names_remembered(), before)
    }
}
