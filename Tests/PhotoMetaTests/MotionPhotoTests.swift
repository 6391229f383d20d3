import Foundation
import XCTest

@testable import PhotoMetaCore

/// Motion Photos (issue 22): Google's (container directory, or the older MicroVideo) in JPEG
/// and HEIC, Samsung's trailer; an Ultra HDR JPEG stays a photo; a trailer or directory that
/// lies is a diagnostic and the file stays a photo.
final class MotionPhotoTests: XCTestCase {
    func asset(_ name: String) throws -> MediaAsset {
        MediaAsset.from(try TestPaths.bytes("../formats/\(name)"), path: name)
    }

    func testEachFormIsALivePhotoWithItsVideo() throws {
        let cases: [(String, LivePhotoEvidence, Double)] = [
            ("motion.MP.jpg", .motionPhotoGoogle, 2.5), ("microvideo.jpg", .motionPhotoGoogle, 1.5),
            ("motion.heic", .motionPhotoGoogle, 2.0), ("motion_samsung.jpg", .motionPhotoSamsung, 3.0),
        ]
        for (name, evidence, seconds) in cases {
            let bytes = try TestPaths.bytes("../formats/\(name)")
            let a = MediaAsset.from(bytes, path: name)
            XCTAssertEqual(a.kind, .livePhoto, name)
            XCTAssertEqual(a.livePhotoEvidence, evidence, name)
            XCTAssertNil(a.livePhotoPair, name)
            let m = try XCTUnwrap(a.motionPhoto, name)
            XCTAssertEqual(m.durationSeconds ?? 0, seconds, accuracy: 1e-9, name)
            XCTAssertEqual(Array(bytes[Int(m.offset) + 4..<Int(m.offset) + 8]), Array("ftyp".utf8), name)
            if evidence == .motionPhotoGoogle {
                XCTAssertEqual(m.offset + m.length, Int64(bytes.count), "\(name): the video ends the file")
            } else {
                XCTAssertLessThan(m.offset + m.length, Int64(bytes.count), "\(name): the trailer's directory follows")
            }
            XCTAssertFalse(a.truncated, "\(name): \(a.diagnostics)")
            XCTAssertEqual(a.diagnostics, [], name)
            XCTAssertNil(a.durationSeconds, "\(name): a still has no duration of its own")
        }
    }

    func testUltraHDRIsAPhoto() throws {
        let a = try asset("ultrahdr.jpg")
        XCTAssertEqual(a.kind, .photo)
        XCTAssertNil(a.motionPhoto)
        XCTAssertNil(a.livePhotoEvidence)
        XCTAssertFalse(a.truncated)
        XCTAssertEqual(a.diagnostics, [], "the gain map after EOI is a known item, not an unknown trailer")
    }

    /// The XMP's number written in place of another (same length), so the layout stays.
    func replacing(_ old: String, with new: String, in name: String) throws -> [UInt8] {
        let bytes = try TestPaths.bytes("../formats/\(name)")
        let o = Array(old.utf8)
        let n = Array(new.utf8)
        XCTAssertEqual(o.count, n.count)
        let i = try XCTUnwrap((0...(bytes.count - o.count)).first { bytes[$0..<$0 + o.count].elementsEqual(o) }, old)
        var b = bytes
        b.replaceSubrange(i..<i + o.count, with: n)
        return b
    }

    func testLyingGoogleDirectoryLeavesAPhotoAndSaysWhy() throws {
        // A video length past the file, a length that lands inside the still (no ftyp there),
        // an offset of a gigabyte.
        let liars = [
            try replacing("Item:Length=\"164\"", with: "Item:Length=\"999\"", in: "motion.MP.jpg"),
            try replacing("Item:Length=\"164\"", with: "Item:Length=\"100\"", in: "motion.MP.jpg"),
            try replacing("MicroVideoOffset=\"164\"", with: "MicroVideoOffset=\"1e9\"", in: "microvideo.jpg"),
        ]
        for (i, bytes) in liars.enumerated() {
            let a = MediaAsset.from(bytes, path: "liar\(i).jpg")
            XCTAssertEqual(a.kind, .photo, "liar \(i)")
            XCTAssertNil(a.motionPhoto, "liar \(i)")
            XCTAssertTrue(a.diagnostics.contains { $0.domain == "motionphoto" }, "liar \(i): \(a.diagnostics)")
        }
    }

    func testLyingSamsungTrailerLeavesAPhoto() throws {
        var bytes = try TestPaths.bytes("../formats/motion_samsung.jpg")
        // The entry's offset back from the directory (after "SEFH", version, count, 4 bytes of
        // zeros and type): pointed far before the start of the file.
        let sefh = try XCTUnwrap((0...(bytes.count - 4)).last { bytes[$0..<$0 + 4].elementsEqual(Array("SEFH".utf8)) })
        bytes.replaceSubrange(sefh + 16..<sefh + 20, with: [0xFF, 0xFF, 0xFF, 0x7F])
        let a = MediaAsset.from(bytes, path: "liar.jpg")
        XCTAssertEqual(a.kind, .photo)
        XCTAssertNil(a.motionPhoto)
        XCTAssertTrue(a.diagnostics.contains { $0.message.contains("points outside the file") }, "\(a.diagnostics)")
        XCTAssertFalse(a.truncated, "the JPEG still ends before the trailer's directory")
    }

    /// Every cut of a Motion Photo gives an answer that is flagged (but the cuts that leave the
    /// JPEG before Samsung's trailer and the trailer's first two zero bytes: a complete still
    /// with padding); a cut one never claims a video that is not all there.
    func testEveryCutIsFlaggedAndNeverAWrongVideo() throws {
        for name in ["motion.MP.jpg", "motion_samsung.jpg", "motion.heic"] {
            let bytes = try TestPaths.bytes("../formats/\(name)")
            let block: [UInt8] = [0, 0, 0x30, 0x0A]
            let stillEnd = (0...(bytes.count - 4)).first { bytes[$0..<$0 + 4].elementsEqual(block) }
            for cut in 0..<bytes.count where stillEnd.map({ !($0...$0 + 2).contains(cut) }) ?? true {
                let a = MediaAsset.from(Array(bytes.prefix(cut)), path: name)
                XCTAssertTrue(a.error != nil || a.truncated || !a.diagnostics.isEmpty, "\(name) cut at \(cut)")
                if let m = a.motionPhoto {
                    XCTAssertLessThanOrEqual(m.offset + m.length, Int64(cut), "\(name) cut at \(cut)")
                }
            }
        }
    }

    func testJSONCarriesTheVideoAndDecodes() throws {
        let a = try asset("motion_samsung.jpg")
        let line = AssetReport(zone: utcZone).json(a)
        XCTAssertTrue(
            line.contains(
                "\"livePhotoEvidence\":\"motionPhoto.samsung\",\"motionPhoto\":{\"offset\":355,\"length\":164,\"duration\":3}"),
            line)
        let decoded = try JSONDecoder().decode(MediaAsset.self, from: Data(line.utf8))
        XCTAssertEqual(decoded.motionPhoto, a.motionPhoto)
        XCTAssertFalse(AssetReport(zone: utcZone).json(try asset("ultrahdr.jpg")).contains("motionPhoto"))
    }
}
