import Foundation
import XCTest

@testable import PhotoMetaCore
@testable import PhotoMetaSystem

/// Links a walk passes over, each with the reason it says.
final class TreeWalkerLinkTests: XCTestCase {
    func testALinkToItselfIsALoopNotDangling() throws {
        let dir = try TemporaryDirectory()
        XCTAssertEqual(symlink("self.jpg", dir.path + "/self.jpg"), 0)
        XCTAssertEqual(symlink("ring-b.jpg", dir.path + "/ring-a.jpg"), 0)
        XCTAssertEqual(symlink("ring-a.jpg", dir.path + "/ring-b.jpg"), 0)
        XCTAssertEqual(symlink("nowhere.jpg", dir.path + "/dangling.jpg"), 0)
        var reasons: [String: TreeWalker.SkipReason] = [:]
        TreeWalker(policy: .library).walk(dir.path) { event in
            if case .skipped(_, let relative, let reason) = event { reasons[relative] = reason }
        }
        XCTAssertEqual(reasons["self.jpg"], .linkLoop)
        XCTAssertEqual(reasons["ring-a.jpg"], .linkLoop)
        XCTAssertEqual(reasons["ring-b.jpg"], .linkLoop)
        XCTAssertEqual(reasons["dangling.jpg"], .danglingLink)
        XCTAssertEqual(TreeWalker.SkipReason.linkLoop.description, "symbolic link in a loop (it leads back to itself)")
        XCTAssertTrue(TreeWalker.SkipReason.linkLoop.isNotAFile)
    }
}
