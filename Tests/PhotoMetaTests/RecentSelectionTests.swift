import XCTest

@testable import PhotoMetaCore

/// `RecentSelection`, the rule of `recent`: newest first, ties by path, the kinds asked for,
/// the media rule's notion of a candidate, zones assumed only where a date has no offset, and
/// the same answer whatever the order the candidates come in.
final class RecentSelectionTests: XCTestCase {
    func names(_ s: RecentSelection) -> [String] { s.selected.map(\.path) }

    func select(_ candidates: [SuggestionCandidate], limit: Int = 20, kinds: Set<MediaKind> = RecentSelection.stillKinds)
        -> RecentSelection
    {
        var s = RecentSelection(limit: limit, kinds: kinds, zone: utcZone)
        for c in candidates { s.add(c) }
        return s
    }

    func testNewestFirstAndTheLimit() {
        let all = (0..<10).map { Scenario.candidate("p\($0).jpg", age: Double($0) * 100) }
        XCTAssertEqual(names(select(all, limit: 3)), ["p0.jpg", "p1.jpg", "p2.jpg"])
        XCTAssertEqual(names(select(all.reversed(), limit: 3)), ["p0.jpg", "p1.jpg", "p2.jpg"])
        XCTAssertEqual(names(select(all, limit: 20)).count, 10)
        XCTAssertEqual(names(select(all, limit: 0)), [])
        XCTAssertEqual(select(all, limit: 3).admitted, 10)
    }

    func testEqualInstantsBreakByPathBytes() {
        // "B" (0x42) sorts before "a" (0x61) by bytes; "é" (0xC3...) after both.
        let paths = ["x/é.jpg", "x/a.jpg", "x/B.jpg", "w/z.jpg"]
        let same = paths.map { Scenario.candidate($0, age: 5) }
        let newer = Scenario.candidate("z/new.jpg", age: 1)
        XCTAssertEqual(names(select(same + [newer])), ["z/new.jpg", "w/z.jpg", "x/B.jpg", "x/a.jpg", "x/é.jpg"])
        XCTAssertEqual(names(select(same.reversed(), limit: 2)), ["w/z.jpg", "x/B.jpg"])
    }

    func testAnyOrderGivesTheSameAnswerWithBoundedBuffers() {
        // Many candidates, many equal instants, a small limit: every permutation agrees.
        let all = (0..<200).map { Scenario.candidate(String(format: "f%03d.jpg", ($0 * 37) % 200), age: Double($0 % 7)) }
        let expected = names(select(all, limit: 5))
        XCTAssertEqual(expected, ["f000.jpg", "f003.jpg", "f013.jpg", "f016.jpg", "f026.jpg"])
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 { XCTAssertEqual(names(select(all.shuffled(using: &generator), limit: 5)), expected) }
    }

    func testKindsAndTheMediaRule() {
        var movie = Scenario.candidate("IMG_1.MOV", age: 1, kind: .video, format: .mov)
        movie.livePhotoPair = "IMG_1.HEIC"
        let files = [
            Scenario.candidate("photo.jpg", age: 2),
            Scenario.candidate("shot.png", age: 3, kind: .screenshot, format: .png),
            Scenario.candidate("IMG_1.HEIC", age: 4, kind: .livePhoto, format: .heic),
            Scenario.candidate("anim.gif", age: 5, kind: .gif, format: .gif),
            Scenario.candidate("clip.mp4", age: 6, kind: .video, format: .mp4), movie,
            Scenario.candidate("notes.txt", age: 7, kind: .unknown, format: .unknown),
            Scenario.candidate("bad.jpg", age: 0, error: .isDirectory),
        ]
        XCTAssertEqual(names(select(files)), ["photo.jpg", "shot.png", "IMG_1.HEIC", "anim.gif"])
        XCTAssertEqual(names(select(files, kinds: [.video])), ["clip.mp4"], "the Live Photo's movie is folded into its still")
        XCTAssertEqual(names(select(files, kinds: [.screenshot, .video])), ["shot.png", "clip.mp4"])
        XCTAssertEqual(names(select(files, kinds: [.livePhoto])), ["IMG_1.HEIC"])
    }

    func testFilesWithoutACaptureDateAreLeftOut() {
        var undated = Scenario.candidate("undated.jpg", age: 0)
        undated.captured = nil
        XCTAssertEqual(names(select([undated, Scenario.candidate("dated.jpg", age: 9)])), ["dated.jpg"])
    }

    func testNoRecencyNoCompleteness() {
        // Years old, or still being written: listed all the same.
        let old = Scenario.candidate("old.jpg", age: 10 * 365 * 86_400)
        let writing = Scenario.candidate("writing.jpg", age: 1, modifiedAgo: 0.1, truncated: true)
        XCTAssertEqual(names(select([old, writing])), ["writing.jpg", "old.jpg"])
    }

    func testTheZoneIsAssumedOnlyWithoutAnOffset() throws {
        // 12:00 wall clock without an offset, read in Shanghai, is 04:00Z; 06:00+00:00 is exact.
        let noon = try XCTUnwrap(LocalDateTime(year: 2024, month: 8, day: 8, hour: 12, minute: 0, second: 0))
        let six = try XCTUnwrap(LocalDateTime(year: 2024, month: 8, day: 8, hour: 6, minute: 0, second: 0))
        let assumed = SuggestionCandidate(
            path: "noon.jpg", format: .jpeg, kind: .photo,
            captured: CaptureDate(.wall(noon, offset: nil, offsetSource: nil), source: .exifDateTimeOriginal),
            modified: 0, size: 1)
        let exact = SuggestionCandidate(
            path: "six.jpg", format: .jpeg, kind: .photo,
            captured: CaptureDate(.wall(six, offset: .utc, offsetSource: .offsetTimeOriginal), source: .exifDateTimeOriginal),
            modified: 0, size: 1)
        let shanghai = try XCTUnwrap(TimeZone(identifier: "Asia/Shanghai"))
        var s = RecentSelection(limit: 5, zone: shanghai)
        s.add(assumed)
        s.add(exact)
        XCTAssertEqual(names(s), ["six.jpg", "noon.jpg"])
        var u = RecentSelection(limit: 5, zone: utcZone)
        u.add(assumed)
        u.add(exact)
        XCTAssertEqual(names(u), ["noon.jpg", "six.jpg"])
        // The instant is the one the suggestion rules read.
        let context = SuggestionContext(now: 0, realNow: 0, remembered: nil, settings: SuggestionSettings(zone: shanghai))
        XCTAssertEqual(s.instant(ifListed: assumed), context.instant(of: assumed))
    }
}
