import Foundation
import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaSystem

/// The file-time rules of issue 10: the earlier of birth and modification time, and a wall
/// clock's offset from a file time that agrees with it to the second.
final class FileTimeRuleTests: XCTestCase {
    func t(_ s: String) -> LocalDateTime {
        guard case .success(let stamp) = DateTextParser.iso8601(s) else { fatalError("bad test date \(s)") }
        return stamp.local
    }

    func testTheEarlierFileTimeWins() {
        // cp -p: born now, the mtime of 2019 kept.
        let copy = FileTimes(birth: t("2026-12-01T08:00:00"), modification: t("2019-06-01T00:00:00"))
        let (a, _) = CaptureDateResolver.resolve(DateEvidence(fileName: "old.jpg", fileTimes: copy))
        XCTAssertEqual(a?.source, .fileModificationTime)
        XCTAssertEqual(a.map { Int($0.epochSeconds(assuming: utcZone)) }, Int(t("2019-06-01T00:00:00").secondsAsIfUTC))
        // Written after it was created: the birth time.
        let edited = FileTimes(birth: t("2024-01-01T10:00:00"), modification: t("2024-01-02T10:00:00"))
        XCTAssertEqual(
            CaptureDateResolver.resolve(DateEvidence(fileName: "x.jpg", fileTimes: edited)).date?.source, .fileBirthTime)
        let noBirth = FileTimes(birth: nil, modification: t("2024-01-02T10:00:00"))
        XCTAssertEqual(
            CaptureDateResolver.resolve(DateEvidence(fileName: "x.jpg", fileTimes: noBirth)).date?.source, .fileModificationTime)
    }

    /// A still written anew in place long after its file was made (a tool that saves every shot
    /// as `screenshot.png`, truncating the old one): the modification dates it. A recording keeps
    /// its birth (when it started), a still written for a minute or less (a slow copy) too, and
    /// a copy that kept an older modification time still takes that.
    func testAStillWrittenAnewIsDatedByItsModification() {
        func source(_ birth: String, _ modified: String, still: Bool) -> DateSource? {
            let times = FileTimes(birth: t(birth), modification: t(modified))
            return CaptureDateResolver.resolve(DateEvidence(fileName: "screenshot.png", fileTimes: times, isStill: still))
                .date?.source
        }
        XCTAssertEqual(source("2024-01-01T10:00:00", "2024-01-03T09:30:00", still: true), .fileModificationTime)
        XCTAssertEqual(source("2024-01-01T10:00:00", "2024-01-03T09:30:00", still: false), .fileBirthTime)
        XCTAssertEqual(source("2024-01-01T10:00:00", "2024-01-01T10:01:00", still: true), .fileBirthTime)
        XCTAssertEqual(source("2024-01-01T10:00:00", "2024-01-01T10:01:01", still: true), .fileModificationTime)
        XCTAssertEqual(source("2024-01-01T10:00:00.900", "2024-01-01T10:01:00.950", still: true), .fileModificationTime)
        XCTAssertEqual(source("2024-01-01T10:00:00.900", "2024-01-01T10:01:00.900", still: true), .fileBirthTime)
        XCTAssertEqual(source("2024-01-03T09:30:00", "2019-06-01T00:00:00", still: true), .fileModificationTime)
        let d = CaptureDateResolver.resolve(
            DateEvidence(
                fileName: "screenshot.png",
                fileTimes: FileTimes(birth: t("2024-01-01T10:00:00"), modification: t("2024-01-03T09:30:00")),
                isStill: true)
        ).date
        XCTAssertEqual(d.map { Int($0.epochSeconds(assuming: utcZone)) }, Int(t("2024-01-03T09:30:00").secondsAsIfUTC))
    }

    /// The same through `FileInspector`, on a file whose modification is set two hours after its
    /// birth (as a rewrite in place leaves it): an undated GIF takes the modification, an
    /// undated recording its birth.
    func testInspectionTellsAStillFromARecording() throws {
        let dir = try TemporaryDirectory()
        let later = Date(timeIntervalSinceNow: 7200)
        for (name, fixture) in [("still.gif", "still.gif"), ("recording.mkv", "../formats/recording.mkv")] {
            let path = dir.path + "/" + name
            try FileManager.default.copyItem(atPath: TestPaths.fixture(fixture), toPath: path)
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
        }
        guard (try? FileFacts.of(dir.path + "/still.gif"))?.birth != nil else {
            throw XCTSkip("the file system here records no birth time")
        }
        XCTAssertEqual(FileInspector.inspect(path: dir.path + "/still.gif").captured?.source, .fileModificationTime)
        XCTAssertEqual(FileInspector.inspect(path: dir.path + "/recording.mkv").captured?.source, .fileBirthTime)
    }

    func offset(name: String, modified: String) -> CaptureDate? {
        CaptureDateResolver.resolve(DateEvidence(fileName: name, fileTimes: FileTimes(birth: nil, modification: t(modified))))
            .date
    }

    func testAScreenshotNamedInLocalTimeGetsItsOffsetFromTheFileTime() throws {
        let name = "Screenshot from 2026-12-01 15-40-00.png"
        let d = try XCTUnwrap(offset(name: name, modified: "2026-12-01T07:40:01.500"))
        guard case .wall(_, let o, let source) = d.clock else { return XCTFail("\(d)") }
        XCTAssertEqual(o?.seconds, 8 * 3600)
        XCTAssertEqual(source, .fileTime)
        XCTAssertEqual(d.rendered(in: utcZone).offsetSource, .fileTime)
        XCTAssertEqual(
            d.epochSeconds(assuming: utcZone), Double(t("2026-12-01T07:40:00").secondsAsIfUTC) + 0.999,
            "the zone is no longer assumed; the instant is in the second the name gives, as late as it can be")
    }

