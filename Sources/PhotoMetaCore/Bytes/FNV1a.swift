/// 64-bit FNV-1a (Fowler, Noll, Vo; draft-eastlake-fnv-21 §2): a hash of bytes that is the same
/// in every process and run, which Swift's `Hasher` (seeded per process) is not. The one home of
/// it: folder digests stored in the index, service names, Live Photo base-name keys.
package struct FNV1a {
    /// Settable from outside only so that the `@inlinable` adds can be inlined there.
    package var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inlinable package init() {}

    @inlinable package mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    /// Contiguous bytes (a name's UTF-8, a buffer) are walked in place: this is called from
    /// other modules, where it may not be specialised, and a byte at a time through a generic
    /// iterator made a warm `suggest`'s folder digests six times dearer (docs/performance.md,
    /// "The sixth pass").
    @inlinable package mutating func add(_ bytes: some Sequence<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ add(buffer: $0) }) != nil { return }
        for byte in bytes { add(byte) }
    }

    @inlinable package mutating func add(buffer: UnsafeBufferPointer<UInt8>) {
        var v = value
        for byte in buffer { v = (v ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        value = v
    }
}
