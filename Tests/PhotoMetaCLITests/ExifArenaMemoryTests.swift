import Foundation
import PhotoMetaTestSupport
import XCTest

/// libexif's allocations come from a per-thread arena that frees nothing until a decode ends
/// (Sources/CExif/exif_arena.h). libexif grows a content's entry list one entry at a time, so an
/// arena that kept every size of it took 143 MB for one hostile IFD of 5,400 entries (within
/// libexif's 64 KiB input); growth now doubles. The bound below is far from both.
final class ExifArenaMemoryTests: XCTestCase {
    /// A JPEG whose Exif IFD0 holds `count` entries of private tags (each a SHORT).
    static func manyEntries(_ count: Int) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
        var ifd = le16(count)
        for i in 0..<count { ifd += le16(0x8000 + i % 0x7000) + le16(3) + le32(1) + le32(7) }
        ifd += le32(0)
        let app1 = Array("Exif".utf8) + [0, 0] + Array("II".utf8) + le16(42) + le32(8) + ifd
        let length = app1.count + 2
        let scan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + app1 + scan
            + [UInt8](repeating: 0, count: 100) + [0xFF, 0xD9]
    }

    func testAnIFDOfThousandsOfEntriesKeepsMemoryBounded() throws {
        let dir = try TemporaryDirectory(prefix: "pm-arena")
        let bytes = ExifArenaMemoryTests.manyEntries(5_400)
        XCTAssertLessThan(bytes.count, 65_536, "one APP1 segment")
        for i in 0..<16 { _ = try dir.write("hostile\(i).jpg", bytes) }
        // The child's peak RSS, from the kernel (python3 is a test dependency: make test).
        let script = """
            import resource, subprocess, sys
            r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
            print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let (status, out) = try Program.run(
            "/usr/bin/python3", ["-c", script, Photometa.binary.path, "inspect", "-r", "--jsonl", dir.path])
        XCTAssertEqual(status, 0, out)
        let fields = out.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(fields.count, 2, out)
        XCTAssertEqual(fields.first, 0, "photometa's exit status: \(out)")
        let peakKiB = fields.last ?? .max
        XCTAssertLessThan(peakKiB, 96 * 1024, "peak RSS \(peakKiB) KiB for 16 files of 5,400 entries")
    }
}
