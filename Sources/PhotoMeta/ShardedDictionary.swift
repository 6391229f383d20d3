/// A dictionary kept as 16 dictionaries, each key in the one its hash picks: it grows a
/// sixteenth at a time. A Swift dictionary that outgrows its table holds the old and the new
/// one at once while it rehashes; the watcher's `reported` paths (70,000 after a burst of
/// 50,000 files) did that with 11 MB at the watcher's peak (docs/performance.md, "watch through
/// a 50,000-file burst"). Each part still rehashes on its own, with a sixteenth of the entries.
struct ShardedDictionary<Key: Hashable, Value> {
    private static var shardCount: Int { 16 }
    private var shards: [[Key: Value]]

    init(_ entries: [Key: Value] = [:]) {
        shards = Array(repeating: [:], count: Self.shardCount)
        for (key, value) in entries { self[key] = value }
    }

    /// The part a key lives in: the top bits of its hash (a dictionary places keys by its own
    /// seeded hash, so the parts' tables fill evenly).
    private static func shard(_ key: Key) -> Int {
        Int(truncatingIfNeeded: UInt64(UInt(bitPattern: key.hashValue)) >> 60)
    }

    subscript(key: Key) -> Value? {
        get { shards[Self.shard(key)][key] }
        set { shards[Self.shard(key)][key] = newValue }
    }

    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        shards[Self.shard(key)].removeValue(forKey: key)
    }

    var count: Int { shards.reduce(0) { $0 + $1.count } }

    /// Every key, part by part (no order), without a copy of them.
    var keys: some Sequence<Key> { shards.lazy.flatMap(\.keys) }

    /// Every value, part by part (no order).
    var values: some Sequence<Value> { shards.lazy.flatMap(\.values) }
}

extension ShardedDictionary: Sendable where Key: Sendable, Value: Sendable {}
