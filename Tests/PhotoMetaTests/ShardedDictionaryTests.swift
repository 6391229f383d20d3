import XCTest

@testable import PhotoMeta

/// `ShardedDictionary` (the watcher's reported paths) answers as one dictionary would.
final class ShardedDictionaryTests: XCTestCase {
    func testSeededOperationsAgreeWithADictionary() {
        var rng = SplitMix(seed: 24)
        var plain: [String: Int] = [:]
        for i in 0..<300 { plain["start/\(i).jpg"] = i }
        var sharded = ShardedDictionary(plain)
        XCTAssertEqual(sharded.count, 300)
        for step in 0..<40_000 {
            let key = "f\(Int.random(in: 0..<5_000, using: &rng)).jpg"
            switch Int.random(in: 0..<4, using: &rng) {
            case 0, 1:
                plain[key] = step
                sharded[key] = step
            case 2:
                XCTAssertEqual(sharded.removeValue(forKey: key), plain.removeValue(forKey: key), key)
            default:
                sharded[key] = nil
                plain[key] = nil
            }
            XCTAssertEqual(sharded[key], plain[key], key)
        }
        XCTAssertEqual(sharded.count, plain.count)
        XCTAssertEqual(Set(sharded.keys), Set(plain.keys))
        XCTAssertEqual(Array(sharded.keys).count, plain.count, "every key once")
        for (key, value) in plain { XCTAssertEqual(sharded[key], value, key) }
    }
}
