import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// Each container reader on its fixture, and on hand-made edge cases.
final class ContainerReaderTests: XCTestCase {
    func payloads(_ name: String) throws -> ContainerFindings {
        let bytes = try TestPaths.bytes(name)
        let format = FormatDetector.detect(Array(bytes.prefix(FormatDetector.headerLength)))
        return FormatDetector.readContainer(BoundedReader(MemoryByteSource(bytes)), format: format)
    }

    func testFormatDetectionIgnoresTheExtension() throws {
        let cases: [(String, MediaFormat)] = [
            ("IMG_20240315_093012.jpg", .jpeg), ("png_as.jpg", .png), ("anim.gif", .gif), ("photo.webp", .webp),
            ("scan.tif", .tiff), ("IMG_0001.HEIC", .heic), ("sample.avif", .avif), ("IMG_0001.MOV", .mov),
            ("clip.mp4", .mp4), ("notes.txt", .unknown),
        ]
        for (name, format) in cases {
            XCTAssertEqual(FormatDetector.detect(Array(try TestPaths.bytes(name).prefix(64))), format, name)
        }
        XCTAssertEqual(FormatDetector.detect([]), .unknown)
        XCTAssertEqual(FormatDetector.detect(Array("RIFF\0\0\0\0WAVE".utf8)), .unknown)
    }

    /// Unknown brands in a well-formed `ftyp` still make the file ISO BMFF; a box too short to
    /// hold a major brand and a minor version does not.
    func testAnFtypWithUnknownBrandsIsAGenericMovie() {
        func ftyp(size: UInt32, _ brands: String) -> [UInt8] {
            withUnsafeBytes(of: size.bigEndian, Array.init) + Array("ftyp".utf8) + Array(brands.utf8)
        }
        XCTAssertEqual(FormatDetector.detect(ftyp(size: 20, "niko\0\0\0\0niko")), .mp4)
        XCTAssertEqual(FormatDetector.detect(ftyp(size: 16, "ABCD\0\0\0\0")), .mp4)
        XCTAssertEqual(FormatDetector.detect(ftyp(size: 20, "heic\0\0\0\0mif1")), .heic, "known brands decide first")
        XCTAssertEqual(FormatDetector.detect(ftyp(size: 13, "sdv \0")), .unknown, "shorter than an ftyp can be")
        XCTAssertEqual(FormatDetector.detect(ftyp(size: 1, "e-I \0\0\0\0")), .unknown)
    }

    func testJPEGSegments() throws {
        let p = try payloads("IMG_20240315_093012.jpg")
        XCTAssertNotNil(p.exif)
        XCTAssertEqual(p.exif?.prefix(2), [0x49, 0x49])
        XCTAssertEqual(p.xmp.count, 1)
        XCTAssertEqual(p.width, 16)
        XCTAssertEqual(p.height, 8)
        XCTAssertFalse(p.truncated)
        XCTAssertEqual(p.diagnostics, [])
    }

    /// Some Kodak cameras write "Exif\0" and another byte where a second NUL belongs; the TIFF
    /// header after it says it is EXIF, and it is read (with a note), as exiftool reads it.
    func testAnAPP1ExifIdentifierWithoutItsSecondNUL() throws {
        var bytes = try TestPaths.bytes("IMG_20240315_093012.jpg")
        let exif = Array("Exif".utf8) + [0, 0]
        let at = try XCTUnwrap((0..<(bytes.count - 6)).first { Array(bytes[$0..<$0 + 6]) == exif })
        bytes[at + 5] = 0x45
        let a = MediaAsset.from(bytes, path: "kodak.jpg")
        XCTAssertEqual(a.make, "Google")
        XCTAssertEqual(a.captured?.source, .exifDateTimeOriginal)
        XCTAssertTrue(a.diagnostics.contains { $0.message.contains("identifier ends in 0x45") }, "\(a.diagnostics)")
        bytes[at + 6] = 0x00  // no TIFF header after it either: not EXIF
        XCTAssertNil(MediaAsset.from(bytes, path: "kodak.jpg").make)
    }

    func testJPEGWithAPPSegmentsBeforeAPP1() throws {
        // DSC_0001.JPG has APP0 and APP2 before APP1 (Huawei's order), which libexif's own
        // loader would not get past.
        let p = try payloads("DSC_0001.JPG")
        XCTAssertEqual(p.exif?.prefix(2), [0x4D, 0x4D])
    }

    func testJPEGTruncatedInsideAPP1() throws {
        let p = try payloads("truncated.jpg")
        XCTAssertTrue(p.truncated)
        XCTAssertNotNil(p.exif, "the IFDs before the cut are still handed on")
    }

