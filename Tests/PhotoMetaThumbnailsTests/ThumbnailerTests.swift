import Foundation
import PhotoMeta
import PhotoMetaTestSupport
import XCTest

@testable import PhotoMetaCore
@testable import PhotoMetaSystem
@testable import PhotoMetaThumbnailCache
@testable import PhotoMetaThumbnails

/// Fixtures/thumbnails (made by Fixtures/make_thumbnail_fixtures.py; Fixtures/README.md).
enum ThumbnailFixtures {
    static let root = TestPaths.root
    static func path(_ name: String) -> String { TestPaths.thumbnails.appendingPathComponent(name).path }
    static func library(_ name: String) -> String { TestPaths.fixture(name) }
    static let corpus = TestPaths.corpus
}

/// A folder removed at the end of the test.
typealias ScratchFolder = TemporaryDirectory

final class ThumbnailerTests: XCTestCase {
    let noCache = Thumbnailer(cache: nil)

    func box(_ n: Int, _ mode: ThumbnailRequest.Mode = .fit, _ format: ThumbnailFormat = .png) -> ThumbnailRequest {
        ThumbnailRequest(width: n, height: n, mode: mode, format: format)
    }

    /// True when the pixel is the fixtures' red mark.
    func isRed(_ t: Thumbnail, _ x: Int, _ y: Int) -> Bool {
        guard let p = VipsCodec.pixel(t.bytes, x: x, y: y), p.count >= 3 else { return false }
        return p[0] > 150 && p[1] < 100 && p[2] < 100
    }

    /// EXIF orientations 1-8 applied: the stored top-left red block lands where a viewer shows it.
    func testEveryOrientationIsShownAsAViewerShowsIt() throws {
        // Where the stored top-left corner goes [EXIF 2.32 4.6.4 A, Orientation].
        let corners = [1: "TL", 2: "TR", 3: "BR", 4: "BL", 5: "TL", 6: "TR", 7: "BR", 8: "BL"]
        for n in 1...8 {
            let t = try noCache.thumbnail(of: ThumbnailFixtures.path("orient\(n).jpg"), box(32))
            let (w, h) = n >= 5 ? (24, 32) : (32, 24)
            XCTAssertEqual([t.width, t.height], [w, h], "orientation \(n)")
            XCTAssertEqual(t.source, .decoded)
            let at: [String: (Int, Int)] = ["TL": (1, 1), "TR": (w - 2, 1), "BR": (w - 2, h - 2), "BL": (1, h - 2)]
            for (corner, (x, y)) in at {
                XCTAssertEqual(isRed(t, x, y), corner == corners[n], "orientation \(n), corner \(corner)")
            }
        }
    }

    func testModesAndNeverEnlarged() throws {
        let f = ThumbnailFixtures.path("orient1.jpg")  // 64x48
        XCTAssertEqual(try sizeOf(noCache.thumbnail(of: f, box(32, .fill))), [43, 32])
        XCTAssertEqual(try sizeOf(noCache.thumbnail(of: f, box(32, .crop))), [32, 32])
        XCTAssertEqual(try sizeOf(noCache.thumbnail(of: f, box(1000))), [64, 48], "never enlarged")
        XCTAssertEqual(try sizeOf(noCache.thumbnail(of: f, box(1000, .crop))), [64, 48])
        XCTAssertEqual(
            try sizeOf(noCache.thumbnail(of: f, ThumbnailRequest(width: 40, height: 10, mode: .fit))), [13, 10])
        XCTAssertEqual(ThumbnailRequest(width: 256, height: 256, mode: .fill).outputSize(forPicture: 4000, 1000).width, 1024)
    }

    func sizeOf(_ t: Thumbnail) -> [Int] { [t.width, t.height] }

