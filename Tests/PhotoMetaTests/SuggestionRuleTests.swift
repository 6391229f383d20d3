import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// Shared builders for the rule tests: candidates captured `age` seconds before `now`.
enum Scenario {
    static let now = 1_723_118_900.0  // 2024-08-08T12:08:20Z

    static func candidate(
        _ path: String, age: Double, kind: MediaKind = .photo, format: MediaFormat = .jpeg,
        exactOffset: Bool = true, modifiedAgo: Double = 3600, truncated: Bool = false,
        error: FileReadError? = nil
    ) -> SuggestionCandidate {
        let t = now - age
        let whole = t.rounded(.down)
        let local = LocalDateTime(secondsAsIfUTC: Int64(whole), nanosecond: Int((t - whole) * 1e9), fractionDigits: 3)!
        let captured = CaptureDate(
            .wall(local, offset: exactOffset ? .utc : nil, offsetSource: exactOffset ? .offsetTimeOriginal : nil),
            source: .exifDateTimeOriginal)
        return SuggestionCandidate(
            path: path, format: format, kind: kind, captured: captured, truncated: truncated,
            error: error, modified: now - modifiedAgo, size: 1000)
    }

    static func context(remembered: Double? = nil, _ configure: (inout SuggestionSettings) -> Void = { _ in })
        -> SuggestionContext
    {
        var s = SuggestionSettings(zone: utcZone)
        configure(&s)
        return SuggestionContext(now: now, realNow: now, remembered: remembered, settings: s)
    }
}

final class RecencyRuleTests: XCTestCase {
    let rule = RecencyRule()

    /// A video is recent while its recording's end is: a 90 s clip started 95 s ago ended 5 s
    /// ago. The end counts for the folder's span and for the live library's skip too; a
    /// duration of years (a damaged header) counts as 12 h at most.
    func testAVideoIsRecentWhileItsEndIs() {
        var clip = Scenario.candidate("clip.mov", age: 95, kind: .video, format: .mov)
        clip.durationSeconds = 90
        XCTAssertNil(rule.reject(clip, in: Scenario.context()))
        XCTAssertFalse(RecencyRule.certainlyRejects(clip, in: Scenario.context()))
        XCTAssertEqual(RecencyRule.span(of: [clip])?.upperBound, Scenario.now - 5)
        XCTAssertFalse(RecencyRule.certainlyRejects(span: RecencyRule.span(of: [clip]), in: Scenario.context()))
        var old = clip
        old.captured = Scenario.candidate("clip.mov", age: 200).captured
        let reason = rule.reject(old, in: Scenario.context())
        XCTAssertTrue(reason?.contains("video, ended") == true, reason ?? "")
        var still = Scenario.candidate("photo.jpg", age: 95)
        still.durationSeconds = 90  // only a video's duration counts
        XCTAssertNotNil(rule.reject(still, in: Scenario.context()))
        var hostile = Scenario.candidate("bad.mov", age: 86_400 * 365, kind: .video, format: .mov)
        hostile.durationSeconds = 1e12
        XCTAssertNotNil(rule.reject(hostile, in: Scenario.context()))
        XCTAssertTrue(RecencyRule.certainlyRejects(hostile, in: Scenario.context()))
    }

    /// `rejects` (asked without explanations) is `reject` without the words, at every edge,
    /// for every rule; and a decision without explanations offers what one with them does.
    func testTheVerdictWithoutWordsIsTheVerdict() {
        var undated = Scenario.candidate("u", age: 0)
        undated.captured = nil
        var candidates = [undated]
        for age: Double in [-100, -5.5, -5, -4.9, 0, 8, 59.9, 60, 60.5, 3600, 86_400 * 400] {
            candidates.append(Scenario.candidate("a\(age)", age: age))
            candidates.append(Scenario.candidate("s\(age)", age: age, kind: .screenshot))
            candidates.append(Scenario.candidate("t\(age)", age: age, modifiedAgo: 0, truncated: true))
        }
        let context = Scenario.context()
        for rule in SuggestionEngine.defaultRules {
            for c in candidates {
                XCTAssertEqual(rule.rejects(c, in: context), rule.reject(c, in: context) != nil, "\(rule.id) \(c.path)")
            }
        }
        var quiet = SuggestionEngine.DecisionBuilder(context: context, explain: false)
        for c in candidates { quiet.add(c) }
        let told = SuggestionEngine().decide(candidates, context: context)
        XCTAssertEqual(quiet.decision.suggestion, told.suggestion)
        XCTAssertEqual(quiet.decision.pending, told.pending)
    }

    func testWithinTheWindow() {
        XCTAssertNil(rule.reject(Scenario.candidate("a", age: 8), in: Scenario.context()))
        XCTAssertNil(rule.reject(Scenario.candidate("a", age: 60), in: Scenario.context()), "the boundary counts")
        XCTAssertNotNil(rule.reject(Scenario.candidate("a", age: 60.5), in: Scenario.context()))
    }

