/// 64-bit FNV-1a (Fowler, Noll, Vo; draft-eastlake-fnv-21 §2): a hash of bytes that is the same
/// in every process and run, which Swift's `Hasher` (seeded per process) is not. The one home of
/// it: folder digests stored in the index, service names, Live Photo base-name keys.
package struct FNV1a {
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inlinable package init() {}

    @inlinable package mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    @inlinable package mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { add(byte) }
    }
}
