import Foundation
import Synchronization
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile input (issue 6): lying lengths, zero-size and self-containing boxes, nesting bombs,
/// IFD loops, segment floods, huge XMP packets, invalid UTF-8 and NULs, and the file-system
/// oddities a folder scan meets (empty files, a folder named like a photo, a FIFO, a symlink
/// loop, an unreadable file, a file cut while it is read).
///
/// Every case must give an entry (an asset with diagnostics, `truncated` or an `error`), never
/// a crash, within a bounded time; a folder of all of them is scanned to the end with every
/// entry accounted for, and the peak memory of that scan stays bounded. The byte builders below
/// are written apart from the readers, so a reader bug is not mirrored here.
/// Fixtures/fuzz/ holds the fuzzers' findings; each is replayed here too (docs/fuzzing.md).
final class HostileInputTests: XCTestCase {
    /// The hang guard: how long a case may run before it is abandoned and reported as a hang,
    /// so the suite goes on. Generous on purpose; the work bound is asserted by counting the
    /// bytes read, not by the clock.
    static let abandonAfter = 20.0

    // MARK: - The cases

    struct Case {
        let name: String
        let bytes: [UInt8]
        /// The asset must carry an error, `truncated` or at least one diagnostic.
        let mustFlag: Bool
    }

    static func cases() -> [Case] {
        var c: [Case] = []
        func add(_ name: String, _ bytes: [UInt8], flag: Bool = true) { c.append(Case(name: name, bytes: bytes, mustFlag: flag)) }

        // JPEG: a segment length past the end, APP1 Exif / XMP claiming 64 KiB in a short file,
        // 10,000 APP segments, more segments than the cap, a length below 2.
        add("jpeg-app1-exif-past-eof.jpg", soi + segment(0xE1, length: 0xFFFF, Array("Exif\0\0".utf8) + tiffLE(make: "Acme")))
        add("jpeg-app1-xmp-past-eof.jpg", soi + segment(0xE1, length: 0xFFFF, Array("http://ns.adobe.com/xap/1.0/\0<x:xmp".utf8)))
        add("jpeg-app2-past-eof.jpg", soi + segment(0xE2, length: 0x8000, [1, 2, 3]))
        add("jpeg-10000-app-segments.jpg", soi + repeatedSegments(10_000) + sof + sos, flag: false)
        add("jpeg-30000-app-segments.jpg", soi + repeatedSegments(30_000) + sof + sos)
        add("jpeg-length-below-2.jpg", soi + [0xFF, 0xE0, 0x00, 0x01] + sof + sos)
        add("jpeg-only-fill-bytes.jpg", soi + [UInt8](repeating: 0xFF, count: 100_000))
        add("jpeg-soi-only.jpg", [0xFF, 0xD8, 0xFF])

        // PNG: chunk lengths at 2^31-1 and 2^32-1, an XMP iTXt that claims 50 MiB.
        add("png-exif-2gib.png", pngSignature + ihdr + pngChunk("eXIf", claimed: 0x7FFF_FFFF, tiffLE(make: "Acme")))
        add("png-length-4gib.png", pngSignature + ihdr + pngChunk("tEXt", claimed: 0xFFFF_FFFF, Array("Comment\0x".utf8)))
        add(
            "png-itxt-xmp-claims-50mib.png",
            pngSignature + ihdr
                + pngChunk("iTXt", claimed: 50 << 20, Array("XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta".utf8)))
        add(
            "png-raw-profile-lies.png",
            pngSignature + ihdr
                + pngChunk("tEXt", Array("Raw profile type exif\0\nexif\n 99999999\n4578696600004d4d".utf8)) + iend)

        // ISO BMFF: largesize near 2^63 and 2^64, size 0 (to the end) where it is not last,
        // a box that contains itself, a moov claiming 4 GiB, 10,000 nested moov and trak boxes.
        add(
            "mov-largesize-int64-max.mov",
            ftypQT + [0, 0, 0, 1] + Array("moov".utf8)
                + be64(0x7FFF_FFFF_FFFF_FFFF) + [UInt8](repeating: 0, count: 16))
        add(
            "mov-largesize-uint64-max.mov",
            ftypQT + [0, 0, 0, 1] + Array("moov".utf8)
                + be64(0xFFFF_FFFF_FFFF_FFFF) + [UInt8](repeating: 0, count: 16))
        add("mov-largesize-missing.mov", ftypQT + [0, 0, 0, 1] + Array("moov".utf8) + [0, 0])
        add(
            "mov-moov-claims-4gib.mov",
            ftypQT + be32(0xFFFF_FFF0) + Array("moov".utf8) + box("mvhd", [UInt8](repeating: 0, count: 100)))
        add(
            "mov-zero-size-boxes.mov",
            ftypQT + box("moov", [0, 0, 0, 0] + Array("trak".utf8) + box("mvhd", [])) + [0, 0, 0, 0] + Array("free".utf8),
            flag: false)  // size 0 is legal on a last box
        add("mov-self-containing-moov.mov", ftypQT + selfContaining("moov", depth: 3))
        add("mov-10000-nested-moov.mov", ftypQT + nested(Array(repeating: "moov", count: 10_000)), flag: false)
        add("mov-10000-nested-trak.mov", ftypQT + nested(["moov"] + Array(repeating: "trak", count: 10_000)), flag: false)
        add(
            "mov-10000-nested-udta-meta.mov", ftypQT + nested(["moov"] + (0..<5_000).flatMap { _ in ["udta", "meta"] }),
            flag: false)
        add(
            "mov-keys-count-4g.mov",
            ftypQT
                + box(
                    "moov",
                    box(
                        "meta",
                        box("hdlr", [UInt8](repeating: 0, count: 24))
                            + box("keys", [0, 0, 0, 0] + be32(0xFFFF_FFFF) + be32(0xFFFF_FFFF) + Array("mdta".utf8)))))
        add(
            "mov-ilst-items-without-keys.mov",
            ftypQT
                + box(
                    "moov",
                    box(
                        "meta",
                        box("hdlr", [UInt8](repeating: 0, count: 24))
                            + box(
                                "ilst",
                                (1...500).flatMap { i in
                                    box(be32(UInt32(i)), box("data", be32(1) + be32(0) + [0xFF, 0xFE, 0x00, 0x41]))
                                }))),
            flag: false)
        add("mp4-box-size-below-header.mp4", ftypMP4 + [0, 0, 0, 4] + Array("moov".utf8))

        // HEIF: iloc extents at and near 4 GiB, an Exif item whose offset field points past it,
        // an ispe of 2^32-1 squared, an iloc whose 0-byte fields make extents cost nothing,
        // an item stored in an idat that is missing, a meta box shorter than its FullBox header.
        add("heic-iloc-extent-near-4gib.heic", heif(exifItemAt: 0xFFFF_FFF0, length: 0xFFFF_FFFF))
        add("heic-iloc-extent-past-eof.heic", heif(exifItemAt: 100, length: 100_000))
        add("heic-exif-offset-past-item.heic", heifExifItem(payload: be32(6) + Array("Exif".utf8)), flag: false)
        add("heic-exif-offset-4g.heic", heifExifItem(payload: be32(0xFFFF_FFFF) + Array("MM\0*".utf8)))
        add(
            "heic-ispe-4g-squared.heic",
            ftypHEIC
                + fullBox(
                    "meta",
                    hdlrPict
                        + box(
                            "iprp",
                            box(
                                "ipco",
                                fullBox("ispe", be32(0xFFFF_FFFF) + be32(0xFFFF_FFFF))))), flag: false)
        add(
            "heic-iloc-extent-bomb.heic",
            ftypHEIC
                + fullBox(
                    "meta",
                    hdlrPict
                        + fullBox(
                            "iloc",
                            [0x00, 0x00] + be16(3_000) + (1...3_000).flatMap { be16(UInt16($0)) + [0, 0] + be16(0xFFFF) })))
        add(
            "heic-iloc-idat-missing.heic",
            ftypHEIC
                + fullBox(
                    "meta",
                    hdlrPict + iinfExif
                        + fullBox(
                            "iloc", [0x44, 0x00] + be16(1) + be16(1) + [0x00, 0x01] + [0, 0] + be16(1) + be32(0) + be32(8),
                            version: 1)))
        add("heic-meta-too-short.heic", ftypHEIC + box("meta", [0, 0]))
        add("heic-no-meta.heic", ftypHEIC + box("mdat", [1, 2, 3]))

        // WebP: RIFF size and chunk sizes near 4 GiB, an XMP chunk claiming 50 MiB.
        add(
            "webp-exif-4gib.webp",
            riff([
                riffChunk("VP8X", [0, 0, 0, 0, 9, 0, 0, 9, 0, 0]), riffChunk("EXIF", claimed: 0xFFFF_FFFF, tiffLE(make: "Acme")),
            ]))
        add("webp-xmp-claims-50mib.webp", riff([riffChunk("XMP ", claimed: 50 << 20, Array("<x:xmpmeta".utf8))]))
        add(
            "webp-riff-4gib.webp",
            Array("RIFF".utf8) + le32(0xFFFF_FFFF) + Array("WEBP".utf8) + riffChunk("VP8L", [0x2F, 0, 0, 0, 0]))

        // GIF: an XMP application extension with no packet end, a huge color table flag, no trailer.
        add(
            "gif-xmp-without-end.gif",
            gifHeader + [0x21, 0xFF, 0x0B] + Array("XMP DataXMP".utf8)
                + Array("<x:xmpmeta tiff:Make=\"x\"".utf8) + [0x00, 0x3B])
        add("gif-color-table-past-eof.gif", Array("GIF89a".utf8) + [1, 0, 1, 0, 0xF7, 0, 0])
        add("gif-frames-no-trailer.gif", gifHeader + (0..<2_000).flatMap { _ in gifFrame })

        // TIFF / EXIF: IFD0 whose next-IFD offset points to itself, an ExifIFD pointer to IFD0,
        // an IFD1 that points back to IFD0, IFD0 past the file, an entry count of 65,535,
        // a Make with invalid UTF-8 and a NUL.
        add("tiff-ifd0-next-is-itself.tif", tiffLE(make: "Acme", next: 8), flag: false)
        add("tiff-exififd-points-to-ifd0.tif", tiffLE(make: "Acme", exifIFD: 8), flag: false)
        add("tiff-ifd1-points-to-ifd0.tif", tiffTwoIFDLoop(), flag: false)
        add("tiff-ifd0-past-eof.tif", [0x49, 0x49, 0x2A, 0x00] + le32(0x7FFF_FFF0))
        add("tiff-65535-entries.tif", [0x49, 0x49, 0x2A, 0x00] + le32(8) + le16(0xFFFF) + [UInt8](repeating: 0x01, count: 600))
        add(
            "jpeg-exif-ifd-loop.jpg",
            soi + segment(0xE1, Array("Exif\0\0".utf8) + tiffLE(make: "Acme", next: 8, exifIFD: 8)) + sof + sos,
            flag: false)
        add(
            "jpeg-exif-make-invalid-utf8-nul.jpg",
            soi
                + segment(
                    0xE1,
                    Array("Exif\0\0".utf8)
                        + tiffLE(makeBytes: [0x41, 0xFF, 0xFE, 0xC3, 0x28, 0x07, 0x42, 0x00, 0x43, 0x00])) + sof + sos,
            flag: false)

        // XMP with invalid UTF-8, NULs, a 1 MiB packet of almost-matches and 100,000 entities
        // (a quadratic search took seconds here).
        add(
            "png-xmp-invalid-utf8-nul.png",
            pngSignature + ihdr
                + pngChunk(
                    "iTXt",
                    Array("XML:com.adobe.xmp\0\0\0\0\0".utf8)
                        + Array("<x:xmpmeta><rdf:Description tiff:Make=\"A".utf8) + [0xFF, 0xC0, 0x00, 0x80]
                        + Array("B\" tiff:Model='\0'/>".utf8))
                + iend, flag: false)
        add(
            "png-xmp-1mib-near-misses.png",
            pngSignature + ihdr
                + pngChunk(
                    "iTXt",
                    Array("XML:com.adobe.xmp\0\0\0\0\0".utf8)
                        + Array(String(repeating: "tiff:Make exif:DateTimeOriginal ", count: 30_000).utf8)
                        .prefix(Limits.xmpPayloadMax - 40)) + iend, flag: false)
        add(
            "png-xmp-500kib-entities.png",
            pngSignature + ihdr
                + pngChunk(
                    "iTXt",
                    Array("XML:com.adobe.xmp\0\0\0\0\0".utf8)
                        + Array(("<tiff:Make>" + String(repeating: "&amp;", count: 100_000) + "</tiff:Make>").utf8)) + iend,
            flag: false)

        // Matroska / WebM: a Segment claiming 1 GB, 10,000 nested unknown-size elements, a
        // SeekHead pointing far past the file (MatroskaReaderTests has the rest).
        let ebml = MatroskaReaderTests.self
        add("mkv-segment-claims-1gib.mkv", ebml.header("matroska") + ebml.id(0x1853_8067) + ebml.size8(1 << 30) + ebml.cluster)
        add(
            "webm-10000-nested-unknown-size.webm",
            ebml.header("webm") + ebml.id(0x1853_8067) + ebml.unknownSize
                + (0..<10_000).flatMap { _ in ebml.id(0x1654_AE6B) + ebml.unknownSize })
        add(
            "mkv-seekhead-past-eof.mkv",
            ebml.header("matroska")
                + ebml.element(
                    0x1853_8067,
                    ebml.element(
                        0x114D_9B74,
                        ebml.element(0x4DBB, ebml.element(0x53AB, ebml.id(0x1654_AE6B)), ebml.uint(0x53AC, 1 << 40)))))

        // JPEG XL: a 27-byte Brotli stream that expands to 16 MiB, as Exif and as XMP, 100
        // times over; a codestream box that claims 4 GiB.
        let jxl = JXLReaderTests.self
        let bomb = [UInt8](hex: "cbffff3ff82700e2b14020f7fe2ffffffff04f00c4611180eefd1f")
        add(
            "jxl-100-brotli-bombs.jxl",
            JXLReader.containerSignature
                + (0..<100).flatMap { _ in jxl.box("brob", Array("Exif".utf8) + bomb) + jxl.box("brob", Array("xml ".utf8) + bomb)
                }
                + jxl.codestream)
        add("jxl-jxlc-claims-4gib.jxl", JXLReader.containerSignature + be32(0xFFFF_FFF0) + Array("jxlc".utf8) + [0xFF, 0x0A, 1])

        // Not media at all.
        add("empty.jpg", [])
        add("one-byte.heic", [0x00])
        add("nul-bytes.mov", [UInt8](repeating: 0, count: 4096))
        return c
    }

