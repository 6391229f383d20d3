import PhotoMetaCore
import PhotoMetaSystem

/// A digest of a folder's files as listed (names in listing order and their keys, sidecars
/// folded in): equal digests mean the same files, unchanged, so what the index summarised
/// about the folder (`AssetIndex.FolderSummary`) still holds. `FNV1a`, since it is stored across
/// runs; names carry their length, so no two listings run together into one.
struct FolderDigest {
    private var hash = FNV1a()

    /// The digest as SQLite stores it.
    var stored: Int64 { Int64(bitPattern: hash.value) }

    mutating func add(name: some Collection<UInt8>, key: FileKey) {
        add(Int64(name.count))
        hash.add(name)
        add(key.size)
        add(key.mtimeNanoseconds)
        add(key.ctimeNanoseconds)
        add(key.inode)
        add(key.device)
    }

    /// The value's 8 bytes, least significant first.
    private mutating func add(_ v: Int64) {
        withUnsafeBytes(of: v.littleEndian) { hash.add(buffer: $0.assumingMemoryBound(to: UInt8.self)) }
    }
}
