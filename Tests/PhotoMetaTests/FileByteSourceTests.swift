import Foundation
import XCTest

@testable import PhotoMetaCore
@testable import PhotoMetaSystem

/// `FileByteSource` serves small reads from one window, which near the end of a file holds the
/// file's last bytes (issue 24: a trailer's footer and a JPEG's end of image in one read). Its
/// answers are the bytes themselves, whatever the order of the reads.
final class FileByteSourceTests: XCTestCase {
    func testEveryReadReturnsTheFilesBytes() throws {
        let dir = try TemporaryDirectory()
        for size in [0, 1, 7, 4_096, 5_000, 16_384, 50_000] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
            let path = try dir.write("f\(size).bin", bytes)
            let file = try FileByteSource(path: path)
            let memory = MemoryByteSource(bytes)
            let s = Int64(size)
            // Head, the footer, the end check (short then long), the middle, past the end.
            let reads: [(Int64, Int)] = [
                (0, 16), (s - 8, 8), (s - 4_096, 4_096), (s - 16_384, 16_384), (s - 8, 8), (2, 6_000),
                (s / 2, 100), (s - 1, 10), (s, 1), (s + 5, 3), (0, 70_000), (s - 3_000, 2_000),
            ]
            for (offset, count) in reads {
                XCTAssertEqual(
                    try file.read(at: offset, count: count), try memory.read(at: offset, count: count),
                    "size \(size), read \(count) at \(offset)")
            }
            // Two bytes without an array: from the window, the kept end, or a read; nil past
            // the end, as the default (an array of two) says.
            file.prefetch()
            for offset in [0, 1, s / 2, s - 4_097, s - 4_096, s - 3, s - 2, s - 1, s, s + 7] {
                let pair = try file.readPair(at: offset)
                let expected = try memory.readPair(at: offset)
                XCTAssertEqual(pair.map { [$0.0, $0.1] }, expected.map { [$0.0, $0.1] }, "size \(size), pair at \(offset)")
            }
        }
    }

    /// A bounded pair read counts against the file's budget and refuses a pair past the end.
    func testBoundedPairReads() throws {
        let reader = BoundedReader(MemoryByteSource([1, 2, 3]), budget: 4)
        XCTAssertTrue(try reader.readPair(at: 0) == (1, 2))
        XCTAssertTrue(try reader.readPair(at: 1) == (2, 3))
        XCTAssertEqual(reader.bytesRead, 4)
        XCTAssertThrowsError(try reader.readPair(at: 0)) { XCTAssertEqual($0 as? ReadFailure, .budgetExhausted) }
        let short = BoundedReader(MemoryByteSource([1, 2, 3]))
        for offset: Int64 in [-1, 2, 3, 9] {
            XCTAssertThrowsError(try short.readPair(at: offset)) { XCTAssertEqual($0 as? ReadFailure, .outOfBounds) }
        }
    }

    /// `prefetch` reads a cached head at once (`RWF_NOWAIT`) and advises the kernel otherwise;
    /// either way every read returns the file's bytes.
    func testPrefetchReadsACachedHeadAndAdvisesOtherwise() throws {
        // A file system that cannot answer a cached read (tmpfs before Linux 6.x) first: that
        // is its own property, and must not stop the asking for files elsewhere.
        if FileManager.default.fileExists(atPath: "/dev/shm") {
            let shm = "/dev/shm/pm-prefetch-\(UUID().uuidString).bin"
            XCTAssertTrue(FileManager.default.createFile(atPath: shm, contents: Data(repeating: 7, count: 30_000)))
            defer { try? FileManager.default.removeItem(atPath: shm) }
            let onTmpfs = try FileByteSource(path: shm)
            onTmpfs.prefetch()
            XCTAssertEqual(try onTmpfs.read(at: 29_990, count: 10), [UInt8](repeating: 7, count: 10))
        }
        let dir = try TemporaryDirectory()
        for size in [1, 5_000, 16_384, 70_000] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
            let path = try dir.write("p\(size).bin", bytes)
            let memory = MemoryByteSource(bytes)
            // Written back first: a page under writeback is locked, and RWF_NOWAIT does not
            // wait for it (a just-written file on a busy machine read as not cached).
            let fd = open(path, O_RDONLY)
            XCTAssertGreaterThanOrEqual(fd, 0)
            fsync(fd)
            let warm = try FileByteSource(path: path)
            warm.prefetch()
            XCTAssertTrue(warm.headWasCached, "a file just written and synced is in the page cache (size \(size))")
            XCTAssertEqual(warm.endWasCached, size > 16_384, "the end beyond the first window (size \(size))")
            for (offset, count) in [(0, 16), (Int64(size) - 8, 8), (0, 20_000), (Int64(size) / 3, 5)] {
                XCTAssertEqual(try warm.read(at: offset, count: count), try memory.read(at: offset, count: count))
            }
            // The end dropped from the cache, the head kept (another program read the head):
            // the end is advised, not waited for in `prefetch`.
            if size > 20_000 {
                posix_fadvise(fd, off_t(size - 8_192), 0, POSIX_FADV_DONTNEED)
                let partly = try FileByteSource(path: path)
                partly.prefetch()
                XCTAssertTrue(partly.headWasCached)
                if partly.endWasCached {
                    print("FileByteSourceTests: the page cache kept the end of \(path); partial case not checked")
                }
                for (offset, count) in [(Int64(size) - 8, 8), (Int64(size) - 4_096, 4_096), (0, 16)] {
                    XCTAssertEqual(try partly.read(at: offset, count: count), try memory.read(at: offset, count: count))
                }
            }
            // Out of the cache (written back, then dropped): advised, read when asked.
            posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
            close(fd)
            let cold = try FileByteSource(path: path)
            cold.prefetch()
            if cold.headWasCached {
                print("FileByteSourceTests: the page cache kept \(path) after POSIX_FADV_DONTNEED; cold case not checked")
            }
            for (offset, count) in [(0, 16), (Int64(size) - 8, 8), (0, 20_000)] {
                XCTAssertEqual(try cold.read(at: offset, count: count), try memory.read(at: offset, count: count))
            }
            // Expected warm (the file before it was) but not: the same bytes either way.
            let fd2 = open(path, O_RDONLY)
            posix_fadvise(fd2, 0, 0, POSIX_FADV_DONTNEED)
            close(fd2)
            let guessed = try FileByteSource(path: path)
            guessed.prefetch(expectWarm: true)
            for (offset, count) in [(0, 16), (Int64(size) - 8, 8), (Int64(size) / 2, 100), (0, 20_000)] {
                XCTAssertEqual(try guessed.read(at: offset, count: count), try memory.read(at: offset, count: count))
            }
        }
    }
}
