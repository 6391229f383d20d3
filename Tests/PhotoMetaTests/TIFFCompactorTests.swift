import XCTest

@testable import PhotoMetaCore

/// TIFF files whose directories or values lie past libexif's 64 KiB window.
final class TIFFCompactorTests: XCTestCase {
    func testIFD0AfterTheImageData() throws {
        let a = MediaAsset.from(try TestPaths.bytes("../formats/far_ifd.tif"), path: "far_ifd.tif")
        XCTAssertEqual(a.captured?.source, .exifDateTimeOriginal)
        XCTAssertEqual(a.make, "ImageMagick Test")
        XCTAssertEqual(a.orientation, 3)
        XCTAssertEqual(a.width, 4)
        XCTAssertEqual(a.height, 4)
        XCTAssertFalse(a.truncated, "\(a.diagnostics)")
    }

    func testAFarPreviewPointerNoLongerHidesTheExifIFD() throws {
        let a = MediaAsset.from(try TestPaths.bytes("../formats/arw_like.arw"), path: "arw_like.arw")
        XCTAssertEqual(a.captured?.source, .exifDateTimeOriginal, "\(a.diagnostics)")
        if case .wall(_, let offset, _) = a.captured?.clock {
            XCTAssertEqual(offset?.description, "+01:00")
        } else {
            XCTFail("a wall clock")
        }
        XCTAssertEqual(a.model, "ILCE-7M3")
    }

    /// NEF and DNG: IFD0 is a preview, the picture is the SubIFD with NewSubfileType 0.
    func testTheSizeIsTheFullResolutionSubIFDs() throws {
        let bytes = try TestPaths.bytes("../formats/nef_like.nef")
        let a = MediaAsset.from(bytes, path: "nef_like.nef")
        XCTAssertEqual(a.width, 3040)
        XCTAssertEqual(a.height, 2014)
        XCTAssertEqual(a.model, "NIKON D70")
        XCTAssertEqual(a.captured?.source, .exifDateTimeOriginal)
        // Cut anywhere: no crash, and never a size from a directory that is not all there.
        for n in stride(from: 0, to: bytes.count, by: 3) {
            let cut = MediaAsset.from(Array(bytes.prefix(n)), path: "cut.nef")
            if let w = cut.width { XCTAssertTrue([160, 640, 3040].contains(w), "\(n): \(w)") }
        }
        // A SubIFD list that lies about its length or points at IFD0 itself.
        var lying = bytes
        let ifd0 = 8
        let count = Int(lying[ifd0]) << 8 | Int(lying[ifd0 + 1])
        for i in 0..<count {
            let e = ifd0 + 2 + 12 * i
            if lying[e] == 0x01, lying[e + 1] == 0x4A {
                lying.replaceSubrange((e + 4)..<(e + 12), with: [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 8])
            }
        }
        let l = MediaAsset.from(lying, path: "lying.nef")
        XCTAssertEqual(l.width, 160, "no SubIFD is readable: IFD0's own size, as libexif reads it")
    }

    /// A TIFF without SubIFDs is IFD0's picture: the Exif IFD's PixelXDimension (an earlier
    /// size an editor kept) does not describe it [EXIF 2.32 4.6.5]; exiftool's
    /// Composite:ImageSize says 4x4 too.
    func testAPlainTIFFIsIFD0sPictureNotTheExifIFDsSize() throws {
        let bytes = try TestPaths.bytes("../formats/resized.tif")
        let a = MediaAsset.from(bytes, path: "resized.tif")
        XCTAssertEqual(a.format, .tiff)
        XCTAssertEqual([a.width, a.height], [4, 4])
        XCTAssertEqual(a.captured?.source, .exifDateTimeOriginal)
        // CR2 and Phase One IIQ keep a preview in IFD0 and state the picture in the Exif IFD.
        for (name, marker) in [("cr2", Array("CR".utf8) + [2, 0]), ("iiq", Array("IIII".utf8))] {
            var raw = bytes
            raw.replaceSubrange(8..<12, with: marker)
            let r = MediaAsset.from(raw, path: "resized." + name)
            XCTAssertEqual([r.width, r.height], [2100, 1368], name)
        }
        // Cut anywhere: no crash, and a size only from IFD0 or the Exif IFD.
        for n in stride(from: 0, to: bytes.count, by: 2) {
            let cut = MediaAsset.from(Array(bytes.prefix(n)), path: "cut.tif")
            if let w = cut.width { XCTAssertTrue([4, 2100].contains(w), "\(n): \(w)") }
        }
    }

    func testTheStreamFitsTheWindowAndPointsAtItsCopies() throws {
        let bytes = try TestPaths.bytes("../formats/far_ifd.tif")
        var out = ContainerFindings(format: .tiff)
        let stream = try XCTUnwrap(
            TIFFCompactor.compact(BoundedReader(MemoryByteSource(bytes)), littleEndian: true, ifd0: 200 * 1024, into: &out))
        XCTAssertLessThanOrEqual(stream.count, Limits.exifPayloadMax)
        XCTAssertEqual(Array(stream.prefix(8)), [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0])
        let record = ExifDecoder.decode(tiff: stream)
        XCTAssertEqual(record.dateTimeOriginal, "2019:09:09 09:09:09")
        XCTAssertEqual(record.offsetTimeOriginal, "-05:00")
        XCTAssertEqual(record.model, "convert")
        XCTAssertEqual(record.imageDataEnd, 8 + 16, "StripOffsets still count from the file's start")
    }

    func testCutsAndHostileDirectoriesAreNotFatal() throws {
        let bytes = try TestPaths.bytes("../formats/far_ifd.tif")
        let ifd0 = 200 * 1024
        // Cut inside IFD0 or its values: flagged or at least answered, never a crash.
        for cut in stride(from: ifd0, to: bytes.count, by: 13) {
            let a = MediaAsset.from(Array(bytes.prefix(cut)), path: "cut.tif")
            XCTAssertEqual(a.format, .tiff)
            if cut < ifd0 + 2 + 12 * 14 + 4 { XCTAssertTrue(a.truncated, "cut at \(cut)") }
        }
        // IFD0 points at itself as its Exif IFD and as its next IFD; counts claim 4 GiB.
        var loop = bytes
        let n = Int(loop[ifd0]) | Int(loop[ifd0 + 1]) << 8
        let next = ifd0 + 2 + 12 * n
        loop.replaceSubrange(next..<(next + 4), with: [0x00, 0x20, 0x03, 0x00])  // 204800
        for i in 0..<n {
            let e = ifd0 + 2 + 12 * i
            loop.replaceSubrange((e + 4)..<(e + 8), with: [0xFF, 0xFF, 0xFF, 0x3F])
        }
        let a = MediaAsset.from(loop, path: "loop.tif")
        XCTAssertNil(a.error)
        XCTAssertEqual(a.format, .tiff)
    }
}
