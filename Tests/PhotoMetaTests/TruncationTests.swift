import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// Feeds cut prefixes of real files to the pure inspector: it must never crash, must always give
/// an entry, and must flag a cut file (truncated, an error, or a diagnostic the whole file does
/// not have).
///
/// Cut points: every 1/16 of the file, plus every structural boundary found by the small walkers
/// below (written apart from the readers, so a reader bug is not mirrored here): JPEG marker
/// segment starts and ends, PNG chunk starts, ISO BMFF top-level boxes and the children of
/// `meta` and `moov`, WebP chunks, GIF blocks, the TIFF IFD0 table.
final class TruncationTests: XCTestCase {
    struct Cut: CustomStringConvertible {
        let file: String
        let size: Int
        let cut: Int
        let place: String
        var description: String { "\(file) cut at \(cut) of \(size) (\(place))" }
    }

    /// Cuts that photometa does not flag today, each a named, explained gap. A cut that is not
    /// flagged and fits none of these fails the test; a gap that no longer occurs over the
    /// library fails too (remove it once the reader is fixed).
    enum Gap: String, CaseIterable {
        /// By design: a TIFF whose image data precedes IFD0 and that is cut inside the tag values
        /// after the IFD0 table: libexif drops such entries with DEBUG-level messages only, and
        /// photometa does not walk the IFD itself. (Cuts in IFD0's table or in the strips are
        /// flagged.)
        case tiffCutInValues = "TIFF cut inside tag values after the IFD0 table"
        /// Legitimate: every box photometa reads is whole; only sample data is lost, and
        /// photometa never reads sample tables (stco/co64) that would show it.
        case movieCutAfterMoov = "ISO BMFF movie cut exactly at a top-level box boundary after moov"
    }

    struct Tally {
        var cuts = 0
        var flagged = 0
        var gaps: [Gap: [Cut]] = [:]
        var unexplained: [Cut] = []
    }

    // MARK: - Fixtures/library

    func testLibraryPrefixesAreFlagged() throws {
        let files = try libraryFiles()
        XCTAssertFalse(files.isEmpty, "no fixtures found in \(TestPaths.library.path)")
        var tally = Tally()
        for (name, bytes) in files {
            var points = Set((0..<16).map { bytes.count * $0 / 16 })
            points.formUnion(Self.boundaries(bytes).map(\.offset))
            check(name, bytes, cuts: points, into: &tally)
        }
        report("library, \(files.count) files", tally)
        // The TIFF gap needs a TIFF with its image data before IFD0, which only the corpus has.
        for gap in Gap.allCases where tally.gaps[gap] == nil && gap != .tiffCutInValues {
            XCTFail(
                "known truncation gap no longer occurs over Fixtures/library: \(gap.rawValue); remove it from TruncationTests.Gap"
            )
        }
    }

    /// A Motion Photo (Google's directory or MicroVideo) or an Ultra HDR JPEG cut inside what
    /// its XMP says follows the image (a copy paused in the movie or the gain map): truncated,
    /// at every cut from the movie's fourth byte (its first three, the size's zeros, read as
    /// padding after the image) to the last byte short.
    func testAppendedItemsCutShortAreFlagged() throws {
        for name in ["motion.MP.jpg", "microvideo.jpg", "ultrahdr.jpg"] {
            let bytes = try TestPaths.bytes("../formats/" + name)
            XCTAssertFalse(MediaAsset.from(bytes, path: name).truncated, name)
            // The primary image's end: an EOI right before a movie (`ftyp`) or a JPEG (SOI).
            let eoi = try XCTUnwrap(
                (2..<bytes.count - 8).first {
                    bytes[$0 - 2] == 0xFF && bytes[$0 - 1] == 0xD9
                        && (bytes[($0 + 4)..<($0 + 8)].elementsEqual("ftyp".utf8) || (bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD8))
                }, name)
            for cut in (eoi + 4)..<bytes.count {
                XCTAssertTrue(MediaAsset.from(Array(bytes[..<cut]), path: name).truncated, "\(name) cut at \(cut)")
            }
        }
    }

    // MARK: - ../shared/corpus

