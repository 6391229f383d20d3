import XCTest

@testable import PhotoMetaCore

/// The watcher keeps a few candidates of a burst for its offer (`SuggestionShortlist`): deciding
/// over them with the memory must decide exactly what deciding over every candidate does.
final class SuggestionShortlistTests: XCTestCase {
    /// Candidates of every kind the rules tell apart: qualifying, too old, not media, still
    /// being written, cut short (being written, or damaged), undated, with equal instants, Live
    /// Photo stills whose movie is older; and memories before, between and after them.
    func testTheFewKeptDecideAsAllDo() {
        var generator = SplitMix(seed: 24)
        for round in 0..<2000 {
            var all: [SuggestionCandidate] = []
            for k in 0..<Int(generator.next() % 12) {
                let age = Double(generator.next() % 8) * 7  // equal instants are common
                var c: SuggestionCandidate
                switch generator.next() % 9 {
                case 8:
                    // A placeholder: a picture's name on a file still empty, made 2 s or an hour ago.
                    c = Scenario.candidate("e\(k).jpg", age: age, format: .unknown, error: .empty)
                    c.modified = Scenario.now - (generator.next() % 2 == 0 ? 2 : 3600)
                    c.captured = PlaceholderFile.date(modified: c.modified)
                case 7:
                    // A Live Photo still whose movie was taken up to 21 s before it.
                    c = Scenario.candidate("l\(k).jpg", age: age)
                    c.kind = .livePhoto
                    c.livePhotoPair = "l\(k).mov"
                    c.livePhotoPairCaptured =
                        Scenario.candidate("l\(k).mov", age: age + Double(generator.next() % 4) * 7).captured
                case 0: c = Scenario.candidate("w\(k).jpg", age: age, modifiedAgo: 0.2)
                case 1: c = Scenario.candidate("t\(k).jpg", age: age, modifiedAgo: 5, truncated: true)  // being written
                case 6: c = Scenario.candidate("d\(k).jpg", age: age, truncated: true)  // damaged: unchanged for 1 h
                case 2: c = Scenario.candidate("v\(k).mp4", age: age, kind: .video, format: .mp4)
                case 3: c = Scenario.candidate("o\(k).jpg", age: 3600 + age)
                case 4:
                    c = Scenario.candidate("u\(k).jpg", age: age)
                    c.captured = nil
                default: c = Scenario.candidate("p\(k).jpg", age: age)
                }
                c.size = Int64(1000 + k)  // one file each: the offered file is one of them
                all.append(c)
            }
            let memory: Double? = generator.next() % 4 == 0 ? nil : Scenario.now - Double(generator.next() % 60)
            var context = Scenario.context(remembered: memory)
            // Sometimes the offered file is among them, renamed to a newer date (`offeredFile`).
            if let offered = all.randomElement(using: &generator), generator.next() % 3 == 0 {
                context.offeredFile = SuggestionContext.OfferedFile(
                    size: offered.size, mtimeNanoseconds: Int64((offered.modified * 1e9).rounded()))
            }
            var shortlist = SuggestionShortlist(context: context)
            for c in all.shuffled(using: &generator) { shortlist.add(c) }
            XCTAssertLessThanOrEqual(shortlist.kept.count, all.contains { $0.kind == .livePhoto } ? 6 : 4)
            let everything = SuggestionEngine().decide(all, context: context)
            let kept = SuggestionEngine().decide(shortlist.kept, context: context)
            XCTAssertEqual(kept.suggestion?.path, everything.suggestion?.path, "round \(round)")
            XCTAssertEqual(kept.instant, everything.instant, "round \(round)")
            XCTAssertEqual(kept.pending, everything.pending, "round \(round)")
        }
    }

    func testABurstOfOldPhotosKeepsNothing() {
        var shortlist = SuggestionShortlist(context: Scenario.context())
        for k in 0..<1000 { shortlist.add(Scenario.candidate("old\(k).jpg", age: 86_400)) }
        XCTAssertTrue(shortlist.kept.isEmpty)
    }
}

/// A small seeded generator, so a failing round is the same round on every run (shared by
/// the tests of this target).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
