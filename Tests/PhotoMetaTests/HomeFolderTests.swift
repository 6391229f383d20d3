import XCTest

@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// Where default paths start: an absolute `HOME`, else the password database's home.
final class HomeFolderTests: XCTestCase {
    func testAnAbsoluteHOMEIsUsed() {
        XCTAssertEqual(HomeFolder.path(["HOME": "/home/me"]), "/home/me")
        XCTAssertEqual(
            SuggestionMemory.defaultPath(environment: ["HOME": "/home/me"]), "/home/me/.local/state/photometa/state.sqlite3")
    }

    /// A relative HOME (a typo, `HOME=.`) would put the memory under whatever folder the
    /// command runs in; it is passed over, as relative XDG variables are.
    func testARelativeOrMissingHOMEFallsBackToThePasswordDatabase() {
        let fallback = HomeFolder.path([:])
        XCTAssertTrue(fallback.hasPrefix("/"), fallback)
        XCTAssertEqual(HomeFolder.path(["HOME": "relative"]), fallback)
        XCTAssertEqual(HomeFolder.path(["HOME": ""]), fallback)
        XCTAssertEqual(AssetIndex.defaultPath(environment: ["HOME": "."]), fallback + "/.cache/photometa/index.sqlite3")
    }

    /// XDG base directories: absolute only, trailing slashes dropped (`/` gives `/photometa`,
    /// which is refused as a folder at the top, not `//photometa`).
    func testXDGBaseDirectories() {
        XCTAssertEqual(
            SuggestionMemory.defaultPath(environment: ["XDG_STATE_HOME": "/s//", "HOME": "/h"]), "/s/photometa/state.sqlite3")
        XCTAssertEqual(SuggestionMemory.defaultPath(environment: ["XDG_STATE_HOME": "/"]), "/photometa/state.sqlite3")
        XCTAssertEqual(
            AssetIndex.defaultPath(environment: ["XDG_CACHE_HOME": "cache", "HOME": "/h"]), "/h/.cache/photometa/index.sqlite3")
        XCTAssertNil(HomeFolder.base("XDG_CONFIG_HOME", ["XDG_CONFIG_HOME": ""]))
    }
}