    /// A few real files of each container, 64 evenly spaced cuts each.
    static let corpusSample = [
        "exif-samples/jpg/Canon_40D.jpg",
        "exif-samples/jpg/Nikon_D70.jpg",
        "exiv2/test/data/Stonehenge.heic",
        "Pillow/Tests/images/avif/exif.avif",
        "metadata-extractor-images/webp/Nikon D1X.webp",
        "metadata-extractor-images/png/sampleWithExifData.png",
        "Pillow/Tests/images/hopper.gif",
        "exiftool/t/images/QuickTime.mov",
        "metadata-extractor-images/mp4/with-gps.mp4",
        "exif-samples/tiff/Arbitro.tiff",
    ]

    func testCorpusPrefixesAreFlagged() throws {
        guard let corpus = TestPaths.corpus else {
            throw XCTSkip("../shared/corpus not found: corpus truncation tests skipped")
        }
        var tally = Tally()
        var used = 0
        for path in Self.corpusSample {
            guard let data = FileManager.default.contents(atPath: corpus.appendingPathComponent(path).path) else { continue }
            used += 1
            let bytes = [UInt8](data)
            check(path, bytes, cuts: Set((0..<64).map { bytes.count * $0 / 64 }), into: &tally)
        }
        XCTAssertGreaterThan(used, 0, "none of the sample files is in the corpus")
        report("corpus, \(used) files", tally)
    }

    // MARK: - The check

    func check(_ name: String, _ bytes: [UInt8], cuts: Set<Int>, into tally: inout Tally) {
        let full = Inspector.inspect(MemoryByteSource(bytes), path: name)
        let fullDiagnostics = Set(full.diagnostics)
        let walk = Self.boundaries(bytes)
        for cut in cuts.sorted() where cut < bytes.count {
            let prefix = Array(bytes[0..<cut])
            let asset = Inspector.inspect(MemoryByteSource(prefix), path: name)
            tally.cuts += 1
            XCTAssertEqual(asset.path, name, "\(name) cut at \(cut): the entry lost its path")
            if asset.error == nil {
                XCTAssertEqual(asset.fileSize, Int64(cut), "\(name) cut at \(cut): wrong file size")
            }
            // Flagged: an error, the truncated mark, or a diagnostic the whole file does not have.
            let flagged = asset.error != nil || asset.truncated || !Set(asset.diagnostics).isSubset(of: fullDiagnostics)
            if flagged {
                tally.flagged += 1
                continue
            }
            let record = Cut(file: name, size: bytes.count, cut: cut, place: Self.place(of: cut, in: walk))
            if let gap = Self.gap(bytes, cut: cut, walk: walk) {
                tally.gaps[gap, default: []].append(record)
            } else {
                tally.unexplained.append(record)
                XCTFail("\(record): not flagged (neither truncated, nor an error, nor a new diagnostic)")
            }
        }
    }

    func report(_ what: String, _ tally: Tally) {
        let known = tally.gaps.values.reduce(0) { $0 + $1.count }
        print(
            "truncation (\(what)): \(tally.flagged)/\(tally.cuts) cut prefixes flagged, \(known) in known gaps, "
                + "\(tally.unexplained.count) unexplained")
        for gap in Gap.allCases {
            guard let cuts = tally.gaps[gap] else { continue }
            print("  known gap, \(cuts.count) cuts: \(gap.rawValue)")
            for cut in cuts.prefix(4) { print("    e.g. \(cut)") }
        }
    }

    /// Which known gap an unflagged cut falls in, judged from the independent walk.
    static func gap(_ b: [UInt8], cut: Int, walk: [Boundary]) -> Gap? {
        // (A JPEG cut inside its image data is flagged: the end of the file is checked for EOI.)
        if b.starts(with: [0x49, 0x49]) || b.starts(with: [0x4D, 0x4D]) {
            let tableEnd = walk.first(where: { $0.label == "end of IFD0 entries" })?.offset
            return cut >= (tableEnd ?? 8) ? .tiffCutInValues : nil
        }
        if let moovEnd = walk.first(where: { $0.kind == .box && $0.depth == 0 && $0.label.hasPrefix("box moov ") })?.end,
            cut >= moovEnd, walk.contains(where: { $0.kind == .box && $0.depth == 0 && $0.offset == cut })
        {
            return .movieCutAfterMoov
        }
        return nil
    }

