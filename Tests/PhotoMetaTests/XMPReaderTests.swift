import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

final class XMPReaderTests: XCTestCase {
    func read(_ s: String) -> XMPRecord { XMPReader.read([Array(s.utf8)]) }

    func testAttributeForm() {
        let r = read(
            #"<rdf:Description xmp:CreateDate="2020-05-06T07:08:09.5-07:00" photoshop:DateCreated='2020-05-06' tiff:Orientation="6"/>"#
        )
        XCTAssertEqual(r.createDate, "2020-05-06T07:08:09.5-07:00")
        XCTAssertEqual(r.dateCreated, "2020-05-06")
        XCTAssertEqual(r.orientation, 6)
    }

    func testElementFormAndLanguageAlternative() {
        let r = read(
            """
            <rdf:Description><exif:DateTimeOriginal>2004-06-21T23:37:53+01:00</exif:DateTimeOriginal>
            <exif:UserComment><rdf:Alt><rdf:li xml:lang="x-default">Screenshot</rdf:li></rdf:Alt></exif:UserComment>
            <tiff:Make>Canon &amp; Co</tiff:Make></rdf:Description>
            """)
        XCTAssertEqual(r.dateTimeOriginal, "2004-06-21T23:37:53+01:00")
        XCTAssertEqual(r.userComment, "Screenshot")
        XCTAssertEqual(r.make, "Canon & Co")
    }

    func testPropertiesAreFoundByNamespaceNotPrefix() {
        // Old Adobe software binds the basic schema to xap:, others use their own prefixes.
        let r = read(
            """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:xap="http://ns.adobe.com/xap/1.0/" xmlns:e='http://ns.adobe.com/exif/1.0/'
              xmlns:ns1 = "http://ns.adobe.com/tiff/1.0/" xap:CreateDate="2003-02-01T10:11:12+01:00" ns1:Model="X100">
            <e:DateTimeOriginal>2003-02-01T10:11:12</e:DateTimeOriginal></rdf:Description></rdf:RDF>
            """)
        XCTAssertEqual(r.createDate, "2003-02-01T10:11:12+01:00")
        XCTAssertEqual(r.dateTimeOriginal, "2003-02-01T10:11:12")
        XCTAssertEqual(r.model, "X100")
    }

    func testAPrefixBoundToAnotherNamespaceIsNotRead() {
        // xap: bound to something else is not the XMP basic schema.
        let r = read(#"<rdf:Description xmlns:xap="http://example.com/other/" xap:CreateDate="2003-02-01"/>"#)
        XCTAssertNil(r.createDate)
        // A URI that only starts like a known one is another namespace.
        XCTAssertNil(read(#"<d xmlns:q="http://ns.adobe.com/xap/1.0/mm/" q:CreateDate="2003-02-01"/>"#).createDate)
    }

    func testPrefixOfALongerNameDoesNotMatch() {
        XCTAssertNil(read(#"<x myxmp:CreateDate="2020-01-01"/>"#).createDate)
        XCTAssertNil(read(#"<x xmp:CreateDateX="2020-01-01"/>"#).createDate)
    }

    func testBrokenPacketsGiveNothing() {
        XCTAssertTrue(read("<exif:DateTimeOriginal>2004").isEmpty)
        XCTAssertTrue(read(#"xmp:CreateDate="unterminated"#).isEmpty)
        XCTAssertTrue(XMPReader.read([[0xFF, 0xFE, 0x00, 0x3C]]).isEmpty)
    }

    func testPacketEnd() {
        let bytes = Array("<?xpacket begin?><x/><?xpacket end='w'?>\u{01}\u{FF}".utf8)
        XCTAssertEqual(XMPReader.packetEnd(in: bytes), 40, "just after ?>")
    }
}
