import XCTest

@testable import PhotoMetaSystem

/// `/proc/self/mountinfo` read as the kernel writes it [proc(5)]: the fifth field, escapes undone.
final class MountTableTests: XCTestCase {
    func testTheMountPointIsTheFifthFieldWithItsEscapesUndone() {
        let table = """
            22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
            35 22 0:31 / /home/me/Pictures/My\\040Phone rw,nosuid - fuse.gvfsd-fuse gvfsd-fuse rw
            36 22 0:32 / /mnt/back\\134slash\\011tab rw - tmpfs tmpfs rw
            37 22 0:33 / /mnt/bad\\9xy rw - tmpfs tmpfs rw
            short line
            """
        XCTAssertEqual(
            Set(MountTable.mounts(in: Array(table.utf8)).map(\.point)),
            ["/", "/home/me/Pictures/My Phone", "/mnt/back\\slash\ttab", "/mnt/bad\\9xy"])
        XCTAssertEqual(Set(MountTable.mounts(in: Array(table.utf8)).map(\.id)), [22, 35, 36, 37])
    }

    func testThisProcessSeesItsRoot() throws {
        guard let table = MountTable() else { throw XCTSkip("no /proc here") }
        XCTAssertEqual(table.mounts()?.contains { $0.point == "/" }, true)
    }
}
