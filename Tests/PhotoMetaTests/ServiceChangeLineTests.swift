import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore

/// The library's `changes()` through a running service: the change line crosses the socket as
/// JSON, and a name that is not UTF-8 comes out of it exact (its stand-in code points are
/// Unicode scalars, written and read back as they are), not as U+FFFD.
final class ServiceChangeLineTests: XCTestCase {
    func testNamesThatAreNotUTF8CrossTheSocketExact() throws {
        let cafe = PathBytes.decode(Array("/srv/p/caf".utf8) + [0xE9] + Array(".jpg".utf8))
        let other = PathBytes.decode(Array("/srv/p/x".utf8) + [0xFF] + Array(".jpg".utf8))
        var set = ChangeSet()
        set.removed = [cafe]
        set.moved = [ChangeSet.Move(from: cafe, to: ChangeSet.File(path: other, asset: MediaAsset(path: other, format: .jpeg)))]
        let line = try JSONEncoder().encode(ServiceChangeLine(set))
        let sent = try JSONDecoder().decode(ServiceChangeLine.self, from: Data(String(decoding: line, as: UTF8.self).utf8))
        let shown = ServiceChanges.changeSet(sent, [(canonical: "/srv/p", display: "p")])
        XCTAssertEqual(shown.removed.map(PathBytes.encode), [Array("p/caf".utf8) + [0xE9] + Array(".jpg".utf8)])
        XCTAssertEqual(shown.moved.first.map { PathBytes.encode($0.from) }, Array("p/caf".utf8) + [0xE9] + Array(".jpg".utf8))
        XCTAssertEqual(shown.moved.first.map { PathBytes.encode($0.to.path) }, Array("p/x".utf8) + [0xFF] + Array(".jpg".utf8))
    }
}
