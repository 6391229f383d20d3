import XCTest

@testable import PhotoMetaCore

final class PathGlobTests: XCTestCase {
    func m(_ pattern: String, _ path: String) -> Bool { PathGlob(pattern)?.matches(path) ?? false }

    func testComponentsAndAnyDepth() {
        XCTAssertTrue(m("Screenshots", "Screenshots"))
        XCTAssertTrue(m("Screenshots", "2024/Screenshots"), "no slash: a name at any depth")
        XCTAssertFalse(m("Screenshots", "Screenshots2"))
        XCTAssertTrue(m("*.tmp", "a/b/c.tmp"))
        XCTAssertFalse(m("*.tmp", "a/b/c.tmpx"))
        XCTAssertTrue(m("IMG_????.JPG", "IMG_0001.JPG"))
        XCTAssertFalse(m("IMG_????.JPG", "IMG_001.JPG"))
    }

    func testSlashesAnchorAndStarsStayInAComponent() {
        XCTAssertTrue(m("Camera/*.mov", "Camera/a.mov"))
        XCTAssertFalse(m("Camera/*.mov", "x/Camera/a.mov"), "anchored below the folder")
        XCTAssertFalse(m("Camera/*.mov", "Camera/sub/a.mov"), "* does not cross folders")
        XCTAssertTrue(m("Camera/**/*.mov", "Camera/sub/deeper/a.mov"))
        XCTAssertTrue(m("Camera/**/*.mov", "Camera/a.mov"), "** is zero or more folders")
        XCTAssertTrue(m("**/cache/**", "x/y/cache/z"))
        XCTAssertTrue(m("**/cache", "cache"))
        XCTAssertTrue(m("./Downloads/", "Downloads"))
        XCTAssertNil(PathGlob(""))
        XCTAssertNil(PathGlob("/"))
    }

    /// A file is left out when it or a folder on its way matches, as a walk leaves it out.
    func testExcludesAsAWalkDoes() throws {
        let patterns = try ["private", "Camera/*.mov"].map { try XCTUnwrap(PathGlob($0)) }
        XCTAssertTrue(PathGlob.excludes("private/a.jpg", patterns), "inside an excluded folder")
        XCTAssertTrue(PathGlob.excludes("x/private/y/a.jpg", patterns), "a name pattern at any depth")
        XCTAssertTrue(PathGlob.excludes("Camera/clip.mov", patterns))
        XCTAssertFalse(PathGlob.excludes("Camera/sub/clip.mov", patterns))
        XCTAssertFalse(PathGlob.excludes("privately/a.jpg", patterns))
        XCTAssertFalse(PathGlob.excludes("a.jpg", []))
    }

    func testLinearOnHostilePatterns() {
        // Backtracking patterns stay fast: one backtrack point per component.
        let name = String(repeating: "a", count: 5000) + "b"
        XCTAssertFalse(PathGlob(String(repeating: "*a", count: 50) + "c")!.matches(name))
    }
}