    func testFormatsAndAlpha() throws {
        let png = try noCache.thumbnail(of: ThumbnailFixtures.path("alpha.png"), box(32))
        XCTAssertEqual(VipsCodec.pixel(png.bytes, x: 28, y: 10)?.count, 4, "PNG keeps alpha")
        XCTAssertEqual(VipsCodec.pixel(png.bytes, x: 28, y: 10)?.last, 0, "the transparent half stays transparent")
        let jpeg = try noCache.thumbnail(of: ThumbnailFixtures.path("alpha.png"), box(32, .fit, .jpeg))
        XCTAssertEqual(Array(jpeg.bytes.prefix(2)), [0xFF, 0xD8])
        let white = try XCTUnwrap(VipsCodec.pixel(jpeg.bytes, x: 28, y: 10))
        XCTAssertTrue(white.prefix(3).allSatisfy { $0 > 240 }, "JPEG flattens alpha on white: \(white)")
        let webp = try noCache.thumbnail(of: ThumbnailFixtures.path("alpha.png"), box(32, .fit, .webp))
        XCTAssertEqual(Array(webp.bytes[8..<12]), Array("WEBP".utf8))
        XCTAssertEqual(VipsCodec.pixel(webp.bytes, x: 28, y: 10)?.count, 4, "WebP keeps alpha")
    }