    func libraryFiles() throws -> [(String, [UInt8])] {
        let root = TestPaths.library
        guard let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var files: [(String, [UInt8])] = []
        for case let url as URL in e {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true,
                url.lastPathComponent != "notes.txt"
            else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            files.append((relative, [UInt8](try Data(contentsOf: url))))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    // MARK: - Independent structure walkers

    struct Boundary {
        enum Kind { case segmentStart, segmentEnd, entropyEnd, endOfImage, chunk, block, box, other }
        let offset: Int
        let label: String
        var kind: Kind = .other
        /// JPEG marker code of the segment.
        var marker: UInt8?
        /// ISO BMFF nesting depth (0: top level) and the box's end.
        var depth = 0
        var end: Int?

        /// [ISO 10918-1 B.1.1.3] SOFn: C0-C3, C5-C7, C9-CB, CD-CF.
        var isFrameHeader: Bool {
            guard let m = marker else { return false }
            return (0xC0...0xCF).contains(m) && ![0xC4, 0xC8, 0xCC].contains(m)
        }
    }

    /// Where a cut lies relative to the walked structure, for the report.
    static func place(of cut: Int, in walk: [Boundary]) -> String {
        if let exact = walk.last(where: { $0.offset == cut }) { return "at \(exact.label)" }
        if let before = walk.filter({ $0.offset < cut }).max(by: { $0.offset < $1.offset }) { return "after \(before.label)" }
        return "in the file header"
    }

    static func boundaries(_ b: [UInt8]) -> [Boundary] {
        if b.starts(with: [0xFF, 0xD8]) { return jpeg(b) }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png(b) }
        if b.starts(with: Array("GIF8".utf8)) { return gif(b) }
        if b.starts(with: Array("RIFF".utf8)), b.count >= 12, Array(b[8..<12]) == Array("WEBP".utf8) { return webp(b) }
        if b.starts(with: [0x49, 0x49]) || b.starts(with: [0x4D, 0x4D]) { return tiff(b) }
        if b.count >= 8, let t = fourCC(b, 4), ["ftyp", "moov", "mdat", "wide", "free", "skip"].contains(t) { return bmff(b) }
        return []
    }

    static func be16(_ b: [UInt8], _ i: Int) -> Int? {
        i >= 0 && i + 2 <= b.count ? Int(b[i]) << 8 | Int(b[i + 1]) : nil
    }

    static func be32(_ b: [UInt8], _ i: Int) -> Int? {
        i >= 0 && i + 4 <= b.count ? b[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } : nil
    }

    static func le32(_ b: [UInt8], _ i: Int) -> Int? {
        i >= 0 && i + 4 <= b.count ? b[i..<i + 4].reversed().reduce(0) { $0 << 8 | Int($1) } : nil
    }

    static func fourCC(_ b: [UInt8], _ i: Int) -> String? {
        i >= 0 && i + 4 <= b.count ? String(decoding: b[i..<i + 4], as: UTF8.self) : nil
    }

    /// [ISO 10918-1 B.1.1] Segments up to SOS; after each scan, the next marker that is not a
    /// stuffed byte or RSTn.
    static func jpeg(_ b: [UInt8]) -> [Boundary] {
        var out = [Boundary(offset: 2, label: "after SOI")]
        var pos = 2
        var count = 0
        while pos + 2 <= b.count, count < 10_000 {
            count += 1
            guard b[pos] == 0xFF else { break }
            let marker = b[pos + 1]
            if marker == 0xFF {
                pos += 1
                continue
            }
            let name = "FF" + String(marker, radix: 16, uppercase: true)
            if marker == 0xD9 {
                out.append(Boundary(offset: pos, label: "EOI", kind: .endOfImage, marker: marker))
                break
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                pos += 2
                continue
            }
            guard let length = be16(b, pos + 2), length >= 2 else { break }
            out.append(Boundary(offset: pos, label: "start of segment \(name) at \(pos)", kind: .segmentStart, marker: marker))
            let end = pos + 2 + length
            out.append(Boundary(offset: end, label: "end of segment \(name) at \(pos)", kind: .segmentEnd, marker: marker))
            pos = end
            if marker == 0xDA {
                // Entropy-coded data: runs to the next marker other than FF00 and RSTn.
                var i = end
                while i + 1 < b.count, !(b[i] == 0xFF && b[i + 1] != 0x00 && !(0xD0...0xD7).contains(b[i + 1])) { i += 1 }
                out.append(Boundary(offset: i, label: "end of entropy-coded data", kind: .entropyEnd))
                pos = i
            }
        }
        return out
    }

    /// [PNG 1.2 5.3] length, type, data, CRC.
    static func png(_ b: [UInt8]) -> [Boundary] {
        var out: [Boundary] = []
        var pos = 8
        while let length = be32(b, pos), let type = fourCC(b, pos + 4) {
            out.append(Boundary(offset: pos, label: "chunk \(type) at \(pos)", kind: .chunk))
            pos += 12 + length
            if type == "IEND" { break }
        }
        return out
    }

    /// [GIF89a 17-27] header, screen descriptor, global table, then blocks to the trailer.
    static func gif(_ b: [UInt8]) -> [Boundary] {
        guard b.count >= 13 else { return [] }
        var out = [
            Boundary(offset: 6, label: "logical screen descriptor"), Boundary(offset: 13, label: "after the screen descriptor"),
        ]
        var pos = 13
        if b[10] & 0x80 != 0 { pos += 3 << (Int(b[10] & 7) + 1) }
        func subBlocks(_ start: Int) -> Int {
            var p = start
            while p < b.count, b[p] != 0 { p += 1 + Int(b[p]) }
            return p + 1
        }
        while pos < b.count {
            let introducer = b[pos]
            out.append(Boundary(offset: pos, label: "block 0x\(String(introducer, radix: 16)) at \(pos)", kind: .block))
            switch introducer {
            case 0x2C:
                guard pos + 10 <= b.count else { return out }
                var p = pos + 10
                if b[pos + 9] & 0x80 != 0 { p += 3 << (Int(b[pos + 9] & 7) + 1) }
                pos = subBlocks(p + 1)
            case 0x21:
                pos = subBlocks(pos + 2)
            default:
                return out
            }
        }
        return out
    }

    /// [WebP container] RIFF header, then chunks padded to even sizes.
    static func webp(_ b: [UInt8]) -> [Boundary] {
        var out: [Boundary] = []
        var pos = 12
        while let type = fourCC(b, pos), let size = le32(b, pos + 4) {
            out.append(Boundary(offset: pos, label: "chunk '\(type)' at \(pos)", kind: .chunk))
            pos += 8 + size + (size & 1)
        }
        return out
    }

    /// [TIFF 6.0 2] IFD0 and its entry table.
    static func tiff(_ b: [UInt8]) -> [Boundary] {
        let little = b[0] == 0x49
        func u16(_ i: Int) -> Int? {
            i + 2 <= b.count ? (little ? Int(b[i]) | Int(b[i + 1]) << 8 : Int(b[i]) << 8 | Int(b[i + 1])) : nil
        }
        func u32(_ i: Int) -> Int? { little ? le32(b, i) : be32(b, i) }
        guard let ifd0 = u32(4), let n = u16(ifd0) else { return [] }
        return [
            Boundary(offset: 8, label: "end of the TIFF header"), Boundary(offset: ifd0, label: "IFD0"),
            Boundary(offset: ifd0 + 2 + 12 * n, label: "end of IFD0 entries"),
        ]
    }

    /// [ISO 14496-12 4.2] Top-level boxes, and the children of `moov` and `meta`.
    static func bmff(_ b: [UInt8]) -> [Boundary] {
        var out: [Boundary] = []
        func walk(_ start: Int, _ end: Int, depth: Int, path: String) {
            var pos = start
            while pos + 8 <= end, let size32 = be32(b, pos), let type = fourCC(b, pos + 4) {
                var size = size32
                var header = 8
                if size32 == 1 {
                    guard let high = be32(b, pos + 8), let low = be32(b, pos + 12) else { return }
                    size = high << 32 | low
                    header = 16
                } else if size32 == 0 {
                    size = end - pos
                }
                guard size >= header else { return }
                size = min(size, end - pos)
                out.append(
                    Boundary(offset: pos, label: "box \(path)\(type) at \(pos)", kind: .box, depth: depth, end: pos + size))
                if depth < 3 {
                    if type == "moov" { walk(pos + header, min(pos + size, end), depth: depth + 1, path: path + "moov/") }
                    // ISO meta is a FullBox; QuickTime's meta inside moov is not (its first child is hdlr).
                    if type == "meta" {
                        let body = fourCC(b, pos + header + 4) == "hdlr" ? pos + header : pos + header + 4
                        walk(body, min(pos + size, end), depth: depth + 1, path: path + "meta/")
                    }
                }
                pos += size
            }
        }
        walk(0, b.count, depth: 0, path: "")
        return out
    }
}