    // MARK: - In memory: every case, alone

    func testEachHostileInputGivesAFlaggedEntryInBoundedTime() {
        for c in Self.cases() {
            let path = "/hostile/" + c.name
            let bytes = c.bytes
            let source = CountingByteSource(bytes)
            guard let (asset, _) = Self.timed({ Inspector.inspect(source, path: path) }) else {
                XCTFail("\(c.name): still running after \(Self.abandonAfter) s (hang)")
                continue
            }
            XCTAssertLessThanOrEqual(source.bytesRead, Limits.readBudgetPerFile, "\(c.name): read past the budget")
            XCTAssertEqual(asset.path, path)
            if c.mustFlag {
                XCTAssertTrue(
                    asset.error != nil || asset.truncated || !asset.diagnostics.isEmpty,
                    "\(c.name): nothing tells the file is damaged")
            }
            Self.assertClean(asset, c.name)
        }
    }

    /// Strings that reach a report never carry NULs or control characters, whatever the file held.
    static func assertClean(_ asset: MediaAsset, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        for (field, value) in [
            ("make", asset.make), ("model", asset.model), ("software", asset.software),
            ("lensModel", asset.lensModel), ("contentIdentifier", asset.contentIdentifier),
        ] {
            guard let value else { continue }
            XCTAssertFalse(
                value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
                "\(name): \(field) \(value.debugDescription) holds control characters", file: file, line: line)
        }
    }

