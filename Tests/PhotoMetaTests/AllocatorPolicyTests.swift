import XCTest

@testable import PhotoMetaSystem

/// `watch` and `serve` give large blocks back to the system when freed (`AllocatorPolicy`):
/// glibc must take the setting.
final class AllocatorPolicyTests: XCTestCase {
    func testGlibcTakesTheLargeBlockThreshold() {
        XCTAssertTrue(AllocatorPolicy.forLongRunningProcess())
    }
}
