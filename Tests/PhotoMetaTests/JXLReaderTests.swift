import XCTest

@testable import PhotoMetaCore

/// JPEG XL (issue 22): the container's Exif and XMP boxes, plain or Brotli-compressed (`brob`,
/// as cjxl writes them), the codestream's size header, a bare codestream; cut and hostile files.
final class JXLReaderTests: XCTestCase {
    func testCjxlContainerHasItsCompressedExifAndXMP() throws {
        let a = MediaAsset.from(try TestPaths.bytes("../formats/photo.jxl"), path: "photo.jxl")
        XCTAssertEqual(a.format, .jxl)
        XCTAssertEqual(a.kind, .photo)
        XCTAssertEqual(a.make, "Google")
        XCTAssertEqual(a.model, "Pixel 7")
        XCTAssertEqual(a.orientation, 6)
        XCTAssertEqual([a.width, a.height], [16, 8])
        XCTAssertEqual(a.captured?.source, .exifDateTimeOriginal)
        XCTAssertEqual(a.diagnostics, [])
        XCTAssertFalse(a.truncated)
        let found = JXLReader.read(BoundedReader(MemoryByteSource(try TestPaths.bytes("../formats/photo.jxl"))))
        XCTAssertEqual(XMPReader.read(found.xmp).createDate, "2024-03-15T09:30:12+08:00", "the brob xml box")
    }

    func testBareCodestreamHasItsSizeAndNoMetadata() throws {
        let a = MediaAsset.from(try TestPaths.bytes("../formats/bare.jxl"), path: "bare.jxl")
        XCTAssertEqual(a.format, .jxl)
        XCTAssertEqual([a.width, a.height], [100, 50])
        XCTAssertNil(a.make)
        XCTAssertEqual(a.orientation, 1, "ImageMetadata all_default: upright")
        XCTAssertEqual(a.diagnostics, [])
    }

    /// [ISO/IEC 18181-1, ImageMetadata] The codestream's orientation is the picture's (jxlinfo
    /// agrees: photo.jxl 6, bare.jxl 1), and it outranks an Exif box's, which decoders ignore.
    func testTheCodestreamsOrientation() throws {
        // Signature, small SizeHeader (div8: height 8, ratio 1:1), then ImageMetadata.
        func head(_ metadata: [UInt8]) -> [UInt8] {
            var bits: [UInt8] = [1, 0, 0, 0, 0, 0, 1, 0, 0] + metadata  // small, h-1 = 0 (5 bits), ratio 1 (3 bits)
            while bits.count % 8 != 0 { bits.append(0) }
            let bytes = stride(from: 0, to: bits.count, by: 8).map { i in
                (0..<8).reduce(UInt8(0)) { $0 | bits[i + $1] << UInt8($1) }
            }
            return JXLCodestream.signature + bytes + [0, 0, 0, 0]
        }
        XCTAssertEqual(JXLCodestream.orientation(head([1])), 1, "all_default")
        XCTAssertEqual(JXLCodestream.orientation(head([0, 0])), 1, "no extra fields")
        XCTAssertEqual(JXLCodestream.orientation(head([0, 1, 1, 0, 1])), 6, "orientation - 1 = 5, least significant bit first")
        XCTAssertEqual(JXLCodestream.orientation(head([0, 1, 1, 1, 1])), 8)
        XCTAssertNil(JXLCodestream.orientation(Array(head([0, 1, 1, 0, 1]).prefix(3))), "cut inside the size header")
        XCTAssertEqual(FieldPrecedence.orientation.first, .jxlCodestream)
    }

    /// [ISO/IEC 18181-1 A.3.1] The small form (multiples of 8) and a fixed ratio.
    func testSizeHeaderForms() {
        // small = 1, height/8 - 1 = 3 (32), ratio 0, width/8 - 1 = 7 (64): bits LSB first.
        var bits: [Int] = [1] + [1, 1, 0, 0, 0] + [0, 0, 0] + [1, 1, 1, 0, 0]
        XCTAssertEqual(JXLCodestream.size(Self.pack(bits)).map { [$0.width, $0.height] }, [64, 32])
        // small = 0, selector 0, 9 bits of 99 (height 100), ratio 5 (16:9): width 177.
        bits = [0] + [0, 0] + (0..<9).map { 99 >> $0 & 1 } + [1, 0, 1]
        XCTAssertEqual(JXLCodestream.size(Self.pack(bits)).map { [$0.width, $0.height] }, [177, 100])
        XCTAssertNil(JXLCodestream.size([0xFF, 0x0A]), "cut inside the header")
    }