    func testInvalidUTF8AndNULsBecomeCleanText() {
        let jpeg =
            Self.soi
            + Self.segment(
                0xE1,
                Array("Exif\0\0".utf8)
                    + Self.tiffLE(makeBytes: [0x41, 0xFF, 0xFE, 0xC3, 0x28, 0x07, 0x42, 0x00, 0x43, 0x00])) + Self.sof + Self.sos
        let a = MediaAsset.from(jpeg, path: "x.jpg")
        XCTAssertNil(a.error)
        // Up to the first NUL, control characters dropped, invalid UTF-8 replaced (never lost whole).
        XCTAssertEqual(a.make, "A\u{FFFD}\u{FFFD}\u{FFFD}(B")
        XCTAssertNil(a.model)

        let png =
            Self.pngSignature + Self.ihdr
            + Self.pngChunk(
                "iTXt",
                Array("XML:com.adobe.xmp\0\0\0\0\0".utf8)
                    + Array("<x:xmpmeta><rdf:Description tiff:Make=\"A".utf8) + [0xFF, 0x00, 0x09] + Array("B\"/>".utf8))
            + Self.iend
        let b = MediaAsset.from(png, path: "y.png")
        XCTAssertEqual(b.make, "A\u{FFFD}", "text ends at the first NUL")
    }