    func testWithinIsConfigurable() {
        let ten = Scenario.context { $0.within = .seconds(10) }
        XCTAssertNil(rule.reject(Scenario.candidate("a", age: 10), in: ten))
        XCTAssertNotNil(rule.reject(Scenario.candidate("a", age: 11), in: ten))
    }

    func testSmallFutureCountsAsNowLargeFutureIsAClockError() {
        XCTAssertNil(rule.reject(Scenario.candidate("a", age: -5), in: Scenario.context()))
        let r = rule.reject(Scenario.candidate("a", age: -6), in: Scenario.context())
        XCTAssertTrue(r?.contains("clock error") == true, r ?? "")
    }

    func testNoDate() {
        var c = Scenario.candidate("a", age: 1)
        c.captured = nil
        XCTAssertEqual(rule.reject(c, in: Scenario.context()), "no capture date")
    }

    func testZoneAppliesOnlyWithoutOffset() {
        // A wall clock 8 s before now in UTC is 8 h + 8 s old when read in UTC+8.
        let c = Scenario.candidate("a", age: 8, exactOffset: false)
        XCTAssertNil(rule.reject(c, in: Scenario.context()))
        XCTAssertNotNil(rule.reject(c, in: Scenario.context { $0.zone = TimeZone(identifier: "Asia/Shanghai")! }))
        XCTAssertNil(
            rule.reject(
                Scenario.candidate("b", age: 8), in: Scenario.context { $0.zone = TimeZone(identifier: "Asia/Shanghai")! }))
    }