    func testJPEGSegmentLengthBelowTwoStops() {
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01, 0xFF, 0xD9]
        let p = JPEGReader.read(BoundedReader(MemoryByteSource(bytes)))
        XCTAssertTrue(p.diagnostics.contains { $0.message.contains("length 1") }, "\(p.diagnostics)")
    }

    func testPNGChunksIncludingAfterIDAT() throws {
        let p = try payloads("creation_time.png")
        XCTAssertEqual(p.dates, [DateClue(.pngCreationTime, .text("2020:05:06 07:08:09", .freeform))])
        XCTAssertEqual(p.xmp.count, 1, "the iTXt XMP after IDAT is read")
        XCTAssertEqual(p.width, 64)
        let s = try payloads("IMG_0420.PNG")
        XCTAssertEqual(s.exif?.prefix(2), [0x4D, 0x4D], "eXIf without the Exif prefix")
        XCTAssertEqual(s.width, 1170)
        XCTAssertEqual(s.height, 2532)
    }

    func testPNGWithoutIENDIsTruncated() throws {
        let bytes = try TestPaths.bytes("creation_time.png")
        let p = PNGReader.read(BoundedReader(MemoryByteSource(Array(bytes.dropLast(12)))))
        XCTAssertTrue(p.truncated)
    }

    /// A zlib stream of stored (uncompressed) deflate blocks [RFC 1950, RFC 1951 3.2.4].
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var rest = ArraySlice(data)
        repeat {
            let block = rest.prefix(65_535)
            rest = rest.dropFirst(block.count)
            let n = UInt16(block.count)
            out += [rest.isEmpty ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)] + block
        } while !rest.isEmpty
        var a: UInt32 = 1
        var b: UInt32 = 0
        for x in data {
            a = (a + UInt32(x)) % 65_521
            b = (b + a) % 65_521
        }
        let adler = b << 16 | a
        return out + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    static func pngChunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let n = UInt32(body.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + Array(type.utf8) + body + [
            0, 0, 0, 0,
        ]
    }

    func testCompressedPNGTextIsInflated() {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr = Self.pngChunk("IHDR", [0, 0, 0, 8, 0, 0, 0, 8, 8, 0, 0, 0, 0])
        let ztxt = Self.pngChunk(
            "zTXt", Array("Creation Time".utf8) + [0, 0] + Self.zlibStored(Array("2019:01:01 00:00:00".utf8)))
        let xmp = Array("<x:xmpmeta><rdf:Description xmp:CreateDate=\"2018-02-03T04:05:06\"/></x:xmpmeta>".utf8)
        let itxt = Self.pngChunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 1, 0, 0, 0] + Self.zlibStored(xmp))
        let bytes = signature + ihdr + ztxt + itxt + Self.pngChunk("IEND", [])
        let p = PNGReader.read(BoundedReader(MemoryByteSource(bytes)))
        XCTAssertEqual(p.dates, [DateClue(.pngCreationTime, .text("2019:01:01 00:00:00", .freeform))])
        XCTAssertEqual(p.xmp, [xmp])
        XCTAssertEqual(p.diagnostics, [])
    }

    func testCompressedPNGTextCannotExpandWithoutBound() {
        // 2 MiB of zeros claimed as XMP: past the 1 MiB cap once inflated.
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let itxt = Self.pngChunk(
            "iTXt",
            Array("XML:com.adobe.xmp".utf8) + [0, 1, 0, 0, 0]
                + Self.zlibStored([UInt8](repeating: 0x20, count: 2 << 20)))
        let p = PNGReader.read(BoundedReader(MemoryByteSource(signature + itxt + Self.pngChunk("IEND", []))))
        XCTAssertEqual(p.xmp, [])
        XCTAssertFalse(p.diagnostics.isEmpty)
        XCTAssertEqual(Inflater.inflate(ArraySlice(Self.zlibStored([UInt8](repeating: 1, count: 1000))), limit: 999), .tooLarge)
        XCTAssertEqual(Inflater.inflate([0x78, 0x01, 0xFF], limit: 100), .corrupt)
    }

    func testGIFFramesAndXMP() throws {
        let a = try payloads("anim.gif")
        XCTAssertEqual(a.frameCount, 3)
        XCTAssertEqual(a.animated, true)
        XCTAssertEqual(a.width, 16)
        XCTAssertEqual(a.xmp.count, 1)
        XCTAssertEqual(XMPReader.read(a.xmp).createDate, "2019-11-11T11:11:11")
        let s = try payloads("still.gif")
        XCTAssertEqual(s.frameCount, 1)
        XCTAssertEqual(s.animated, false)
    }

    func testWebPChunks() throws {
        let p = try payloads("photo.webp")
        XCTAssertEqual(p.width, 320)
        XCTAssertEqual(p.height, 240)
        XCTAssertEqual(p.exif?.prefix(2), [0x49, 0x49], "the Exif\\0\\0 prefix is dropped")
        XCTAssertEqual(p.xmp.count, 1)
        let l = try payloads("lossless.webp")
        XCTAssertEqual(l.width, 100)
        XCTAssertEqual(l.height, 50)
    }

    func testHEIFItems() throws {
        let p = try payloads("IMG_0001.HEIC")
        XCTAssertEqual(p.width, 4032)
        XCTAssertEqual(p.height, 3024)
        XCTAssertEqual(p.rotation, 270)
        XCTAssertEqual(p.exif?.prefix(2), [0x4D, 0x4D], "the 4-byte offset and Exif\\0\\0 are skipped")
        XCTAssertEqual(p.xmp.count, 1)
        let a = try payloads("sample.avif")
        XCTAssertEqual(a.format, .avif)
        XCTAssertEqual(a.width, 640)
        XCTAssertNotNil(a.exif)
    }

    func testQuickTimeAtoms() throws {
        let p = try payloads("IMG_0001.MOV")
        let keys = try XCTUnwrap(p.evidence[.quickTimeKeys])
        let mvhd = try XCTUnwrap(LocalDateTime(secondsAsIfUTC: 1_714_551_630))
        XCTAssertEqual(
            p.dates,
            [
                DateClue(.quickTimeCreationDate, .text("2024-05-01T10:20:30+0200", .iso8601)),
                DateClue(.quickTimeMovieHeader, .instant(utc: mvhd, caveat: nil)),
            ])
        XCTAssertEqual(keys.contentIdentifier, "8A1B2C3D-0000-4000-8000-00000000ABCD")
        XCTAssertEqual(keys.make, "Apple")
        XCTAssertEqual(keys.model, "iPhone 15 Pro")
        XCTAssertEqual(p.evidence[.quickTimeMovieHeader]?.durationSeconds, 3)
        XCTAssertEqual(p.width, 1920)
        XCTAssertEqual(p.height, 1440)
    }

    func testMP4Version1MovieHeaderAndVideoTrackOnly() throws {
        let p = try payloads("clip.mp4")
        let mvhd = try XCTUnwrap(LocalDateTime(secondsAsIfUTC: 1_694_358_000))
        XCTAssertEqual(p.dates, [DateClue(.quickTimeMovieHeader, .instant(utc: mvhd, caveat: nil))])
        XCTAssertEqual(p.evidence[.quickTimeMovieHeader]?.durationSeconds, 12.5)
        XCTAssertEqual(p.width, 1280, "the audio track's 0x0 is ignored")
        XCTAssertEqual(p.height, 720)
    }

    func testBoxLargerThanFileIsClampedAndFlagged() {
        // ftyp, then a moov that claims 1 GiB.
        var bytes: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 0, 0]
        bytes += [0x40, 0, 0, 0] + Array("moov".utf8) + [0, 0, 0, 8] + Array("free".utf8)
        let p = QuickTimeReader.read(BoundedReader(MemoryByteSource(bytes)), format: .mp4)
        XCTAssertTrue(p.truncated)
        XCTAssertTrue(p.diagnostics.contains { $0.message.contains("past the end") }, "\(p.diagnostics)")
    }

    func testBoxSmallerThanHeaderStops() {
        let bytes: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 0, 0] + [0, 0, 0, 3] + Array("moov".utf8)
        let p = QuickTimeReader.read(BoundedReader(MemoryByteSource(bytes)), format: .mp4)
        XCTAssertTrue(p.diagnostics.contains { $0.message.contains("smaller than its header") }, "\(p.diagnostics)")
    }

    func testLargesizeNearInt64MaxDoesNotOverflow() {
        var bytes: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 0, 0]
        bytes += [0, 0, 0, 1] + Array("moov".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0]
        bytes += [UInt8](repeating: 0, count: 24)
        let p = QuickTimeReader.read(BoundedReader(MemoryByteSource(bytes)), format: .mp4)
        XCTAssertTrue(p.truncated)
    }

    func testHEIFExtentLengthNearUInt64MaxDoesNotOverflow() {
        // iloc v1, offset/length size 8, item 2 (Exif) with two extents: 8 bytes, then 2^64-1.
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let n = UInt32(body.count + 8)
            return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + Array(type.utf8) + body
        }
        let infe = box("infe", [2, 0, 0, 0, 0, 2, 0, 0] + Array("Exif".utf8) + [0])
        let iinf = box("iinf", [0, 0, 0, 0, 0, 1] + infe)
        var iloc: [UInt8] = [1, 0, 0, 0, 0x88, 0x00, 0, 1, 0, 2, 0, 0, 0, 0, 0, 2]
        iloc += [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 8]
        iloc += [0, 0, 0, 0, 0, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let meta = box("meta", [0, 0, 0, 0] + iinf + box("iloc", iloc))
        let bytes = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1".utf8)) + meta
        let p = HEIFReader.read(BoundedReader(MemoryByteSource(bytes)), format: .heic)
        XCTAssertNil(p.exif)
    }

    func testTIFFIsItsOwnPayload() throws {
        let p = try payloads("scan.tif")
        XCTAssertEqual(p.exif?.count, try TestPaths.bytes("scan.tif").count)
    }

    func testReadBudgetStopsAHostileLength() {
        // A PNG eXIf chunk that claims 2 GiB - 1 must not allocate it.
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += [0x7F, 0xFF, 0xFF, 0xFF] + Array("eXIf".utf8) + [0x4D, 0x4D, 0, 0x2A]
        let p = PNGReader.read(BoundedReader(MemoryByteSource(bytes)))
        XCTAssertTrue(p.truncated)
        XCTAssertNil(p.exif)
    }
}
