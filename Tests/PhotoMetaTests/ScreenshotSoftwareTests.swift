import XCTest

@testable import PhotoMetaCore

/// A screenshot tool's name in the file (a PNG's `Software` text) is screenshot evidence and the
/// file's software (docs/kinds.md, "Screenshot evidence"); GNOME Shell's `Creation Time` dates it.
final class ScreenshotSoftwareTests: XCTestCase {
    /// A GNOME area screenshot, renamed and moved: only its own text says what it is.
    func testARenamedGNOMEScreenshotIsAScreenshot() throws {
        let a = MediaAsset.from(try TestPaths.bytes("../formats/bug-report.png"), path: "Desktop/bug-report.png")
        XCTAssertEqual(a.kind, .screenshot)
        XCTAssertEqual(a.screenshotEvidence, [.software("gnome-screenshot")])
        XCTAssertEqual(a.software, "gnome-screenshot")
        let captured = try XCTUnwrap(a.captured)
        XCTAssertEqual(captured.source, .pngCreationTime)
        // `CET` is no offset: the wall clock only.
        XCTAssertEqual(
            captured.clock,
            .wall(
                try XCTUnwrap(LocalDateTime(year: 2025, month: 3, day: 7, hour: 14, minute: 5, second: 9)), offset: nil,
                offsetSource: nil))
        XCTAssertEqual(a.diagnostics, [])
    }

    func testTheToolsAreMatchedByName() {
        XCTAssertTrue(ScreenshotSoftware.isScreenshotTool("gnome-screenshot"))
        XCTAssertTrue(ScreenshotSoftware.isScreenshotTool("GNOME-Screenshot"))
        XCTAssertTrue(ScreenshotSoftware.isScreenshotTool("Greenshot 1.3.274"))
        XCTAssertFalse(ScreenshotSoftware.isScreenshotTool("gnome-screenshot-editor"))
        XCTAssertFalse(ScreenshotSoftware.isScreenshotTool("Android UP1A.231005.007"))
        XCTAssertFalse(ScreenshotSoftware.isScreenshotTool("GIMP 2.10.34"))
        XCTAssertFalse(ScreenshotSoftware.isScreenshotTool(""))
        // The first word, after any blanks; only a blank ends it.
        XCTAssertTrue(ScreenshotSoftware.isScreenshotTool("  GREENSHOT"))
        XCTAssertFalse(ScreenshotSoftware.isScreenshotTool("Greenshot\t1.3"))
        XCTAssertFalse(ScreenshotSoftware.isScreenshotTool("greenshots"))
        XCTAssertFalse(ScreenshotSoftware.isScreenshotTool("greensho"))
        // Only ASCII letters fold: a look-alike letter is another name.
        XCTAssertFalse(ScreenshotSoftware.isScreenshotTool("Gr\u{0435}enshot"))
    }

    /// The text is read from any of the three text chunks, the first one counting; an `eXIf`
    /// chunk's Software (the device's) comes before it.
    func testThePNGSoftwareTextAndItsPlace() throws {
        let ihdr = pngChunk("IHDR", [0, 0, 2, 0xBC, 0, 0, 1, 0x90, 1, 0, 0, 0, 0])
        func png(_ chunks: [[UInt8]]) -> [UInt8] {
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + ihdr + chunks.joined() + pngChunk("IEND", [])
        }
        let itxt = pngChunk("iTXt", Array("Software".utf8) + [0, 0, 0, 0, 0] + Array("Greenshot".utf8))
        let later = pngChunk("tEXt", Array("Software".utf8) + [0] + Array("GIMP 2.10".utf8))
        var a = MediaAsset.from(png([itxt, later]), path: "a.png")
        XCTAssertEqual(a.software, "Greenshot")
        XCTAssertEqual(a.kind, .screenshot)
        XCTAssertEqual(a.screenshotEvidence, [.software("Greenshot")])
        // An editor's name is the software and no evidence.
        a = MediaAsset.from(png([later]), path: "a.png")
        XCTAssertEqual(a.software, "GIMP 2.10")
        XCTAssertEqual(a.kind, .photo)
        // Blank text is no software.
        a = MediaAsset.from(png([pngChunk("tEXt", Array("Software".utf8) + [0, 0x20, 0x20])]), path: "a.png")
        XCTAssertNil(a.software)
    }

    func testTheEvidenceRoundTripsThroughItsJSON() throws {
        let e = ScreenshotEvidence.software("gnome-screenshot")
        XCTAssertEqual(e.description, "software:gnome-screenshot")
        let data = try JSONEncoder().encode([e])
        XCTAssertEqual(try JSONDecoder().decode([ScreenshotEvidence].self, from: data), [e])
    }

    func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        ContainerReaderTests.pngChunk(type, data)
    }
}