    /// The name's second spans a second; the file time may be up to two seconds either side.
    func testOnlyAgreementToTwoSecondsCounts() throws {
        let name = "Screenshot from 2026-12-01 15-40-00.png"
        for (modified, agrees) in [
            ("2026-12-01T07:40:03", true), ("2026-12-01T07:39:58", true), ("2026-12-01T07:40:03.001", false),
            ("2026-12-01T07:39:57.999", false), ("2026-12-01T07:47:00", false),
        ] {
            let d = try XCTUnwrap(offset(name: name, modified: modified))
            guard case .wall(_, let o, _) = d.clock else { return XCTFail("\(d)") }
            XCTAssertEqual(o != nil, agrees, modified)
        }
    }

    func testOffsetsThatZonesUse() throws {
        for (hours, quarters, ok) in [
            (14, 0, true), (-12, 0, true), (5, 3, true), (-3, -2, true), (12, 3, true), (-12, -1, false), (14, 1, false),
            (2, 1, false), (1, 3, false), (0, 0, false),
        ] {
            let seconds = hours * 3600 + quarters * 900
            let local = t("2026-06-01T12:00:00")
            let fileTime = try XCTUnwrap(LocalDateTime(secondsAsIfUTC: local.secondsAsIfUTC - Int64(seconds)))
            let d = try XCTUnwrap(offset(name: "IMG_20260601_120000.jpg", modified: fileTime.iso8601))
            guard case .wall(_, let o, _) = d.clock else { return XCTFail("\(d)") }
            XCTAssertEqual(o?.seconds, ok ? seconds : nil, "\(hours) h \(quarters) quarters")
        }
    }

    /// A camera's FAT card keeps its local time with no zone, and Linux reads it as UTC: a
    /// photo copied with its times agrees with them at +00:00 wherever it was taken.
    func testAgreementAtUTCLendsNoOffset() throws {
        let d = try XCTUnwrap(offset(name: "20240501_101112.jpg", modified: "2024-05-01T10:11:13"))
        guard case .wall(_, let o, _) = d.clock else { return XCTFail("\(d)") }
        XCTAssertNil(o)
        XCTAssertEqual(d.rendered(in: utcZone).assumed?.offset, "+00:00", "the machine's zone, assumed, says the same")
    }

    /// A name to the minute (Flameshot's) is placed at the file's time inside that minute:
    /// two shots of one minute are two instants, and one taken at :57 is 3 s old at :60.
    func testANameToTheMinuteTakesTheSecondsFromTheFileTime() throws {
        let name = "2026-12-01_15-40.png"
        let d = try XCTUnwrap(offset(name: name, modified: "2026-12-01T07:40:57.250"))
        guard case .wall(let local, let o, let source) = d.clock else { return XCTFail("\(d)") }
        XCTAssertEqual(local.iso8601, "2026-12-01T15:40:57.250")
        XCTAssertEqual(o?.seconds, 8 * 3600)
        XCTAssertEqual(source, .fileTime)
        XCTAssertEqual(d.source, .fileName)
        // The milliseconds as the file time has them (.800 is no exact binary fraction).
        let tenths = try XCTUnwrap(offset(name: "Screenshot_20261201-154012.png", modified: "2026-12-01T07:40:12.800"))
        guard case .wall(let exact, _, _) = tenths.clock else { return XCTFail("\(tenths)") }
        XCTAssertEqual(exact.iso8601, "2026-12-01T15:40:12.800")
        let second = try XCTUnwrap(offset(name: "2026-12-01_15-40_1.png", modified: "2026-12-01T07:40:58.100"))
        XCTAssertGreaterThan(second.epochSeconds(assuming: utcZone), d.epochSeconds(assuming: utcZone))
        let notes = CaptureDateResolver.resolve(
            DateEvidence(fileName: name, fileTimes: FileTimes(birth: nil, modification: t("2026-12-01T07:40:57.250")))
        ).diagnostics
        XCTAssertTrue(notes.contains { $0.message.contains("gives the minute only") }, "\(notes)")
        // A file time outside the minute (a copy made later): the name's minute, :00.
        let copied = try XCTUnwrap(offset(name: name, modified: "2026-12-03T09:00:00"))
        guard case .wall(let kept, nil, _) = copied.clock else { return XCTFail("\(copied)") }
        XCTAssertEqual(kept.iso8601, "2026-12-01T15:40:00")
        // Agreement at +00:00 places the seconds and lends no offset.
        let utc = try XCTUnwrap(offset(name: name, modified: "2026-12-01T15:40:12"))
        guard case .wall(let placed, nil, _) = utc.clock else { return XCTFail("\(utc)") }
        XCTAssertEqual(placed.iso8601, "2026-12-01T15:40:12.000")
    }

    func testADateWithItsOwnOffsetOrWithoutATimeIsLeftAlone() throws {
        // WhatsApp names carry a date only: no time to agree with.
        let d = try XCTUnwrap(offset(name: "IMG-20261201-WA0001.jpg", modified: "2026-11-30T16:00:00"))
        guard case .wall(_, let o, _) = d.clock else { return XCTFail("\(d)") }
        XCTAssertNil(o)
    }
}