    func testIFDLoopsEndAndKeepTheTags() {
        let loops: [(String, [UInt8])] = [
            ("IFD0 next -> IFD0", Self.tiffLE(make: "Acme", next: 8)),
            ("ExifIFD -> IFD0", Self.tiffLE(make: "Acme", exifIFD: 8)),
            ("both", Self.tiffLE(make: "Acme", next: 8, exifIFD: 8)),
            (
                "in a JPEG",
                Self.soi + Self.segment(0xE1, Array("Exif\0\0".utf8) + Self.tiffLE(make: "Acme", next: 8, exifIFD: 8))
                    + Self.sof + Self.sos
            ),
        ]
        for (what, bytes) in loops {
            guard let (asset, _) = Self.timed({ MediaAsset.from(bytes, path: "loop") }) else {
                XCTFail("\(what): hangs")
                continue
            }
            XCTAssertEqual(asset.make, "Acme", what)
        }
        guard let (ifd1Loop, _) = Self.timed({ MediaAsset.from(Self.tiffTwoIFDLoop(), path: "loop.tif") }) else {
            return XCTFail("IFD0 -> IFD1 -> IFD0: hangs")
        }
        XCTAssertEqual(ifd1Loop.orientation, 6)
    }

    /// One image's data may hold millions of 1-byte sub-blocks, each a read: the walk stops at
    /// `Limits.gifScanMax` and says the frame count is a lower bound, also when it stops because
    /// the file is cut.
    func testGIFFrameWalkIsBoundedAndSaysSo() {
        // 6 MiB of 0x01: a 1-byte sub-block holding 0x01, 3 million times.
        let gif =
            Self.gifHeader + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00, 0x02]
            + [UInt8](repeating: 0x01, count: 6 << 20) + [0x00] + Self.gifFrame + [0x3B]
        let bytes = gif
        guard let (asset, _) = Self.timed({ MediaAsset.from(bytes, path: "subblocks.gif") }) else {
            return XCTFail("GIF of 1-byte sub-blocks: hangs")
        }
        XCTAssertTrue(asset.frameCountIsLowerBound, "the walk read \(bytes.count) bytes of sub-blocks: \(asset.diagnostics)")