    /// libvips starts with the HEIF loader module only: the modules whose loaders it blocks as
    /// untrusted (ImageMagick, PDF, OpenSlide, JPEG XL) and the libraries they bring are never
    /// mapped into a process that decodes hostile files (CVipsRuntime.c), and HEIC still decodes.
    func testOnlyTheAdmittedLoaderModuleIsLoaded() throws {
        let heic = try noCache.thumbnail(of: ThumbnailFixtures.path("plain.heic"), box(32))
        XCTAssertEqual(sizeOf(heic), [32, 24])
        // /proc files say size 0: read to the end, not by size.
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/maps"))
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        try? handle.close()
        XCTAssertTrue(maps.contains("/libvips.so"))
        for refused in ["vips-magick", "vips-poppler", "vips-openslide", "vips-jxl", "libMagickCore", "libpoppler"] {
            XCTAssertFalse(maps.contains(refused), "\(refused) is mapped")
        }
        // Where libvips comes with modules (Debian's), the HEIF one is the one that was opened.
        let libvips = maps.split(separator: "\n").compactMap { line in
            line.split(separator: " ").last.map(String.init).flatMap { $0.contains("/libvips.so") ? $0 : nil }
        }.first
        let dir = try XCTUnwrap(libvips.map { ($0 as NSString).deletingLastPathComponent })
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: dir))?.filter { $0.hasPrefix("vips-modules-") } ?? []
        if folders.contains(where: { FileManager.default.fileExists(atPath: dir + "/" + $0 + "/vips-heif.so") }) {
            XCTAssertTrue(maps.contains("/vips-heif.so"), "the HEIF module is not loaded")
        }
    }

    func testFirstFrameHEICAndVideo() throws {
        let gif = try noCache.thumbnail(of: ThumbnailFixtures.path("anim.gif"), box(16))
        XCTAssertTrue(isRed(gif, 8, 8), "the first frame (red), not a later one (blue)")
        let heic = try noCache.thumbnail(of: ThumbnailFixtures.path("plain.heic"), box(32))
        XCTAssertEqual(sizeOf(heic), [32, 24])
        XCTAssertTrue(isRed(heic, 1, 1))
        let clip = try noCache.thumbnail(of: ThumbnailFixtures.path("clip.mp4"), box(32))
        XCTAssertEqual(clip.source, .videoFrame)
        XCTAssertEqual(sizeOf(clip), [32, 24])
        let webm = try noCache.thumbnail(of: ThumbnailFixtures.path("clip.webm"), box(32))
        XCTAssertEqual(webm.source, .videoFrame)
        XCTAssertEqual(sizeOf(webm), [32, 24])
        let m2ts = try noCache.thumbnail(of: ThumbnailFixtures.path("clip.m2ts"), box(32))
        XCTAssertEqual(m2ts.source, .videoFrame, "an AVCHD-style transport stream")
        XCTAssertEqual(sizeOf(m2ts), [32, 24])
        let mpeg = try noCache.thumbnail(of: ThumbnailFixtures.path("clip.mpg"), box(32))
        XCTAssertEqual(mpeg.source, .videoFrame, "an MPEG program stream")
        XCTAssertEqual(sizeOf(mpeg), [32, 24])
        for legacy in ["clip.flv", "clip.wmv"] {
            let t = try noCache.thumbnail(of: ThumbnailFixtures.path(legacy), box(32))
            XCTAssertEqual(t.source, .videoFrame, legacy)
            XCTAssertEqual(sizeOf(t), [32, 24], legacy)
        }
    }

    /// A Motion Photo's thumbnail is its still, never its video (issue 22).
    func testAMotionPhotoShowsItsStill() throws {
        for name in ["motion.MP.jpg", "motion_samsung.jpg"] {
            let t = try noCache.thumbnail(of: ThumbnailFixtures.library("../formats/" + name), box(32))
            XCTAssertEqual(t.source, .decoded, name)
            XCTAssertEqual(sizeOf(t), [16, 8], name)
        }
    }

    /// JPEG XL's loader is one libvips marks untrusted: a clear per-file error (docs/thumbnails.md).
    func testJPEGXLIsABlockedFormat() {
        XCTAssertThrowsError(try noCache.thumbnail(of: ThumbnailFixtures.library("../formats/photo.jxl"), box(32))) {
            XCTAssertTrue(String(describing: $0).contains("blocked (untrusted format)"), "\($0)")
        }
    }

    /// A portrait phone video is stored landscape with a 90-degree matrix: its size is the
    /// frame's as shown, in every mode and through the cache.
    func testARotatedVideoIsShownUpright() throws {
        let f = ThumbnailFixtures.path("rotated.mp4")  // stored 64x48, shown 48x64
        XCTAssertEqual(try sizeOf(noCache.thumbnail(of: f, box(32))), [24, 32])
        XCTAssertEqual(try sizeOf(noCache.thumbnail(of: f, box(20, .crop))), [20, 20])
        XCTAssertEqual(try sizeOf(noCache.thumbnail(of: f, box(20, .fill))), [20, 27])
        let scratch = try ScratchFolder()
        let cached = Thumbnailer(cache: ThumbnailCache(root: scratch.path + "/thumbnails"))
        XCTAssertEqual(try sizeOf(cached.thumbnail(of: f, box(20, .crop))), [20, 20])
        XCTAssertEqual(try sizeOf(cached.thumbnail(of: f, box(256))), [48, 64])
    }

    /// A frame many times the box is shrunk by a whole factor before the resize
    /// (`pm_video_box_shrink`): the sizes are those of a resize in one go, and the picture is
    /// the frame's (its blue and yellow halves where they were).
    func testALargeVideoFrameKeepsItsSizeAndColoursThroughTheBoxShrink() throws {
        let f = ThumbnailFixtures.path("wide.mp4")  // 1280x720: blue left half, yellow right half
        let fit = try noCache.thumbnail(of: f, box(64))
        XCTAssertEqual(sizeOf(fit), [64, 36])
        let blue = try XCTUnwrap(VipsCodec.pixel(fit.bytes, x: 8, y: 18))
        let yellow = try XCTUnwrap(VipsCodec.pixel(fit.bytes, x: 56, y: 18))
        XCTAssertTrue(blue[2] > 150 && blue[0] < 80, "left half blue: \(blue)")
        XCTAssertTrue(yellow[0] > 180 && yellow[1] > 150 && yellow[2] < 100, "right half yellow: \(yellow)")
        XCTAssertEqual(try sizeOf(noCache.thumbnail(of: f, box(36, .crop))), [36, 36])
        XCTAssertEqual(try sizeOf(noCache.thumbnail(of: f, box(36, .fill))), [64, 36])
        XCTAssertEqual(try sizeOf(noCache.thumbnail(of: f, box(100))), [100, 56])
    }

    /// A real iPhone HEIC: ispe 4032x3024, irot 270, EXIF Orientation 6: rotated once (portrait).
    func testIPhoneHEICIsRotatedOnce() throws {
        guard let corpus = ThumbnailFixtures.corpus else { throw XCTSkip("../shared/corpus not found: iPhone HEIC test skipped") }
        let file = corpus.appendingPathComponent("photoprism/assets/examples/iphone_15_pro.heic").path
        let asset = FileInspector.inspect(path: file)
        XCTAssertEqual(asset.orientation, 6)
        XCTAssertEqual(asset.rotation, 270)
        let t = try noCache.thumbnail(of: file, box(256))
        XCTAssertEqual(sizeOf(t), [192, 256], "irot applied, EXIF orientation not on top")
        let small = try noCache.thumbnail(of: file, box(128))
        XCTAssertEqual(small.source, .embeddedHEIF, "the 320x240 thmb item is large enough for 128")
        XCTAssertEqual(sizeOf(small), [96, 128])
    }

    /// Fit without the cache is the size `outputSize` says, as through the cache: 600x315 in
    /// 256 is 256x134 (it was 255x134: libvips fitted the picture into the rounded output
    /// size and rounded again); 590x88 is 256x38.
    func testFitWithoutTheCacheIsTheOutputSize() throws {
        guard let corpus = ThumbnailFixtures.corpus else { throw XCTSkip("../shared/corpus not found: fit size test skipped") }
        for (name, expected) in [
            ("test-assets/formats/webp/denali.webp", [256, 134]), ("Pillow/Tests/images/g4_orientation_1.tif", [256, 38]),
        ] {
            let file = corpus.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: file) else { continue }
            XCTAssertEqual(try sizeOf(noCache.thumbnail(of: file, box(256))), expected, name)
        }
    }

    func testEmbeddedPreviewOnlyWhenLargeEnoughAndOfTheSameAspect() throws {
        // ifd1.jpg: a 640x480 blue picture with a 160x120 green IFD1 thumbnail.
        let f = ThumbnailFixtures.path("ifd1.jpg")
        let small = try noCache.thumbnail(of: f, box(128))
        XCTAssertEqual(small.source, .embeddedEXIF)
        let green = try XCTUnwrap(VipsCodec.pixel(small.bytes, x: 100, y: 80))
        XCTAssertTrue(green[1] > 150 && green[2] < 100, "\(green)")
        let big = try noCache.thumbnail(of: f, box(256))
        XCTAssertEqual(big.source, .decoded, "160x120 is smaller than the box")
        var fast = box(256)
        fast.delivery = .fast
        let quick = try noCache.thumbnail(of: f, fast)
        XCTAssertEqual(quick.source, .embeddedEXIF)
        XCTAssertTrue(quick.isDegraded)
        XCTAssertEqual(sizeOf(quick), [160, 120])
        // stale_ifd1.jpg: the thumbnail is square, the picture 4:3: never used.
        let stale = try noCache.thumbnail(of: ThumbnailFixtures.path("stale_ifd1.jpg"), fast)
        XCTAssertEqual(stale.source, .decoded)
        XCTAssertEqual(PreviewFinder.previews(try FileByteSource(path: f)).map(\.width), [160])
    }

    func testOpportunisticGivesTheQuickPictureFirst() async throws {
        var r = box(256)
        r.delivery = .opportunistic
        var got: [Thumbnail.Source] = []
        for try await t in noCache.thumbnails(of: ThumbnailFixtures.path("ifd1.jpg"), r) { got.append(t.source) }
        XCTAssertEqual(got, [.embeddedEXIF, .decoded])
        got = []
        for try await t in noCache.thumbnails(of: ThumbnailFixtures.path("orient1.jpg"), r) { got.append(t.source) }
        XCTAssertEqual(got, [.decoded], "no quick picture: one element")
    }

    func testRawPreview() throws {
        let t = try noCache.thumbnail(
            of: ThumbnailFixtures.root.appendingPathComponent("Fixtures/formats/fuji.raf").path, box(256))
        XCTAssertEqual(t.source, .embeddedRaw)
        XCTAssertEqual(sizeOf(t), [16, 8])
        XCTAssertThrowsError(
            try noCache.thumbnail(
                of: ThumbnailFixtures.root.appendingPathComponent("Fixtures/formats/nef_like.nef").path, box(256))
        ) { XCTAssertEqual($0 as? ThumbnailError, .noPreview) }
    }

    /// A plain TIFF whose Exif IFD keeps an earlier size (an editor resized it) is its IFD0
    /// picture, decoded: not taken for a raw whose IFD0 would be a preview.
    func testAResizedTIFFIsDecodedNotTakenForARaw() throws {
        let t = try noCache.thumbnail(
            of: ThumbnailFixtures.root.appendingPathComponent("Fixtures/formats/resized.tif").path, box(256))
        XCTAssertEqual(t.source, .decoded)
        XCTAssertEqual(sizeOf(t), [4, 4])
    }

    /// Hostile and broken files: a per-file error, bounded work, never a crash.
    func testBadInputGetsAnErrorNotACrash() throws {
        func reason(_ path: String) -> ThumbnailError? {
            do {
                _ = try noCache.thumbnail(of: path, box(64))
                return nil
            } catch { return error }
        }
        guard case .tooManyPixels = reason(ThumbnailFixtures.path("huge.png")) else { return XCTFail("100000x100000 refused") }
        guard case .noVideoFrame = reason(ThumbnailFixtures.path("no_video.m4a")) else { return XCTFail("no video track") }
        guard case .cannotDecode = reason(ThumbnailFixtures.library("IMG_0001.HEIC")) else { return XCTFail("broken HEIC") }
        XCTAssertNotNil(reason(ThumbnailFixtures.library("notes.txt")))
        XCTAssertNotNil(reason("/nonexistent/photo.jpg"))
        XCTAssertNotNil(reason(NSTemporaryDirectory()))
        let scratch = try ScratchFolder()
        // A JPEG cut in half, a JPEG declaring 65000x65000, a GIF of 10,000 frames.
        let whole = try Data(contentsOf: URL(fileURLWithPath: ThumbnailFixtures.path("orient1.jpg")))
        let cut = scratch.path + "/cut.jpg"
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
        XCTAssertNotNil(reason(cut), "a truncated JPEG is an error, not a grey picture")
        // SOI, SOF0 declaring 65000 x 65000 (JPEG's largest is 65535), EOI [T.81 B.2.2].
        let bigJPEG = scratch.path + "/big.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, 0xFD, 0xE8, 0xFD, 0xE8, 1, 1, 0x11, 0, 0xFF, 0xD9]).write(
            to: URL(fileURLWithPath: bigJPEG))
        guard case .tooManyPixels = reason(bigJPEG) else { return XCTFail("65000x65000 JPEG refused") }
        var gif = Data("GIF89a".utf8) + Data([1, 0, 1, 0, 0x80, 0, 0]) + Data([0, 0, 0, 255, 0, 0])
        for _ in 0..<10_000 {
            gif += Data([0x21, 0xF9, 0x04, 0x04, 0x0A, 0x00, 0x00, 0x00])
            gif += Data([0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00])
        }
        gif += Data([0x3B])
        let many = scratch.path + "/many.gif"
        try gif.write(to: URL(fileURLWithPath: many))
        XCTAssertEqual(try sizeOf(noCache.thumbnail(of: many, box(64))), [1, 1], "the first of 10,000 frames")
        var request = box(64)
        request.maxPixels = 1000
        XCTAssertThrowsError(try noCache.thumbnail(of: ThumbnailFixtures.path("ifd1.jpg"), request), "--max-pixels")
    }

    /// A file cut short gets an error that says so before the decoder's own words, and a
    /// decoder that says one thing many times (libtiff's "bad seek" at each strip) says it once,
    /// with a `;` in the file's name left as it is.
    func testATruncatedFileIsNamedAsTruncatedAndTheDecodersLinesComeOnce() throws {
        let scratch = try ScratchFolder()
        // A TIFF whose directory follows its pixels (as libtiff writes them): cut, libvips
        // cannot read its header, which made it look like a raw without a preview.
        var tailIFD = Data("II*\0".utf8) + Data([24, 0, 0, 0]) + Data((0..<16).map { UInt8($0 * 10) })
        let entries: [(UInt16, UInt16, UInt32)] = [
            (256, 3, 4), (257, 3, 4), (258, 3, 8), (259, 3, 1), (262, 3, 1), (273, 4, 8), (278, 3, 4), (279, 4, 16),
        ]
        tailIFD += Data([UInt8(entries.count), 0])
        for (tag, type, value) in entries {
            tailIFD += Data([UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(type), 0, 1, 0, 0, 0])
            tailIFD += Data([UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), 0, 0])
        }
        tailIFD += Data([0, 0, 0, 0])
        let wholeTIFF = scratch.path + "/tail-ifd.tif"
        try tailIFD.write(to: URL(fileURLWithPath: wholeTIFF))
        XCTAssertEqual(try sizeOf(noCache.thumbnail(of: wholeTIFF, box(64))), [4, 4], "the whole TIFF decodes")
        var cuts: [(name: String, bytes: Data)] = [("cut;tail-ifd.tif", tailIFD)]
        for name in ["scan.tif", "IMG_0420.PNG", "anim.gif", "photo.webp", "clip.mp4"] {
            cuts.append(("cut;" + name, try Data(contentsOf: URL(fileURLWithPath: ThumbnailFixtures.library(name)))))
        }
        for (name, whole) in cuts {
            let cut = scratch.path + "/" + name
            try whole.prefix(whole.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
            do {
                let t = try noCache.thumbnail(of: cut, box(64))
                XCTFail("\(name) cut to two thirds gave a \(t.width)x\(t.height) thumbnail")
            } catch {
                let text = error.description
                XCTAssertTrue(text.contains("the file is truncated"), "\(name): \(text)")
                XCTAssertFalse(text.contains("raw sensor data"), "\(name): \(text)")
                // Each "bad seek to N" at most once; a path in the text is whole.
                for seek in Set(text.matches(of: /bad seek to [0-9]+/).map { String($0.output) }) {
                    XCTAssertEqual(text.ranges(of: seek + ";").count + (text.hasSuffix(seek) ? 1 : 0), 1, "\(name): \(text)")
                }
                if text.contains(scratch.path) { XCTAssertTrue(text.contains(cut), "\(name): \(text)") }
            }
        }
        // A whole file that fails says nothing of truncation (the no_video.m4a audio file).
        do {
            _ = try noCache.thumbnail(of: ThumbnailFixtures.path("no_video.m4a"), box(64))
            XCTFail("an audio file has no frame")
        } catch {
            XCTAssertFalse(error.description.contains("truncated"), error.description)
        }
    }
}