    static func pack(_ bits: [Int]) -> [UInt8] {
        var bytes = JXLCodestream.signature + [UInt8](repeating: 0, count: (bits.count + 7) / 8)
        for (i, b) in bits.enumerated() where b == 1 { bytes[2 + i / 8] |= UInt8(1 << (i % 8)) }
        return bytes
    }

    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let n = UInt32(8 + body.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + Array(type.utf8) + body
    }

    static let codestream = box("jxlc", pack([1] + [0, 0, 0, 0, 0] + [1, 0, 0]))  // 8x8, 1:1

    /// Uncompressed `Exif` (with a TIFF header offset) and `xml ` boxes.
    func testPlainExifAndXMPBoxes() throws {
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x0F, 0, 2, 0, 0, 0, 4, 0x41, 0x63, 0x6D, 0x00, 0, 0, 0, 0,
        ]
        let exif = Self.box("Exif", [0, 0, 0, 6] + Array("Exif\0\0".utf8) + tiff)
        let xmp = Self.box("xml ", Array("<x:xmpmeta><rdf:Description tiff:Model=\"X1\"/></x:xmpmeta>".utf8))
        let file = JXLReader.containerSignature + exif + xmp + Self.codestream
        let a = MediaAsset.from(file, path: "plain.jxl")
        XCTAssertEqual(a.make, "Acm")
        XCTAssertEqual(a.model, "X1")
        XCTAssertEqual([a.width, a.height], [8, 8])
        XCTAssertEqual(a.diagnostics, [])
    }

    /// A 27-byte Brotli stream that expands to 16 MiB, as an Exif and as an XMP box: cut at
    /// the limit (EXIF) or skipped (XMP), never held whole. A stream that is not Brotli, an
    /// Exif offset past its box, and a file with no codestream are diagnostics.
    func testHostileBoxes() throws {
        let bomb: [UInt8] = Array(hex: "cbffff3ff82700e2b14020f7fe2ffffffff04f00c4611180eefd1f")
        func messages(_ boxes: [UInt8]...) -> [String] {
            let file = JXLReader.containerSignature + boxes.flatMap { $0 } + Self.codestream
            let found = JXLReader.read(BoundedReader(MemoryByteSource(file)))
            XCTAssertTrue(found.xmp.isEmpty)
            return found.diagnostics.map(\.message)
        }
        let exifBomb = Self.box("brob", Array("Exif".utf8) + bomb)
        let xmpBomb = Self.box("brob", Array("xml ".utf8) + bomb)
        let bombs = messages(exifBomb, xmpBomb)
        XCTAssertTrue(bombs.contains { $0.contains("Exif box cut to") }, "\(bombs)")
        XCTAssertTrue(bombs.contains { $0.contains("XMP box over") }, "\(bombs)")
        // More of them: the first of each is read, the rest noted once.
        let many = messages(exifBomb, xmpBomb, xmpBomb, xmpBomb)
        XCTAssertEqual(many.filter { $0.contains("more than one 'xml '") }.count, 1, "\(many)")
        let corrupt = messages(Self.box("brob", Array("xml ".utf8) + [1, 2, 3]))
        XCTAssertTrue(corrupt.contains { $0.contains("cannot be decompressed") }, "\(corrupt)")
        let offset = messages(Self.box("Exif", [0xFF, 0, 0, 0, 1]))
        XCTAssertTrue(offset.contains { $0.contains("offset lies outside the box") }, "\(offset)")
        let cut = JXLReader.read(BoundedReader(MemoryByteSource(JXLReader.containerSignature + Self.box("xml ", [0x20]))))
        XCTAssertTrue(cut.truncated)
    }

    func testEveryCutIsFlagged() throws {
        for name in ["photo.jxl", "bare.jxl"] {
            let bytes = try TestPaths.bytes("../formats/\(name)")
            let whole = Set(MediaAsset.from(bytes, path: name).diagnostics)
            for cut in 0..<bytes.count {
                let a = MediaAsset.from(Array(bytes.prefix(cut)), path: name)
                // A bare codestream is read only for its size: a cut after its size header is not
                // seen (docs/robustness.md).
                if name == "bare.jxl", a.width == 100 { continue }
                let flagged = a.error != nil || a.truncated || !Set(a.diagnostics).isSubset(of: whole)
                XCTAssertTrue(flagged, "\(name) cut at \(cut): \(a.diagnostics)")
            }
        }
    }
}

extension Array where Element == UInt8 {
    init(hex: String) {
        var bytes: [UInt8] = []
        var it = hex.makeIterator()
        while let a = it.next(), let b = it.next(), let v = UInt8(String([a, b]), radix: 16) { bytes.append(v) }
        self = bytes
    }
}
