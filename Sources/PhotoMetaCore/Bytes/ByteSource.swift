/// Random access to the bytes of one file, without owning a file.
///
/// Container readers take a `ByteSource`, never a path: the core stays pure and testable with
/// in-memory bytes, and the I/O edge (`FileByteSource`) decides how bytes are fetched.
/// A read past the end returns what exists (possibly nothing); it is not an error.
public protocol ByteSource {
    /// Total size in bytes.
    var size: Int64 { get }
    /// Up to `count` bytes starting at `offset`. Fewer at the end of the source.
    func read(at offset: Int64, count: Int) throws -> [UInt8]
    /// The two bytes at `offset`, or nil where the source holds fewer: what a marker walk
    /// reads most, without an array (`read(at:count:)` by default).
    func readPair(at offset: Int64) throws -> (UInt8, UInt8)?
}

extension ByteSource {
    /// The two bytes at `offset` from `read(at:count:)`; nil where the source holds fewer.
    public func readPair(at offset: Int64) throws -> (UInt8, UInt8)? {
        let b = try read(at: offset, count: 2)
        return b.count == 2 ? (b[0], b[1]) : nil
    }
}

/// Bytes held in memory; used by tests, fuzzers and for payloads already extracted.
package struct MemoryByteSource: ByteSource, Sendable {
    package let bytes: [UInt8]
    package init(_ bytes: [UInt8]) { self.bytes = bytes }
    package var size: Int64 { Int64(bytes.count) }
    package func read(at offset: Int64, count: Int) throws -> [UInt8] {
        guard offset >= 0, count > 0, offset < Int64(bytes.count) else { return [] }
        let start = Int(offset)
        let end = start + min(count, bytes.count - start)
        return Array(bytes[start..<end])
    }
}

/// Counts what a reader fetched so that no single file can make photometa read without bound.
/// Every container reader reads through one of these.
package final class BoundedReader {
    package let source: ByteSource
    /// Bytes still allowed for this file.
    package private(set) var remaining: Int
    package private(set) var bytesRead: Int = 0

    package init(_ source: ByteSource, budget: Int = Limits.readBudgetPerFile) {
        self.source = source
        self.remaining = budget
    }

    package var size: Int64 { source.size }

    /// Reads exactly `count` bytes, or throws `ReadFailure` (past the end, budget exhausted, or
    /// an I/O error).
    /// `count` is checked against the budget before any allocation, so a hostile length field
    /// cannot size a buffer.
    package func read(at offset: Int64, count: Int) throws(ReadFailure) -> [UInt8] {
        guard count >= 0, offset >= 0 else { throw .outOfBounds }
        if count == 0 { return [] }
        guard offset <= size, Int64(count) <= size - offset else { throw .outOfBounds }
        guard count <= remaining else { throw .budgetExhausted }
        let bytes: [UInt8]
        do {
            bytes = try source.read(at: offset, count: count)
        } catch {
            throw .io(String(describing: error))
        }
        remaining -= bytes.count
        bytesRead += bytes.count
        guard bytes.count == count else { throw .outOfBounds }
        return bytes
    }

    /// Two bytes, as `read(at: offset, count: 2)` returns them, without making an array: a
    /// JPEG's marker walk reads two bytes a dozen times per file (docs/performance.md, "The
    /// fourth pass").
    package func readPair(at offset: Int64) throws(ReadFailure) -> (UInt8, UInt8) {
        guard offset >= 0, offset <= size, 2 <= size - offset else { throw .outOfBounds }
        guard 2 <= remaining else { throw .budgetExhausted }
        let pair: (UInt8, UInt8)?
        do {
            pair = try source.readPair(at: offset)
        } catch {
            throw .io(String(describing: error))
        }
        guard let pair else { throw .outOfBounds }
        remaining -= 2
        bytesRead += 2
        return pair
    }

    /// Reads up to `count` bytes (fewer at the end of the file).
    package func readAvailable(at offset: Int64, count: Int) throws(ReadFailure) -> [UInt8] {
        guard offset >= 0, offset < size else { return [] }
        let n = Int(min(Int64(count), size - offset))
        return try read(at: offset, count: n)
    }
}

/// Why a bounded read could not return the bytes asked for.
public enum ReadFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The range lies (partly) past the end of the file: the file is truncated or a length lies.
    case outOfBounds
    /// The per-file read budget (`Limits.readBudgetPerFile`) is spent.
    case budgetExhausted
    /// The operating system refused the read.
    case io(String)

    /// The reason, for people.
    public var description: String {
        switch self {
        case .outOfBounds: return "data ends before the length it announces (truncated file?)"
        case .budgetExhausted: return "read budget of \(Limits.readBudgetPerFile) bytes exhausted"
        case .io(let m): return "read error: \(m)"
        }
    }
}
