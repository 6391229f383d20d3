import XCTest

@testable import PhotoMetaSystem

/// `watch` and `serve` give large blocks back to the system when freed (`AllocatorPolicy`):
/// glibc must take the setting.
final class AllocatorPolicyTests: XCTestCase {
    func testGlibcTakesTheLargeBlockThreshold() {
        XCTAssertTrue(AllocatorPolicy.forLongRunningProcess())
    }
}

/// After a look at a large folder, `serve` gives the heap's free pages back
/// (`AllocatorPolicy.giveBackFreePages`): blocks freed among blocks that stay are resident
/// until then.
final class FreePagesTests: XCTestCase {
    func testFreedBlocksAmongKeptOnesAreGivenBack() throws {
        // 48 MB of 200-byte blocks; one in 64 kept, so the heap cannot shrink from its top and
        // the free runs between kept blocks span whole pages.
        var blocks = (0..<240_000).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 200, alignment: 8) }
        for b in blocks { b.initializeMemory(as: UInt8.self, repeating: 1, count: 200) }
        for (i, b) in blocks.enumerated() where i % 64 != 0 { b.deallocate() }
        blocks = blocks.enumerated().compactMap { $0.offset % 64 == 0 ? $0.element : nil }
        defer { for b in blocks { b.deallocate() } }
        let before = try residentAnonymousKiB()
        AllocatorPolicy.giveBackFreePages()
        let after = try residentAnonymousKiB()
        XCTAssertGreaterThan(before - after, 20_000, "resident anonymous KiB \(before) → \(after)")
    }

    private func residentAnonymousKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") })
        return try XCTUnwrap(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }
}