        let cut = Self.gifHeader + Self.gifFrame + Self.gifFrame + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00, 0x02, 0x40, 0xAA]
        let c = MediaAsset.from(cut, path: "cut.gif")
        XCTAssertEqual(c.frameCount, 3)
        XCTAssertTrue(c.truncated)
        XCTAssertTrue(c.frameCountIsLowerBound, "a cut GIF may have had more frames")
    }

    func testFileNamesWithNULsInvalidUTF8AndOddScripts() {
        let names = [
            "IMG_20240315_093012\u{0}.jpg", "\u{0}", "IMG_2024\u{0}0315_093012.jpg", "\u{FFFD}\u{FFFD}.jpg",
            String(decoding: [0x49, 0x4D, 0x47, 0x5F, 0xFF, 0xFE, 0x32, 0x30], as: UTF8.self),
            String(repeating: "9", count: 10_000), "PXL_" + String(repeating: "2", count: 5_000),
            "\u{202E}gpj.20390_51304202_GMI", "Screenshot 2024-01-01 at 1.2.3\u{202F}PM.png", "..", ".", "/", "",
            "mmexport" + String(repeating: "9", count: 13), "mmexport" + String(repeating: "0", count: 13),
        ]
        for name in names {
            guard let (_, _) = Self.timed({ FileNameDateParser.parse(name) }) else {
                XCTFail("parse(\(name.prefix(40).debugDescription)) hangs")
                continue
            }
            let asset = MediaAsset.from(Self.tiffLE(make: "Acme"), path: "/d/" + name)
            XCTAssertEqual(asset.path, "/d/" + name)
        }
        XCTAssertNil(FileNameDateParser.parse("mmexport" + String(repeating: "9", count: 13)), "year 2286 is not plausible")
    }

    // MARK: - A source that changes under the reader

    /// A source whose data shrinks (or fails) after the first read, while its size stays the
    /// one seen at open: a file cut (or an NFS mount dropping) while photometa reads it.
    final class ShrinkingSource: ByteSource, @unchecked Sendable {
        let bytes: [UInt8]
        let after: Int
        let failing: Bool
        let reportedSize: (Int) -> Int64
        private var reads = 0
        init(_ bytes: [UInt8], shrinkTo after: Int, failing: Bool = false, reportedSize: @escaping (Int) -> Int64) {
            self.bytes = bytes
            self.after = after
            self.failing = failing
            self.reportedSize = reportedSize
        }
        var size: Int64 { reportedSize(reads) }
        func read(at offset: Int64, count: Int) throws -> [UInt8] {
            reads += 1
            if reads > 1, failing { throw SystemError(errno: EIO) }
            let limit = reads > 1 ? after : bytes.count
            guard offset >= 0, count > 0, offset < Int64(limit) else { return [] }
            return Array(bytes[Int(offset)..<min(limit, Int(offset) + count)])
        }
    }

    func testFileShrinkingOrFailingWhileReadIsFlagged() throws {
        let files: [(String, [UInt8])] = [
            ("IMG_20240315_093012.jpg", try TestPaths.bytes("IMG_20240315_093012.jpg")),
            ("IMG_0001.HEIC", try TestPaths.bytes("IMG_0001.HEIC")), ("IMG_0001.MOV", try TestPaths.bytes("IMG_0001.MOV")),
            ("photo.webp", try TestPaths.bytes("photo.webp")), ("anim.gif", try TestPaths.bytes("anim.gif")),
            ("IMG_0420.PNG", try TestPaths.bytes("IMG_0420.PNG")), ("scan.tif", try TestPaths.bytes("scan.tif")),
        ]
        for (name, bytes) in files {
            let n = Int64(bytes.count)
            let variants: [(String, ShrinkingSource)] = [
                ("shrinks to 64 bytes", ShrinkingSource(bytes, shrinkTo: 64) { _ in n }),
                ("shrinks to 0 bytes", ShrinkingSource(bytes, shrinkTo: 0) { _ in n }),
                ("size drops as it is read", ShrinkingSource(bytes, shrinkTo: 64) { $0 > 1 ? 64 : n }),
                ("size grows as it is read", ShrinkingSource(bytes, shrinkTo: bytes.count) { $0 > 1 ? n * 1000 : n }),
                ("EIO after the first read", ShrinkingSource(bytes, shrinkTo: 0, failing: true) { _ in n }),
            ]
            for (what, source) in variants {
                guard let (asset, _) = Self.timed({ Inspector.inspect(source, path: name) }) else {
                    XCTFail("\(name) \(what): hangs")
                    continue
                }
                if what != "size grows as it is read" {
                    XCTAssertTrue(
                        asset.error != nil || asset.truncated || !asset.diagnostics.isEmpty,
                        "\(name) \(what): not flagged")
                }
            }
        }
    }

    func testFileTruncatedOnDiskAfterOpen() throws {
        let dir = try TemporaryDirectory()
        for name in ["IMG_20240315_093012.jpg", "IMG_0001.HEIC", "IMG_0001.MOV", "IMG_0420.PNG", "photo.webp"] {
            let path = try dir.write(name, try TestPaths.bytes(name))
            let source = try FileByteSource(path: path)
            XCTAssertEqual(truncate(path, 40), 0)
            let asset = Inspector.inspect(source, path: path)
            XCTAssertTrue(
                asset.error != nil || asset.truncated || !asset.diagnostics.isEmpty, "\(name): cut after open, not flagged")
        }
    }

    // MARK: - On disk: a folder of everything, scanned to the end

    func testFolderOfHostileFilesIsScannedToTheEndWithBoundedMemory() throws {
        let dir = try TemporaryDirectory()
        var regular: [String] = []
        for c in Self.cases() { regular.append(try dir.write("cases/" + c.name, c.bytes)) }
        for name in try FileManager.default.contentsOfDirectory(atPath: Fuzz.folder.path).sorted() where name != "README.md" {
            regular.append(try dir.write("fuzz/" + name, [UInt8](try Data(contentsOf: Fuzz.folder.appendingPathComponent(name)))))
        }
        // 50 MiB XMP packets, written in pieces so the test itself stays small.
        regular.append(
            try Self.writeHuge(
                dir.path + "/big/xmp-50mib.png", Self.pngSignature + Self.ihdr,
                chunkHeader: Self.be32(50 << 20 + 22) + Array("iTXt".utf8) + Array("XML:com.adobe.xmp\0\0\0\0\0".utf8),
                body: 50 << 20, trailer: Self.iend))
        regular.append(
            try Self.writeHuge(
                dir.path + "/big/xmp-50mib.webp", Array("RIFF".utf8) + Self.le32(UInt32(50 << 20 + 12)) + Array("WEBP".utf8),
                chunkHeader: Array("XMP ".utf8) + Self.le32(50 << 20), body: 50 << 20, trailer: []))
        regular.append(
            try Self.writeHuge(
                dir.path + "/big/xmp-50mib.gif", Self.gifHeader,
                chunkHeader: [0x21, 0xFF, 0x0B] + Array("XMP DataXMP".utf8), body: 50 << 20,
                trailer: [0x01] + (0...255).reversed().map { UInt8($0) } + [0x00, 0x3B]))
        // A 0-byte file, a file whose name is not UTF-8, a folder named like a photo.
        regular.append(try dir.write("special/empty.jpg", []))
        let rawName = Array((dir.path + "/special/caf").utf8) + [0xE9] + Array(".jpg".utf8)
        let fd = open(rawName.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        _ = Self.soi.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        try FileManager.default.createDirectory(atPath: dir.path + "/special/x.jpg", withIntermediateDirectories: true)
        try dir.write("special/x.jpg/inside.jpg", Self.soi)
        regular.append(dir.path + "/special/x.jpg/inside.jpg")
        // Entries that are not regular files: a FIFO, a symlink loop, a dangling link, a link to
        // a folder, a link to a file.
        XCTAssertEqual(mkfifo(dir.path + "/special/pipe.jpg", 0o644), 0)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/special/loop-a.jpg", withDestinationPath: "loop-b.jpg")
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/special/loop-b.jpg", withDestinationPath: "loop-a.jpg")
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/special/dangling.jpg", withDestinationPath: "nowhere.jpg")
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/special/up.jpg", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/special/link.jpg", withDestinationPath: "empty.jpg")
        regular.append(dir.path + "/special/link.jpg")
        // An unreadable file (root reads it anyway: then it is an ordinary damaged JPEG).
        let locked = try dir.write("special/locked.jpg", Self.soi + Self.sof)
        XCTAssertEqual(chmod(locked, 0), 0)
        defer { chmod(locked, 0o644) }
        regular.append(locked)
        let specials = 5  // pipe, loop-a, loop-b, dangling, up

        // Every explicit path gets an entry whatever it is, and none blocks (the FIFO included).
        let explicit = [
            dir.path + "/special/pipe.jpg", dir.path + "/special/loop-a.jpg", dir.path + "/special/dangling.jpg",
            dir.path + "/special/x.jpg", dir.path + "/special/empty.jpg", locked, dir.path + "/does-not-exist.jpg",
        ]
        for path in explicit {
            guard let (asset, _) = Self.timed({ FileInspector.inspect(path: path) }) else {
                XCTFail("\(path): blocks")
                continue
            }
            if path == locked && getuid() == 0 {
                // Running as root: chmod 000 does not stop root, so the file is read (and is damaged).
                XCTAssertTrue(asset.truncated || !asset.diagnostics.isEmpty, path)
            } else {
                XCTAssertNotNil(asset.error, "\(path) has no error")
            }
        }
        let nonRecursive = CommandLinePaths(recursive: false).collect(explicit)
        XCTAssertEqual(nonRecursive.items.count + nonRecursive.errors.count, explicit.count, "\(nonRecursive.errors)")

        // The scan: every regular file an item, every other entry counted, nothing silently lost.
        let scan = CommandLinePaths(recursive: true).collect([dir.path])
        let items = Set(scan.items.map(\.path))
        for path in regular {
            XCTAssertTrue(items.contains(path), "\(path) was not listed (errors: \(scan.errors))")
        }
        // The name that is not UTF-8 is a file like any other: listed under its exact bytes.
        let raw = scan.items.first { PathBytes.hasRawBytes($0.path) }
        XCTAssertEqual(raw.map { PathBytes.encode($0.path) }, rawName, "the file whose name is not UTF-8 is an item")
        XCTAssertEqual(scan.notFiles, specials, "\(scan.items.map(\.path))")
        XCTAssertEqual(scan.items.count + scan.errors.count + scan.notFiles, regular.count + 1 + specials)

        // Each file alone: an entry within the hang guard.
        var slowest = (path: "", seconds: 0.0)
        for item in scan.items {
            guard let (asset, seconds) = Self.timed({ FileInspector.inspect(path: item.path, pairLivePhotos: false) }) else {
                XCTFail("\(item.path): still running after \(Self.abandonAfter) s (hang)")
                continue
            }
            if seconds > slowest.seconds { slowest = (item.path, seconds) }
            XCTAssertEqual(asset.path, item.path)
            Self.assertClean(asset, item.path)
        }

        // All of them through the runner: every item emitted once, in order; peak memory bounded.
        Self.resetPeakMemory()
        let before = Self.peakMemoryKiB()
        let collected = Collected()
        let start = Date()
        let counter = Counter()
        InspectionRunner.run(
            paths: [dir.path], recursive: true, problem: { _ in }, render: { _, asset in asset },
            emit: { asset in collected.add(counter.next(), asset) })
        let elapsed = Date().timeIntervalSince(start)
        let growthMiB = (Self.peakMemoryKiB() - before) / 1024
        XCTAssertEqual(collected.indexes, Array(0..<scan.items.count))
        XCTAssertEqual(collected.paths, scan.items.map(\.path))
        XCTAssertLessThan(growthMiB, 64, "peak memory grew by \(growthMiB) MiB inspecting \(scan.items.count) hostile files")
        print(
            "hostile folder: \(scan.items.count) files, \(scan.errors.count) errors, \(scan.notFiles) skipped, "
                + "\(String(format: "%.2f", elapsed)) s, peak memory +\(growthMiB) MiB; slowest alone: "
                + "\((slowest.path as NSString).lastPathComponent) \(String(format: "%.3f", slowest.seconds)) s")
    }

    /// Every finding in Fixtures/fuzz/ (see its README) inspected in memory: an entry, no crash.
    func testFuzzFindingsReplay() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fuzz.folder.path).filter { $0 != "README.md" }.sorted()
        XCTAssertFalse(names.isEmpty)
        let readme = try String(contentsOf: Fuzz.folder.appendingPathComponent("README.md"), encoding: .utf8)
        for name in names {
            XCTAssertTrue(readme.contains(name), "\(name) has no line in Fixtures/fuzz/README.md")
            let bytes = [UInt8](try Data(contentsOf: Fuzz.folder.appendingPathComponent(name)))
            guard let (asset, _) = Self.timed({ Fuzz.replay(name, bytes) }) else {
                XCTFail("\(name): still running after \(Self.abandonAfter) s (hang)")
                continue
            }
            _ = asset
        }
    }

    /// Each fuzz target's entry point, as Fuzz/Targets/ calls it, so a finding replays on the
    /// code path that found it (the file name starts with the target).
    enum Fuzz {
        static let folder = TestPaths.fixtures.appendingPathComponent("fuzz")

        static func replay(_ name: String, _ bytes: [UInt8]) -> Int {
            let target = name.split(separator: "-").first.map(String.init) ?? ""
            let reader = BoundedReader(MemoryByteSource(bytes))
            let detected = FormatDetector.detect(Array(bytes.prefix(FormatDetector.headerLength)))
            var payloads: ContainerFindings?
            switch target {
            case "jpeg": payloads = JPEGReader.read(reader)
            case "png": payloads = PNGReader.read(reader)
            case "gif": payloads = GIFReader.read(reader)
            case "webp": payloads = WebPReader.read(reader)
            case "tiff": payloads = TIFFReader.read(reader)
            case "heif": payloads = HEIFReader.read(reader, format: [.heic, .heif, .avif].contains(detected) ? detected : .heic)
            case "quicktime": payloads = QuickTimeReader.read(reader, format: detected == .mp4 ? .mp4 : .mov)
            case "exif", "exif_app1": return ExifDecoder.decode(tiff: bytes).diagnostics.count
            case "xmp": _ = XMPReader.read([bytes])
            case "filename": _ = FileNameDateParser.parse(String(decoding: bytes, as: UTF8.self))
            case "datetext":
                _ = DateTextParser.freeform(String(decoding: bytes, as: UTF8.self))
                if bytes.count >= 12 {
                    let seconds = bytes[0..<8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
                    _ = LocalDateTime(secondsAsIfUTC: seconds)
                }
            default: break
            }
            if let p = payloads {
                if let exif = p.exif { _ = ExifDecoder.decode(tiff: exif) }
                _ = XMPReader.read(p.xmp)
            }
            // And the whole pipeline, as `photometa inspect` sees the file.
            return Inspector.inspect(MemoryByteSource(bytes), path: name).diagnostics.count
        }
    }

    // MARK: - Helpers: time, memory

    /// A byte source that counts what was fetched from it: the work a case caused.
    final class CountingByteSource: ByteSource, Sendable {
        private let bytes: [UInt8]
        private let fetched = Mutex(0)
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var size: Int64 { Int64(bytes.count) }
        var bytesRead: Int { fetched.withLock { $0 } }
        func read(at offset: Int64, count: Int) throws -> [UInt8] {
            let r = try MemoryByteSource(bytes).read(at: offset, count: count)
            fetched.withLock { $0 += r.count }
            return r
        }
    }

    final class Collected: Sendable {
        private let state = Mutex<(indexes: [Int], paths: [String])>(([], []))
        var indexes: [Int] { state.withLock { $0.indexes } }
        var paths: [String] { state.withLock { $0.paths } }
        func add(_ i: Int, _ a: MediaAsset) {
            state.withLock {
                $0.indexes.append(i)
                $0.paths.append(a.path)
            }
        }
    }

    /// Numbers the emitted results (emit is serial, in order).
    final class Counter: Sendable {
        private let value = Mutex(0)
        func next() -> Int {
            value.withLock { v in
                defer { v += 1 }
                return v
            }
        }
    }

    final class Box<T>: @unchecked Sendable {
        var value: T?
        var seconds = 0.0
    }

    /// Runs `body` on another thread; nil when it has not finished after `abandonAfter` seconds
    /// (the thread is left behind so the suite goes on and reports the hang).
    static func timed<T>(_ body: @escaping () -> T) -> (T, Double)? {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        let work = UncheckedSendable(body)
        Thread.detachNewThread {
            let start = DispatchTime.now().uptimeNanoseconds
            box.value = work.value()
            box.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            done.signal()
        }
        guard done.wait(timeout: .now() + abandonAfter) == .success, let v = box.value else { return nil }
        return (v, box.seconds)
    }

    struct UncheckedSendable<T>: @unchecked Sendable {
        let value: T
        init(_ v: T) { value = v }
    }

    /// VmHWM, the process's peak resident memory, in KiB.
    static func peakMemoryKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }

    /// Writing 5 to clear_refs resets VmHWM to the current RSS (Linux 4.0+), so the measure that
    /// follows sees only the scan, not what building the test files cost.
    static func resetPeakMemory() {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return }
        _ = write(fd, "5", 1)
        close(fd)
    }

    /// Writes head + chunk header + `body` bytes of XMP-like text + trailer, 1 MiB at a time.
    static func writeHuge(_ path: String, _ head: [UInt8], chunkHeader: [UInt8], body: Int, trailer: [UInt8]) throws -> String {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? h.close() }
        try h.write(contentsOf: Data(head + chunkHeader + Array("<x:xmpmeta tiff:Make=\"".utf8)))
        let piece = Data(Array(String(repeating: "tiff:Make exif:DateTimeOriginal=", count: (1 << 20) / 32).utf8))
        var left = body - 22
        while left > 0 {
            let n = min(left, piece.count)
            try h.write(contentsOf: piece.prefix(n))
            left -= n
        }
        try h.write(contentsOf: Data(trailer))
        return path
    }

    // MARK: - Helpers: bytes (independent of the readers)

    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be64(_ v: UInt64) -> [UInt8] { be32(UInt32(v >> 32)) + be32(UInt32(v & 0xFFFF_FFFF)) }
    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { be32(v).reversed() }

    // JPEG
    static let soi: [UInt8] = [0xFF, 0xD8]
    static let sof: [UInt8] = [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x10, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00]
    static let sos: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x00, 0xFF, 0xD9]
    static func segment(_ marker: UInt8, length: Int? = nil, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(UInt16(length ?? payload.count + 2)) + payload
    }
    static func repeatedSegments(_ n: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(n * 6)
        for i in 0..<n { out += [0xFF, 0xE0 + UInt8(i % 16), 0x00, 0x04, 0x00, 0x00] }
        return out
    }

    // PNG (CRCs are not checked by photometa; zero is written)
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let ihdr = pngChunk("IHDR", be32(16) + be32(16) + [8, 2, 0, 0, 0])
    static let iend = pngChunk("IEND", [])
    static func pngChunk(_ type: String, claimed: UInt32? = nil, _ data: [UInt8]) -> [UInt8] {
        be32(claimed ?? UInt32(data.count)) + Array(type.utf8) + data + [0, 0, 0, 0]
    }

    // ISO BMFF
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { box(Array(type.utf8), body) }
    static func box(_ type: [UInt8], _ body: [UInt8]) -> [UInt8] { be32(UInt32(body.count + 8)) + type + body }
    static func fullBox(_ type: String, _ body: [UInt8], version: UInt8 = 0) -> [UInt8] { box(type, [version, 0, 0, 0] + body) }
    static let ftypQT = box("ftyp", Array("qt  ".utf8) + [0, 0, 0, 0] + Array("qt  ".utf8))
    static let ftypMP4 = box("ftyp", Array("isom".utf8) + [0, 0, 0, 0] + Array("isommp42".utf8))
    static let ftypHEIC = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
    static let hdlrPict = fullBox("hdlr", [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
    static let iinfExif = fullBox("iinf", be16(1) + fullBox("infe", be16(1) + be16(0) + Array("Exif".utf8) + [0], version: 2))

    /// Boxes nested `types.count` deep, each exactly holding the next (written in one pass).
    static func nested(_ types: [String]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(types.count * 8)
        for (i, t) in types.enumerated() { out += be32(UInt32((types.count - i) * 8)) + Array(t.utf8) }
        return out
    }

    /// A box whose child claims the parent's own size (and so on `depth` times).
    static func selfContaining(_ type: String, depth: Int) -> [UInt8] {
        let size = UInt32(8 * depth + 8)
        return (0..<depth).flatMap { _ in be32(size) + Array(type.utf8) } + [UInt8](repeating: 0, count: 8)
    }

    /// A HEIC whose Exif item 1 has one extent (4-byte offset and length fields).
    static func heif(exifItemAt offset: UInt32, length: UInt32) -> [UInt8] {
        let iloc = fullBox("iloc", [0x44, 0x00] + be16(1) + be16(1) + be16(0) + be16(1) + be32(offset) + be32(length))
        return ftypHEIC + fullBox("meta", hdlrPict + iinfExif + iloc)
    }

    /// A HEIC whose Exif item holds `payload`, stored at the end of the file.
    static func heifExifItem(payload: [UInt8]) -> [UInt8] {
        let probe = heif(exifItemAt: 0, length: UInt32(payload.count))
        return heif(exifItemAt: UInt32(probe.count), length: UInt32(payload.count)) + payload
    }

    // WebP
    static func riffChunk(_ type: String, claimed: UInt32? = nil, _ data: [UInt8]) -> [UInt8] {
        Array(type.utf8) + le32(claimed ?? UInt32(data.count)) + data + (data.count % 2 == 1 ? [0] : [])
    }
    static func riff(_ chunks: [[UInt8]]) -> [UInt8] {
        let body = chunks.flatMap { $0 }
        return Array("RIFF".utf8) + le32(UInt32(body.count + 4)) + Array("WEBP".utf8) + body
    }

    // GIF
    static let gifHeader: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x00, 0, 0]
    static let gifFrame: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00]

    // TIFF (little-endian): IFD0 at 8 with Make (ASCII) and optionally an ExifIFD pointer;
    // `next` is IFD0's next-IFD offset.
    static func tiffLE(make: String = "Acme", next: UInt32 = 0, exifIFD: UInt32? = nil) -> [UInt8] {
        tiffLE(makeBytes: Array(make.utf8) + [0], next: next, exifIFD: exifIFD)
    }
    static func tiffLE(makeBytes: [UInt8], next: UInt32 = 0, exifIFD: UInt32? = nil) -> [UInt8] {
        let count = exifIFD == nil ? 1 : 2
        let valueOffset = UInt32(8 + 2 + 12 * count + 4)
        var out: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(8) + le16(UInt16(count))
        out +=
            le16(0x010F) + le16(2) + le32(UInt32(makeBytes.count))
            + (makeBytes.count <= 4
                ? makeBytes + [UInt8](repeating: 0, count: 4 - makeBytes.count) : le32(valueOffset))
        if let e = exifIFD { out += le16(0x8769) + le16(4) + le32(1) + le32(e) }
        out += le32(next)
        if makeBytes.count > 4 { out += makeBytes }
        return out
    }

    /// IFD0 → IFD1 → IFD0 → ...
    static func tiffTwoIFDLoop() -> [UInt8] {
        var out: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(8)
        out += le16(1) + le16(0x0112) + le16(3) + le32(1) + le16(6) + [0, 0] + le32(26)  // IFD0 at 8, next 26
        out += le16(1) + le16(0x0103) + le16(3) + le32(1) + le16(6) + [0, 0] + le32(8)  // IFD1 at 26, next 8
        return out
    }
}