    /// What the live library skips is what recency turns down in every zone: dates around the
    /// window's edges, with and without offsets, checked against every whole-hour zone.
    func testCertainlyRejectedMeansRejectedInEveryZone() throws {
        let now = 1_723_118_900.0
        let rule = RecencyRule()
        var skipped = 0
        for delta in stride(from: -60.0 * 3600, through: 60 * 3600, by: 397) {
            for exact in [true, false] {
                let local = try XCTUnwrap(
                    LocalDateTime(secondsAsIfUTC: Int64(now + delta), nanosecond: 0, fractionDigits: nil))
                let date = CaptureDate(
                    .wall(local, offset: exact ? UTCOffset(seconds: 0) : nil, offsetSource: nil), source: .fileName)
                var c = Scenario.candidate("a.jpg", age: 1)
                c.captured = date
                for hours in -12...14 {
                    var settings = SuggestionSettings(zone: try XCTUnwrap(TimeZone(secondsFromGMT: hours * 3600)))
                    settings.within = .seconds(60)
                    let context = SuggestionContext(now: now, realNow: now, remembered: nil, settings: settings)
                    if RecencyRule.certainlyRejects(c, in: context) {
                        skipped += 1
                        XCTAssertNotNil(rule.reject(c, in: context), "delta \(delta) exact \(exact) zone \(hours)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(skipped, 1000, "most of the range is skipped")
    }

}

final class MediaRuleTests: XCTestCase {
    let rule = MediaRule()

    func testStillsPassVideosOnlyWhenAsked() {
        for kind in [MediaKind.photo, .screenshot, .livePhoto, .gif] {
            XCTAssertNil(rule.reject(Scenario.candidate("a", age: 1, kind: kind), in: Scenario.context()), "\(kind)")
        }
        let video = Scenario.candidate("v.mp4", age: 1, kind: .video, format: .mp4)
        XCTAssertNotNil(rule.reject(video, in: Scenario.context()))
        XCTAssertNil(rule.reject(video, in: Scenario.context { $0.includeVideos = true }))
    }

    func testLivePhotoMovieIsNeverOfferedAlone() {
        var movie = Scenario.candidate("IMG_1.MOV", age: 1, kind: .video, format: .mov)
        movie.livePhotoPair = "IMG_1.HEIC"
        XCTAssertNotNil(rule.reject(movie, in: Scenario.context { $0.includeVideos = true }))
    }

    /// A camera's stand-ins for a clip (its `.THM` cover, its `.LRV`/`.LRF` low-resolution copy)
    /// are never offered, whatever the case of their names; other names are.
    func testACamerasStandInsForAClipAreNotOffered() {
        for name in ["DCIM/100CANON/MVI_0001.THM", "GOPR0042.thm", "C0001.Thm", "/media/card/PRIVATE/M4ROOT/THMBNL/C0001T01.JPG"]
        {
            let thm = Scenario.candidate(name, age: 1, kind: .photo, format: .jpeg)
            XCTAssertEqual(
                rule.reject(thm, in: Scenario.context()), "a camera's thumbnail of a movie (.THM, M4ROOT/THMBNL)", name)
        }
        for name in [
            "GL010042.LRV", "DJI_0001.lrf", "PRIVATE/m4root/sub/C0001S03.MP4", "DCIM/Camera01/LRV_20220110_121609_11_657.insv",
            "lrv_20220101_094420_01_013.mp4",
        ] {
            let lrv = Scenario.candidate(name, age: 1, kind: .video, format: .mp4)
            XCTAssertEqual(
                rule.reject(lrv, in: Scenario.context { $0.includeVideos = true }),
                "a camera's low-resolution copy of a movie (.LRV, .LRF, LRV_, M4ROOT/SUB)", name)
        }
        for name in [
            "thm", ".thm.jpg", "MVI_0001.JPG", "x.thmx", "GX010042.MP4", "PRIVATE/M4ROOT/CLIP/C0001.MP4", "THMBNL/C0001T01.JPG",
            "M4ROOT/THMBNL", "SUB/x.jpg", "VID_20220110_121609_00_657.insv", "LRV.mp4", "xLRV_1.mp4",
        ] {
            let c = Scenario.candidate(name, age: 1, kind: .photo, format: .jpeg)
            XCTAssertNil(rule.reject(c, in: Scenario.context()), name)
        }
        XCTAssertNil(CameraProxyName.proxy("thm"))
        XCTAssertEqual(CameraProxyName.proxy(".THM"), .thumbnail)
    }

    func testUnreadableAndUnknown() {
        XCTAssertNotNil(
            rule.reject(
                Scenario.candidate("a", age: 1, kind: .unknown, format: .unknown, error: .unsupportedFormat),
                in: Scenario.context()))
        XCTAssertNotNil(rule.reject(Scenario.candidate("a", age: 1, error: .system(.permissionDenied)), in: Scenario.context()))
    }
}

final class ScreenshotRuleTests: XCTestCase {
    let rule = ScreenshotRule()

    func testModes() {
        let shot = Scenario.candidate("s.png", age: 1, kind: .screenshot, format: .png)
        let photo = Scenario.candidate("p.jpg", age: 1)
        XCTAssertNil(rule.reject(shot, in: Scenario.context()))
        XCTAssertNil(rule.reject(photo, in: Scenario.context()))
        XCTAssertNotNil(rule.reject(shot, in: Scenario.context { $0.screenshots = .exclude }))
        XCTAssertNil(rule.reject(photo, in: Scenario.context { $0.screenshots = .exclude }))
        XCTAssertNil(rule.reject(shot, in: Scenario.context { $0.screenshots = .only }))
        XCTAssertNotNil(rule.reject(photo, in: Scenario.context { $0.screenshots = .only }))
    }
}

final class MemoryRuleTests: XCTestCase {
    let rule = MemoryRule()

    func testAtOrBeforeTheRememberedInstantIsNotOfferedAgain() {
        let c = Scenario.candidate("a", age: 10)
        XCTAssertNil(rule.reject(c, in: Scenario.context()))
        XCTAssertNotNil(rule.reject(c, in: Scenario.context(remembered: Scenario.now - 10)), "equal instant")
        XCTAssertNotNil(rule.reject(c, in: Scenario.context(remembered: Scenario.now - 5)))
        XCTAssertNil(rule.reject(c, in: Scenario.context(remembered: Scenario.now - 11)))
    }

    /// The picture of a shot whose raw is the standing offer takes its place, once: only that
    /// shot's picture, only while the raw is the last thing remembered, within a second of it.
    func testThePictureOfTheRawOfferedTakesItsPlace() {
        let picture = Scenario.candidate("DCIM/IMG_0001.JPG", age: 10.2)
        var context = Scenario.context(remembered: Scenario.now - 10)
        XCTAssertNotNil(rule.reject(picture, in: context), "no raw offered")
        context.offeredRaw = SuggestionContext.OfferedRaw(name: "IMG_0001.CR3", instant: Scenario.now - 10)
        XCTAssertNil(rule.reject(picture, in: context))
        XCTAssertNotNil(rule.reject(Scenario.candidate("DCIM/IMG_0002.JPG", age: 10.2), in: context), "another shot")
        XCTAssertNotNil(rule.reject(Scenario.candidate("DCIM/IMG_0001.JPG", age: 12), in: context), "seconds before it")
        XCTAssertNotNil(rule.reject(Scenario.candidate("DCIM/IMG_0001.CR3", age: 10), in: context), "the raw itself")
        context.remembered = Scenario.now - 5
        XCTAssertNotNil(rule.reject(picture, in: context), "something later was remembered")
    }

    func testSamePhotoUnderAnotherNameDoesNotComeBack() {
        let original = Scenario.candidate("IMG_1.jpg", age: 10)
        let copy = Scenario.candidate("copy of IMG_1.jpg", age: 10)
        let context = Scenario.context(remembered: Scenario.now - 10)
        XCTAssertNotNil(rule.reject(original, in: context))
        XCTAssertNotNil(rule.reject(copy, in: context))
    }

    /// The offered file renamed so that its date moved (a screenshot's name's date lost: its
    /// birth time, a fraction of a second later): still the file offered, by its size and
    /// modification time; another file of that instant is new.
    func testTheOfferedFileRenamedToANewerDateDoesNotComeBack() {
        let renamed = Scenario.candidate("bug.png", age: 9.5)
        var context = Scenario.context(remembered: Scenario.now - 10)
        XCTAssertNil(rule.reject(renamed, in: context), "newer than the memory by its instant alone")
        context.offeredFile = SuggestionContext.OfferedFile(
            size: renamed.size, mtimeNanoseconds: Int64((renamed.modified * 1e9).rounded()))
        XCTAssertEqual(rule.reject(renamed, in: context), MemoryRule.sameFileReason)
        var other = renamed
        other.size += 1
        XCTAssertNil(rule.reject(other, in: context))
    }

    /// A still whose movie was the last offer (the remembered instant is the movie's) was
    /// offered through it; unpaired, or with another memory, the same still is new.
    func testLivePhotoStillWhoseMovieWasSeenIsNotNew() {
        var files = [
            Scenario.candidate("IMG_1.HEIC", age: 9.5, format: .heic),
            Scenario.candidate("IMG_1.MOV", age: 10, kind: .video, format: .mov),
        ]
        files[1].durationSeconds = 3
        let context = Scenario.context(remembered: Scenario.now - 10)
        XCTAssertNil(rule.reject(files[0], in: context), "alone, the still is newer than the memory")
        LivePhotoPairing.apply(&files)
        XCTAssertEqual(files[0].kind, .livePhoto)
        XCTAssertEqual(rule.reject(files[0], in: context), MemoryRule.partnerReason)
        XCTAssertNil(rule.reject(files[0], in: Scenario.context(remembered: Scenario.now - 11)))
        // A memory past the movie but before the still is another offer (the photo taken a
        // second before this Live Photo, whose movie started earlier): the still is new.
        XCTAssertNil(rule.reject(files[0], in: Scenario.context(remembered: Scenario.now - 9.8)))
    }
}

final class CompletenessRuleTests: XCTestCase {
    let rule = CompletenessRule()

    func testRecentlyModifiedFilesWait() {
        XCTAssertNotNil(rule.reject(Scenario.candidate("a", age: 1, modifiedAgo: 0.2), in: Scenario.context()))
        XCTAssertNil(rule.reject(Scenario.candidate("a", age: 1, modifiedAgo: 1.0), in: Scenario.context()))
    }

    func testTruncatedFilesWait() {
        let writing = Scenario.candidate("a", age: 1, modifiedAgo: 5, truncated: true)
        XCTAssertEqual(rule.reject(writing, in: Scenario.context()), "the file is cut short (still being written?)")
        XCTAssertTrue(CompletenessRule.mayStillChange(writing, Scenario.context()))
        // Cut short and untouched for 30 s and more: damaged, still turned down, not pending.
        let damaged = Scenario.candidate("a", age: 1, modifiedAgo: 3600, truncated: true)
        XCTAssertEqual(
            rule.reject(damaged, in: Scenario.context()),
            "the file is cut short and unchanged for 60 min: damaged, not being written")
        XCTAssertFalse(CompletenessRule.mayStillChange(damaged, Scenario.context()))
        XCTAssertFalse(
            CompletenessRule.mayStillChange(Scenario.candidate("a", age: 1, modifiedAgo: 30, truncated: true), Scenario.context())
        )
    }

    func testRealClockNotNow() {
        // --now in the past must not make a file written a moment ago look settled, nor the
        // reverse: only realNow counts.
        var context = Scenario.context()
        context.now = Scenario.now - 86_400
        XCTAssertNotNil(rule.reject(Scenario.candidate("a", age: 1, modifiedAgo: 0.1), in: context))
    }
}

final class SuggestionEngineTests: XCTestCase {
    func testNewestQualifyingWinsAndEveryRejectionIsExplained() {
        let candidates = [
            Scenario.candidate("old.jpg", age: 3600),
            Scenario.candidate("recent.jpg", age: 20),
            Scenario.candidate("newest.jpg", age: 5),
            Scenario.candidate("video.mp4", age: 1, kind: .video, format: .mp4),
            Scenario.candidate("writing.jpg", age: 8, modifiedAgo: 0.1),
        ]
        let d = SuggestionEngine().decide(candidates, context: Scenario.context())
        XCTAssertEqual(d.suggestion?.path, "newest.jpg")
        XCTAssertNil(d.pending, "the file being written is older than the suggestion")
        XCTAssertEqual(d.considered, 5)
        XCTAssertEqual(
            Dictionary(uniqueKeysWithValues: d.rejected.map { ($0.path, $0.rule) }),
            ["old.jpg": .recency, "video.mp4": .media, "writing.jpg": .completeness])
        XCTAssertEqual(d.outranked, ["recent.jpg"])
    }

    /// Pending is an answer: when the newest file that would qualify is still being written,
    /// nothing older is offered in its place, and the decision says when to ask again.
    func testANewerFileBeingWrittenIsPending() throws {
        let candidates = [
            Scenario.candidate("newest-complete.jpg", age: 5),
            Scenario.candidate("writing.jpg", age: 2, modifiedAgo: 0.4),
            Scenario.candidate("cut.jpg", age: 3, modifiedAgo: 5, truncated: true),
        ]
        let d = SuggestionEngine().decide(candidates, context: Scenario.context())
        XCTAssertNil(d.suggestion)
        let p = try XCTUnwrap(d.pending)
        XCTAssertEqual(p.path, "writing.jpg")
        XCTAssertEqual(p.retryAfterMilliseconds, 600, "settles 1 s after its last write")
        XCTAssertTrue(d.outranked.contains("newest-complete.jpg"))
        let cutOnly = SuggestionEngine().decide(
            [Scenario.candidate("cut.jpg", age: 3, modifiedAgo: 5, truncated: true)], context: Scenario.context())
        XCTAssertEqual(cutOnly.pending?.retryAfterMilliseconds, 500)
    }

    /// A picture's file just made and still empty (a camera app that creates the name first,
    /// Firefox's placeholder) is being written: the answer is pending on it, not the older
    /// photo; once it has stayed empty for 30 s it holds nothing back.
    func testAPlaceholderJustMadeIsPending() throws {
        var empty = Scenario.candidate("IMG_new.jpg", age: 0, format: .unknown, modifiedAgo: 2, error: .empty)
        empty.captured = PlaceholderFile.date(modified: empty.modified)
        XCTAssertTrue(empty.isPlaceholder)
        let photo = Scenario.candidate("IMG_old.jpg", age: 20)
        let d = SuggestionEngine().decide([photo, empty], context: Scenario.context())
        XCTAssertNil(d.suggestion)
        XCTAssertEqual(d.pending, SuggestionDecision.Pending(path: "IMG_new.jpg", retryAfterMilliseconds: 500))
        XCTAssertEqual(d.rejected.first?.reason, "the file is still empty (being created?)")
        let report = SuggestReport(d, ageSeconds: nil, recorded: false, explain: true, skipped: [], zone: utcZone)
        XCTAssertEqual(report.rejected?.last?.path, "IMG_old.jpg")
        XCTAssertEqual(report.rejected?.last?.reason, "a newer file is still being written", "held back, not outranked")
        var stale = empty
        stale.modified = Scenario.now - 31
        stale.captured = PlaceholderFile.date(modified: stale.modified)
        let later = SuggestionEngine().decide([photo, stale], context: Scenario.context())
        XCTAssertEqual(later.suggestion?.path, "IMG_old.jpg")
        XCTAssertEqual(later.rejected.first?.rule, .media, "left empty: an empty file")
        // Older than the offer the memory holds: not pending either.
        XCTAssertNil(SuggestionEngine().decide([empty], context: Scenario.context(remembered: Scenario.now)).pending)
        XCTAssertEqual(PlaceholderFile.kind(of: "a/IMG_1.JPG"), .photo)
        XCTAssertEqual(PlaceholderFile.kind(of: "a/VID_1.mp4"), .video)
        XCTAssertNil(PlaceholderFile.kind(of: "a/notes.txt"))
        XCTAssertEqual(PlaceholderFile.kind(of: "a/Screenshot_20240101-120000.png"), .screenshot, "by its name")
        XCTAssertEqual(PlaceholderFile.kind(of: "Pictures/Screenshots/x.png"), .screenshot, "by its folder")
        XCTAssertNil(PlaceholderFile.kind(of: "a.jpg/notes"))
        // A placeholder is no half of a Live Photo (inspect pairs only files it read): the
        // movie beside an empty IMG_1.HEIC stays a movie of its own.
        var heic = Scenario.candidate("IMG_1.HEIC", age: 0, format: .unknown, modifiedAgo: 2, error: .empty)
        heic.captured = PlaceholderFile.date(modified: heic.modified)
        var mov = Scenario.candidate("IMG_1.MOV", age: 2, kind: .video, format: .mov)
        mov.durationSeconds = 3
        var pair = [heic, mov]
        LivePhotoPairing.apply(&pair)
        XCTAssertNil(pair[1].livePhotoPair)
        XCTAssertEqual(pair[0].kind, .photo)
    }

    /// A newer file cut short an hour ago (a failed download) is damaged, not being written: it
    /// holds nothing back, and the photo before it is offered.
    func testADamagedFileHoldsNothingBack() {
        let d = SuggestionEngine().decide(
            [Scenario.candidate("photo.jpg", age: 20), Scenario.candidate("failed-download.jpg", age: 10, truncated: true)],
            context: Scenario.context())
        XCTAssertNil(d.pending)
        XCTAssertEqual(d.suggestion?.path, "photo.jpg")
        XCTAssertEqual(d.rejected.map(\.path), ["failed-download.jpg"])
        XCTAssertEqual(d.rejected.first?.rule, .completeness)
    }

    func testEqualInstantsBreakByPath() {
        let d = SuggestionEngine().decide(
            [Scenario.candidate("b.jpg", age: 5), Scenario.candidate("a.jpg", age: 5)],
            context: Scenario.context())
        XCTAssertEqual(d.suggestion?.path, "a.jpg")
    }

    func testNothingQualifies() {
        let d = SuggestionEngine().decide([Scenario.candidate("old.jpg", age: 3600)], context: Scenario.context())
        XCTAssertNil(d.suggestion)
        XCTAssertNil(d.instant)
    }

    func testANewerPhotoReplacesTheOfferedOne() {
        let offered = Scenario.candidate("first.jpg", age: 30)
        let context = Scenario.context(remembered: Scenario.now - 30)
        let d = SuggestionEngine().decide([offered, Scenario.candidate("second.jpg", age: 3)], context: context)
        XCTAssertEqual(d.suggestion?.path, "second.jpg")
        XCTAssertEqual(d.rejected.first?.rule, .memory)
    }
}

final class DurationTests: XCTestCase {
    func testForms() {
        XCTAssertEqual(DurationText.parse("10s"), 10)
        XCTAssertEqual(DurationText.parse("2m"), 120)
        XCTAssertEqual(DurationText.parse("1h"), 3600)
        XCTAssertEqual(DurationText.parse("1h30m"), 5400)
        XCTAssertEqual(DurationText.parse("500ms"), 0.5)
        XCTAssertNil(DurationText.parse("60"))
        XCTAssertEqual(DurationText.parse("0"), 0, "nothing in every unit")
        XCTAssertNil(DurationText.parse("00"))
        XCTAssertNil(DurationText.parse("ten seconds"))
        XCTAssertNil(DurationText.parse(""))
        XCTAssertNil(DurationText.parse("-5s"))
        XCTAssertEqual(DurationText.parse("1d12h"), 129_600)
        XCTAssertNil(DurationText.parse("1m1m"), "a unit once")
        XCTAssertNil(DurationText.parse("1s1m"), "units from the largest down")
        XCTAssertNil(DurationText.parse("2M"), "lower case")
        XCTAssertNil(DurationText.parse("99999999999999999999s"), "bounded")
        XCTAssertNil(DurationText.parse("3651d"), "at most ten years")
    }
}

final class LivePhotoPairingTests: XCTestCase {
    /// A date `seconds` after 2024-05-01 10:00:00 with the offset +02:00 (or none).
    static func at(_ seconds: Int64, offset: Bool = true) -> CaptureDate? {
        guard let local = LocalDateTime(secondsAsIfUTC: 1_714_557_600 + seconds, nanosecond: 0, fractionDigits: nil)
        else { return nil }
        return CaptureDate(
            .wall(local, offset: offset ? UTCOffset(seconds: 7200) : nil, offsetSource: nil), source: .exifDateTimeOriginal)
    }

    static func movie(_ candidate: inout SuggestionCandidate, seconds: Double = 3, at time: Int64 = 0) {
        candidate.durationSeconds = seconds
        candidate.captured = at(time)
    }

    func testPairsBySameBaseNameInOneFolder() {
        var list = [
            Scenario.candidate("d/IMG_1.HEIC", age: 1),
            Scenario.candidate("d/IMG_1.MOV", age: 1, kind: .video, format: .mov),
            Scenario.candidate("d/IMG_2.JPG", age: 1),
            Scenario.candidate("d/other.mov", age: 1, kind: .video, format: .mov),
            Scenario.candidate("e/IMG_1.HEIC", age: 1),
            Scenario.candidate("e/IMG_3.JPG", age: 1),
        ]
        for i in list.indices { list[i].captured = Self.at(0) }
        Self.movie(&list[1])
        Self.movie(&list[3])
        list[2].contentIdentifier = "X"
        list[3].contentIdentifier = "X"
        list[5].contentIdentifier = "X"
        LivePhotoPairing.apply(&list)
        XCTAssertEqual(list[0].kind, .livePhoto)
        XCTAssertEqual(list[0].livePhotoPair, "d/IMG_1.MOV")
        XCTAssertEqual(list[0].livePhotoEvidence, .baseNameAndTime)
        XCTAssertEqual(list[1].livePhotoPair, "d/IMG_1.HEIC")
        XCTAssertEqual(list[2].livePhotoPair, "d/other.mov", "one identifier pairs across names")
        XCTAssertEqual(list[2].livePhotoEvidence, .contentIdentifier)
        XCTAssertEqual(list[4].kind, .photo, "another folder")
        XCTAssertNil(list[5].livePhotoPair, "identifiers never pair across folders")
    }

    /// `apply` hands the rule only the files that can pair (videos, and stills sharing a
    /// video's base name or identifier): on folders of many names, extensions, cases,
    /// identifiers and times, it pairs exactly as the rule does over every file.
    func testLeavingOutStillsNoVideoCanReachChangesNoPair() {
        var rng = SplitMix(seed: 22)
        let names = ["IMG_1", "IMG_2", "IMG_3", "a", "b.c", ".hidden", "x"]
        let extensions = ["HEIC", "heic", "JPG", "jpeg", "MOV", "mov", "png", "mp4", ""]
        for _ in 0..<300 {
            var list: [SuggestionCandidate] = []
            for _ in 0..<Int.random(in: 1...14, using: &rng) {
                let folder = ["d", "e", "d.x"].randomElement(using: &rng) ?? "d"
                let ext = extensions.randomElement(using: &rng) ?? ""
                let name = (names.randomElement(using: &rng) ?? "x") + (ext.isEmpty ? "" : "." + ext)
                let isMovie = ["MOV", "mov", "mp4"].contains(ext)
                var c = Scenario.candidate(
                    folder + "/" + name, age: 1,
                    kind: isMovie ? .video : [.photo, .screenshot, .gif].randomElement(using: &rng) ?? .photo,
                    format: isMovie ? .mov : .jpeg)
                c.captured = Self.at(Int64.random(in: 0...8, using: &rng))
                c.contentIdentifier = [nil, nil, "A", "B"].randomElement(using: &rng) ?? nil
                if isMovie { c.durationSeconds = [2, 3, 9].randomElement(using: &rng) }
                list.append(c)
            }
            var expected = list
            for p in LivePhotoPairing.pairs(list.map(\.pairingMember)) {
                let (stillPath, moviePath) = (list[p.still].path, list[p.movie].path)
                LivePhotoPairing.link(
                    &expected[p.still], partner: moviePath, captured: list[p.movie].captured, evidence: p.evidence, isStill: true)
                LivePhotoPairing.link(
                    &expected[p.movie], partner: stillPath, captured: list[p.still].captured, evidence: p.evidence,
                    isStill: false)
            }
            var applied = list
            LivePhotoPairing.apply(&applied)
            XCTAssertEqual(applied.map(\.livePhotoPair), expected.map(\.livePhotoPair), "\(list.map(\.path))")
            XCTAssertEqual(applied.map(\.livePhotoEvidence), expected.map(\.livePhotoEvidence))
            XCTAssertEqual(applied.map(\.kind), expected.map(\.kind))
        }
    }

    /// The one FNV-1a: the draft's test vectors (draft-eastlake-fnv-21, 64-bit FNV-1a), so
    /// digests stored in existing indexes keep their values.
    func testFNV1aIsTheStandardOne() {
        for (text, expected): (String, UInt64) in [
            ("", 0xcbf2_9ce4_8422_2325), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8),
        ] {
            var h = FNV1a()
            h.add(text.utf8)
            XCTAssertEqual(h.value, expected, text)
        }
    }

    /// The filter's key is `split`'s: paths with the same base-name key hash alike.
    func testTheStemHashIsTheBaseNameKey() {
        let paths = [
            "d/IMG_1.HEIC", "d/IMG_1.mov", "d/IMG_1", "d/.hidden", "d/.hidden.mov", "d.x/IMG_1.jpg", "d.x/IMG_1",
            "a.b.c", "a.b.mov", "/", "", "d/", "très/é.HEIC", "très/é.MOV",
            // Decomposed spellings of the same keys: equal as strings, so equal as hashes.
            "tre\u{300}s/e\u{301}.mov", "d/Cafe\u{301}.MOV", "d/Café.HEIC",
        ]
        for a in paths {
            for b in paths {
                let (da, ba, _) = LivePhotoPairing.split(a)
                let (db, bb, _) = LivePhotoPairing.split(b)
                let same = a[da.startIndex..<ba.endIndex] == b[db.startIndex..<bb.endIndex]
                XCTAssertEqual(LivePhotoPairing.stemHash(a) == LivePhotoPairing.stemHash(b), same, "\(a) \(b)")
            }
        }
    }

    func testDisagreeingIdentifiersDoNotPair() {
        var list = [
            Scenario.candidate("IMG_1.HEIC", age: 1), Scenario.candidate("IMG_1.MOV", age: 1, kind: .video, format: .mov),
        ]
        list[0].captured = Self.at(0)
        Self.movie(&list[1])
        list[0].contentIdentifier = "A"
        list[1].contentIdentifier = "B"
        LivePhotoPairing.apply(&list)
        XCTAssertEqual(list[0].kind, .photo)
        XCTAssertNil(list[1].livePhotoPair)
    }

    func testTheIdentifierChoosesAmongStillsOfOneName() {
        let members = [
            LivePhotoPairing.Member(path: "IMG_1.HEIC", kind: .photo, contentIdentifier: "A"),
            LivePhotoPairing.Member(path: "IMG_1.JPG", kind: .photo, contentIdentifier: "B"),
            LivePhotoPairing.Member(path: "IMG_1.mov", kind: .video, contentIdentifier: "B"),
        ]
        let pairs = LivePhotoPairing.pairs(members)
        XCTAssertEqual(pairs.map { [$0.still, $0.movie] }, [[1, 2]])
        XCTAssertEqual(pairs.first?.evidence, .contentIdentifier, "no dates or durations needed")
    }

    func testTheSameNameAloneNeedsAShortClipCapturedTogether() {
        func pair(still: CaptureDate?, movie: CaptureDate?, seconds: Double?) -> Bool {
            let members = [
                LivePhotoPairing.Member(path: "fixture.jpg", kind: .photo, contentIdentifier: nil, captured: still),
                LivePhotoPairing.Member(
                    path: "fixture.mov", kind: .video, contentIdentifier: nil, captured: movie, durationSeconds: seconds),
            ]
            return !LivePhotoPairing.pairs(members).isEmpty
        }
        XCTAssertTrue(pair(still: Self.at(1), movie: Self.at(0), seconds: 3))
        XCTAssertTrue(pair(still: Self.at(0), movie: Self.at(5), seconds: 6), "the limits are inclusive")
        XCTAssertFalse(pair(still: Self.at(0), movie: Self.at(6), seconds: 3), "6 s apart")
        XCTAssertFalse(pair(still: Self.at(0), movie: Self.at(0), seconds: 12.5), "a video of its own")
        XCTAssertFalse(pair(still: Self.at(0), movie: Self.at(0), seconds: nil), "no duration, no proof")
        XCTAssertFalse(pair(still: nil, movie: Self.at(0), seconds: 3), "no date, no proof")
        // One side without a zone: a whole number of quarter hours apart, then within seconds.
        XCTAssertTrue(pair(still: Self.at(7200 + 2, offset: false), movie: Self.at(0), seconds: 3))
        XCTAssertTrue(pair(still: Self.at(-(5 * 3600 + 1800) + 1, offset: false), movie: Self.at(0), seconds: 3))
        XCTAssertFalse(pair(still: Self.at(7200 + 600, offset: false), movie: Self.at(0), seconds: 3))
        XCTAssertFalse(pair(still: Self.at(15 * 3600, offset: false), movie: Self.at(0), seconds: 3), "past ±14 h")
        // Neither says its zone: compared as written.
        XCTAssertTrue(pair(still: Self.at(2, offset: false), movie: Self.at(0, offset: false), seconds: 3))
        XCTAssertFalse(pair(still: Self.at(3600, offset: false), movie: Self.at(0, offset: false), seconds: 3))
    }

    func testSameNameIdentifiersComeBeforeOtherNames() {
        // IMG_0.HEIC sorts first and carries X too, but the movie's own name wins.
        let members = [
            LivePhotoPairing.Member(path: "d/A.HEIC", kind: .photo, contentIdentifier: "X"),
            LivePhotoPairing.Member(path: "d/B.HEIC", kind: .photo, contentIdentifier: "X"),
            LivePhotoPairing.Member(path: "d/A.MOV", kind: .video, contentIdentifier: "X"),
            LivePhotoPairing.Member(path: "d/B.MOV", kind: .video, contentIdentifier: "X"),
        ]
        XCTAssertEqual(LivePhotoPairing.pairs(members).map { [$0.still, $0.movie] }, [[0, 2], [1, 3]])
        // inspect needs no other file when the base name settles it...
        XCTAssertEqual(LivePhotoPairing.neededIdentifiers(for: 0, in: [members[0], members[2]]), [])
        // ...and the identifier's other files when it does not.
        XCTAssertEqual(LivePhotoPairing.neededIdentifiers(for: 0, in: [members[0]]), ["X"])
    }

    func testSplitFindsFolderBaseAndExtension() {
        func parts(_ p: String) -> [String] {
            let (d, b, e) = LivePhotoPairing.split(p)
            return [String(d), String(b), String(e)]
        }
        XCTAssertEqual(parts("dir/IMG_0001.HEIC"), ["dir/", "IMG_0001", "HEIC"])
        XCTAssertEqual(parts("IMG.mov"), ["", "IMG", "mov"])
        XCTAssertEqual(parts("a.b/c"), ["a.b/", "c", ""], "a dot in the folder is not an extension")
        XCTAssertEqual(parts("d/.hidden"), ["d/", ".hidden", ""])
        XCTAssertEqual(parts("/abs/x.tar.gz"), ["/abs/", "x.tar", "gz"])
        XCTAssertEqual(parts("é/ü e\u{301}.JPG"), ["é/", "ü e\u{301}", "JPG"])
        XCTAssertEqual(parts("dir/"), ["dir/", "", ""])
    }

    func testOneMovieOneStillFirstInPathOrder() {
        let t = Self.at(0)
        let members = [
            LivePhotoPairing.Member(path: "IMG_1.JPG", kind: .photo, contentIdentifier: nil, captured: t),
            LivePhotoPairing.Member(path: "IMG_1.HEIC", kind: .photo, contentIdentifier: nil, captured: t),
            LivePhotoPairing.Member(path: "IMG_1.MOV", kind: .video, contentIdentifier: nil, captured: t, durationSeconds: 2),
            LivePhotoPairing.Member(path: "IMG_1.gif", kind: .gif, contentIdentifier: nil, captured: t),
        ]
        XCTAssertEqual(LivePhotoPairing.pairs(members).map { [$0.still, $0.movie] }, [[1, 2]], "HEIC sorts before JPG")
    }
}
