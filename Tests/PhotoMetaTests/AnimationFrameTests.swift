import XCTest

@testable import PhotoMetaCore

/// Animated PNG and animated WebP frame counts (issue 22): APNG's `acTL` before the first
/// `IDAT`, WebP's `ANMF` chunks counted within the caps (a lower bound when the walk stops).
final class AnimationFrameTests: XCTestCase {
    func testAPNGStatesItsFrames() throws {
        let a = MediaAsset.from(try TestPaths.bytes("../formats/animated.png"), path: "sticker.png")
        XCTAssertEqual(a.format, .png)
        XCTAssertEqual(a.kind, .photo)
        XCTAssertEqual(a.animated, true)
        XCTAssertEqual(a.frameCount, 3)
        XCTAssertFalse(a.frameCountIsLowerBound)
        XCTAssertEqual(a.diagnostics, [])
    }

    func testAnimatedWebPCountsItsFrames() throws {
        let bytes = try TestPaths.bytes("../formats/animated.webp")
        let a = MediaAsset.from(bytes, path: "anim.webp")
        XCTAssertEqual(a.animated, true)
        XCTAssertEqual(a.frameCount, 3)
        XCTAssertFalse(a.frameCountIsLowerBound)
        XCTAssertEqual([a.width, a.height], [100, 50])
        // Cut inside the last frame: the frames seen so far, as a lower bound.
        let cut = MediaAsset.from(Array(bytes.prefix(bytes.count - 4)), path: "cut.webp")
        XCTAssertTrue(cut.truncated)
        XCTAssertEqual(cut.frameCount, 3)
        XCTAssertTrue(cut.frameCountIsLowerBound)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let n = UInt32(data.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + Array(type.utf8) + data
            + [0, 0, 0, 0]
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let ihdr = chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])

    /// An `acTL` after the first `IDAT` is not an animation (decoders show a still), nor one
    /// that states 0 frames; neither is an error.
    func testAnACTLAfterIDATOrWithoutFramesDoesNotCount() {
        let actl = Self.chunk("acTL", [0, 0, 0, 5, 0, 0, 0, 0])
        let late = Self.signature + Self.ihdr + Self.chunk("IDAT", [1]) + actl + Self.chunk("IEND", [])
        XCTAssertNil(MediaAsset.from(late).animated)
        let none = Self.signature + Self.ihdr + Self.chunk("acTL", [0, 0, 0, 0, 0, 0, 0, 0]) + Self.chunk("IEND", [])
        let a = MediaAsset.from(none)
        XCTAssertNil(a.animated)
        XCTAssertNil(a.frameCount)
        XCTAssertTrue(a.diagnostics.contains { $0.message.contains("acTL of 8 bytes states no frames") }, "\(a.diagnostics)")
        let huge = Self.signature + Self.ihdr + Self.chunk("acTL", [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]) + Self.chunk("IEND", [])
        XCTAssertEqual(MediaAsset.from(huge).frameCount, 0xFFFF_FFFF, "stated, never allocated")
    }

    /// More ANMF chunks than the chunk cap: counted up to it, a lower bound, said.
    func testWebPFrameWalkStopsAtTheCap() {
        let frame: [UInt8] = Array("ANMF".utf8) + [0, 0, 0, 0]
        let body =
            Array("WEBP".utf8) + Array("VP8X".utf8) + [10, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0]
            + (0..<(Limits.structureCountMax + 10)).flatMap { _ in frame }
        let n = UInt32(body.count)
        let file = Array("RIFF".utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)] + body
        let a = MediaAsset.from(file, path: "many.webp")
        XCTAssertEqual(a.frameCount, Limits.structureCountMax - 1)
        XCTAssertTrue(a.frameCountIsLowerBound)
    }

    func testEveryCutIsFlagged() throws {
        for name in ["animated.png", "animated.webp"] {
            let bytes = try TestPaths.bytes("../formats/\(name)")
            for cut in 0..<bytes.count {
                let a = MediaAsset.from(Array(bytes.prefix(cut)), path: name)
                XCTAssertTrue(a.error != nil || a.truncated, "\(name) cut at \(cut)")
            }
        }
    }
}