final class ThumbnailCacheTests: XCTestCase {
    func testEntriesAreSharedValidatedAndPrivate() throws {
        let scratch = try ScratchFolder()
        let cache = ThumbnailCache(root: scratch.path + "/cache/thumbnails")
        let thumbnailer = Thumbnailer(cache: cache)
        let photo = try scratch.copy(ThumbnailFixtures.path("orient6.jpg"))
        let first = try thumbnailer.thumbnail(of: photo, ThumbnailRequest(width: 256, height: 256))
        XCTAssertEqual(first.source, .decoded)
        let entry = try XCTUnwrap(first.path)
        // Named by the MD5 of the file URI, in large/ (256), with the standard's keys.
        let canonical = try FileSystem.canonicalPath(photo)
        let uri = "file://" + canonical
        XCTAssertEqual(entry, cache.root + "/large/" + ThumbnailCache.md5(uri) + ".png")
        let text = PNGText.chunks(first.bytes)
        XCTAssertEqual(text["Thumb::URI"], uri)
        let facts = try FileFacts.of(photo)
        XCTAssertEqual(text["Thumb::MTime"], String(facts.modification.seconds))
        XCTAssertEqual(text["Thumb::Size"], String(facts.size))
        XCTAssertEqual(try FileFacts.of(entry).permissions, 0o600)
        for folder in [cache.root, cache.root + "/large"] { XCTAssertEqual(try FileFacts.of(folder).permissions, 0o700) }
        // Reused while valid; a smaller box is derived from it.
        let again = try thumbnailer.thumbnail(of: photo, ThumbnailRequest(width: 256, height: 256))
        XCTAssertEqual(again.source, .cache)
        XCTAssertEqual(again.bytes, first.bytes)
        XCTAssertEqual(try thumbnailer.thumbnail(of: photo, ThumbnailRequest(width: 200, height: 200)).source, .cache)
        // A stale entry (the file changed) is replaced.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: photo)
        let fresh = try thumbnailer.thumbnail(of: photo, ThumbnailRequest(width: 256, height: 256))
        XCTAssertEqual(fresh.source, .decoded)
        XCTAssertEqual(PNGText.chunks(try [UInt8](Data(contentsOf: URL(fileURLWithPath: entry))))["Thumb::MTime"], "1600000000")
        // The name comes from GLib, as file managers make it: spaces and non-ASCII escaped.
        XCTAssertEqual(ThumbnailCache.fileURI("/home/u/a b/é.jpg"), "file:///home/u/a%20b/%C3%A9.jpg")
    }

