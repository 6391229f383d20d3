import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore

/// A file renamed within a watched folder is judged at its new name only when something other
/// than its file times dates it (`WatchLoop.judgesRename`): a name that dates it anew makes it a
/// candidate, as a scan would (`WatchCommandTests.testARenameThatDatesAFileNowOffersItAsAScanWould`);
/// a rename that lost its date leaves a file born now, which must not read as a photo of now.
final class RenameJudgementTests: XCTestCase {
    private func asset(_ source: DateSource?) -> MediaAsset {
        var a = MediaAsset(path: "/photos/grandma.jpg", format: .jpeg)
        let now = LocalDateTime(year: 2024, month: 12, day: 7, hour: 7, minute: 0)
        a.captured = source.flatMap { s in now.map { CaptureDate(.instant(utc: $0), source: s) } }
        return a
    }

    func testOnlyWhatTheFileOrItsNameSaysMakesARenameNews() {
        XCTAssertTrue(WatchLoop.judgesRename(asset(.fileName)), "a name that dates it")
        XCTAssertTrue(WatchLoop.judgesRename(asset(.exifDateTimeOriginal)), "its own date")
        XCTAssertTrue(WatchLoop.judgesRename(asset(.sidecarXMP)), "a sidecar it now has")
        XCTAssertFalse(WatchLoop.judgesRename(asset(.fileBirthTime)), "a name's date lost: born now")
        XCTAssertFalse(WatchLoop.judgesRename(asset(.fileModificationTime)))
        XCTAssertFalse(WatchLoop.judgesRename(asset(nil)), "no date at all")
    }
}
