import PhotoMetaSystem

/// A digest of a folder's files as listed (names in listing order and their keys, sidecars
/// folded in): equal digests mean the same files, unchanged, so what the index summarised
/// about the folder (`AssetIndex.FolderSummary`) still holds. 64-bit FNV-1a (Fowler, Noll, Vo;
/// draft-eastlake-fnv-21 §2), stored across runs, which Swift's `Hasher` (seeded per process)
/// cannot be; names carry their length, so no two listings run together into one.
struct FolderDigest {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The digest as SQLite stores it.
    var stored: Int64 { Int64(bitPattern: value) }

    mutating func add(name: some Collection<UInt8>, key: FileKey) {
        add(Int64(name.count))
        for byte in name { mix(byte) }
        add(key.size)
        add(key.mtimeNanoseconds)
        add(key.ctimeNanoseconds)
        add(key.inode)
        add(key.device)
    }

    private mutating func add(_ v: Int64) {
        var bits = UInt64(bitPattern: v)
        for _ in 0..<8 {
            mix(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    private mutating func mix(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
}