    /// A file reached through a linked folder (`~/Pictures` -> `/data/Pictures`) is named as a
    /// file manager names it: by the path as given, the link kept, `.` and `..` removed by name;
    /// GNOME looks for its thumbnail there and finds photometa's. Where removing `..` by name
    /// leads to another file (a link before it), the file read is named by its canonical path.
    func testEntriesAreNamedByThePathAsGiven() throws {
        let scratch = try ScratchFolder()
        for f in ["data/sub", "other"] {
            try FileManager.default.createDirectory(atPath: scratch.path + "/" + f, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path + "/Pictures", withDestinationPath: scratch.path + "/data")
        let photo = try scratch.copy(ThumbnailFixtures.path("orient1.jpg"), as: "data/a.jpg")
        let viaLink = scratch.path + "/Pictures/a.jpg"
        let facts = try FileFacts.of(photo)
        XCTAssertEqual(ThumbnailCache.pathAsGiven(viaLink, facts: facts), viaLink)
        XCTAssertEqual(ThumbnailCache.pathAsGiven(scratch.path + "/Pictures/./sub/../a.jpg", facts: facts), viaLink)
        // other/link -> ../data/sub: other/link/../a.jpg is data/a.jpg to the kernel, other/a.jpg by name.
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/other/link", withDestinationPath: "../data/sub")
        _ = try scratch.copy(ThumbnailFixtures.path("srgb.jpg"), as: "other/a.jpg")
        XCTAssertEqual(
            ThumbnailCache.pathAsGiven(scratch.path + "/other/link/../a.jpg", facts: facts), try FileSystem.canonicalPath(photo))
        let cache = ThumbnailCache(root: scratch.path + "/thumbnails")
        _ = try Thumbnailer(cache: cache).thumbnail(of: viaLink, ThumbnailRequest(width: 256, height: 256))
        let uri = try XCTUnwrap(ThumbnailCache.fileURI(viaLink))
        let entry = cache.root + "/large/" + ThumbnailCache.md5(uri) + ".png"
        XCTAssertEqual(PNGText.chunks(try [UInt8](Data(contentsOf: URL(fileURLWithPath: entry))))["Thumb::URI"], uri)
    }

    func testFailuresAreRecordedAndNotRetriedUntilTheFileChanges() throws {
        let scratch = try ScratchFolder()
        let cache = ThumbnailCache(root: scratch.path + "/thumbnails")
        let thumbnailer = Thumbnailer(cache: cache)
        let movie = try scratch.copy(ThumbnailFixtures.path("no_video.m4a"))
        XCTAssertThrowsError(try thumbnailer.thumbnail(of: movie, ThumbnailRequest())) {
            guard case .noVideoFrame = $0 as? ThumbnailError else { return XCTFail("\($0)") }
        }
        let failures = cache.root + "/fail/photometa-\(PhotoMetaThumbnails.version)"
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: failures).count, 1)
        XCTAssertThrowsError(try thumbnailer.thumbnail(of: movie, ThumbnailRequest())) {
            guard case .failedBefore = $0 as? ThumbnailError else { return XCTFail("\($0)") }
        }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: movie)
        XCTAssertThrowsError(try thumbnailer.thumbnail(of: movie, ThumbnailRequest())) {
            guard case .noVideoFrame = $0 as? ThumbnailError else { return XCTFail("changed: tried again, \($0)") }
        }
    }

    func testBuckets() {
        XCTAssertEqual(ThumbnailCache.Bucket.holding(100), .normal)
        XCTAssertEqual(ThumbnailCache.Bucket.holding(200), .large)
        XCTAssertEqual(ThumbnailCache.Bucket.holding(1024), .xxLarge)
        XCTAssertNil(ThumbnailCache.Bucket.holding(1025))
        XCTAssertEqual(ThumbnailCache.standard(environment: ["XDG_CACHE_HOME": "/x"]).root, "/x/thumbnails")
        XCTAssertEqual(
            ThumbnailCache.standard(environment: ["HOME": "/h", "XDG_CACHE_HOME": "rel"]).root, "/h/.cache/thumbnails")
    }
}
