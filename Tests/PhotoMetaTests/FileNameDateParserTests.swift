import XCTest

@testable import PhotoMeta
@testable import PhotoMetaCore
@testable import PhotoMetaStore
@testable import PhotoMetaSystem

/// One test per naming scheme in `FileNameDateParser.patterns`, plus the rejections.
final class FileNameDateParserTests: XCTestCase {
    func check(
        _ name: String, _ expected: String, pattern: String, instant: Bool = false, screenshot: Bool = false,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let d = FileNameDateParser.parse(name) else {
            return XCTFail("\(name): no date", file: file, line: line)
        }
        XCTAssertEqual(d.local.iso8601, expected, name, file: file, line: line)
        XCTAssertEqual(d.pattern, pattern, name, file: file, line: line)
        XCTAssertEqual(d.isInstant, instant, name, file: file, line: line)
        XCTAssertEqual(d.isScreenshot, screenshot, name, file: file, line: line)
    }

    func testAndroidCamera() {
        check("IMG_20240315_093012.jpg", "2024-03-15T09:30:12", pattern: "android.camera")
        check("VID_20240315_093012_1.mp4", "2024-03-15T09:30:12", pattern: "android.camera")
    }

    func testSamsungCamera() {
        check("20240315_093012.jpg", "2024-03-15T09:30:12", pattern: "samsung.camera")
        check("20240315_093012(0).jpg", "2024-03-15T09:30:12", pattern: "samsung.camera")
    }

    func testPixelIsUTC() {
        check("PXL_20240315_013012345.jpg", "2024-03-15T01:30:12.345", pattern: "pixel", instant: true)
        check("PXL_20240315_013012345.MP.jpg", "2024-03-15T01:30:12.345", pattern: "pixel", instant: true)
    }

    func testWhatsAppDateOnly() {
        check("IMG-20240315-WA0007.jpg", "2024-03-15", pattern: "whatsapp")
        XCTAssertEqual(FileNameDateParser.parse("IMG-20240315-WA0007.jpg")?.local.hasTime, false)
        check("VID-20240315-WA0001.mp4", "2024-03-15", pattern: "whatsapp")
    }

    func testWhatsAppExport() {
        check("WhatsApp Image 2024-03-15 at 09.30.12.jpeg", "2024-03-15T09:30:12", pattern: "whatsapp.export")
        check("WhatsApp Image 2024-03-15 at 09.30.12 (1).jpeg", "2024-03-15T09:30:12", pattern: "whatsapp.export")
    }

    func testWeChatEpochMillisAreInstants() {
        check("mmexport1700000000000.jpg", "2023-11-14T22:13:20.000", pattern: "wechat.export", instant: true)
        check("wx_camera_1700000000123.jpg", "2023-11-14T22:13:20.123", pattern: "wechat.camera", instant: true)
    }

    func testWeChatImage() {
        check("微信图片_20240315093012.jpg", "2024-03-15T09:30:12", pattern: "wechat.image")
    }

    func testQQScreenshot() {
        check("QQ截图20240315093012.png", "2024-03-15T09:30:12", pattern: "qq.screenshot", screenshot: true)
    }

    func testAndroidScreenshot() {
        check("Screenshot_20240315-093012.png", "2024-03-15T09:30:12", pattern: "android.screenshot", screenshot: true)
        check("Screenshot_20240315-093012_Chrome.jpg", "2024-03-15T09:30:12", pattern: "android.screenshot", screenshot: true)
    }

    func testSamsungAndKDEScreenshot() {
        check(
            "Screenshot_20240315_093012_com.tencent.mm.jpg", "2024-03-15T09:30:12", pattern: "samsung.screenshot",
            screenshot: true)
        check("Screenshot_20240315_093012.png", "2024-03-15T09:30:12", pattern: "samsung.screenshot", screenshot: true)
    }

    func testMIUIScreenshot() {
        check(
            "Screenshot_2024-03-15-09-30-12-123_com.miui.home.png", "2024-03-15T09:30:12.123", pattern: "miui.screenshot",
            screenshot: true)
        check(
            "Screenshot_2024-03-15-09-30-12_com.tencent.mm.png", "2024-03-15T09:30:12", pattern: "miui.screenshot",
            screenshot: true)
    }

    func testMacOSScreenshot() {
        check("Screen Shot 2023-10-05 at 4.07.09 PM.png", "2023-10-05T16:07:09", pattern: "macos.screenshot", screenshot: true)
        check(
            "Screenshot 2023-10-05 at 12.07.09\u{202F}AM.png", "2023-10-05T00:07:09", pattern: "macos.screenshot",
            screenshot: true)
        check("Screenshot 2023-10-05 at 16.07.09.png", "2023-10-05T16:07:09", pattern: "macos.screenshot", screenshot: true)
    }

    func testMacOSChineseScreenshot() {
        check("屏幕快照 2019-03-05 下午3.04.05.png", "2019-03-05T15:04:05", pattern: "macos.screenshot.zh", screenshot: true)
        check("截屏2023-10-05 上午9.07.09.png", "2023-10-05T09:07:09", pattern: "macos.screenshot.zh", screenshot: true)
        check("截屏2023-10-05 21.07.09.png", "2023-10-05T21:07:09", pattern: "macos.screenshot.zh", screenshot: true)
    }

    func testWindowsScreenshot() {
        check("Screenshot 2024-03-15 093012.png", "2024-03-15T09:30:12", pattern: "windows.screenshot", screenshot: true)
        check("屏幕截图 2024-03-15 093012.png", "2024-03-15T09:30:12", pattern: "windows.screenshot", screenshot: true)
    }

    func testGNOMEScreenshot() {
        check("Screenshot from 2024-03-15 09-30-12.png", "2024-03-15T09:30:12", pattern: "gnome.screenshot", screenshot: true)
    }

    func testImpossibleValuesAreRejected() {
        XCTAssertNil(FileNameDateParser.parse("IMG_20241315_093012.jpg"), "month 13")
        XCTAssertNil(FileNameDateParser.parse("IMG_19000101_093012.jpg"), "year 1900")
        XCTAssertNil(FileNameDateParser.parse("IMG_20240230_093012.jpg"), "February 30")
        XCTAssertNil(FileNameDateParser.parse("IMG_20240315_253012.jpg"), "hour 25")
        XCTAssertNil(FileNameDateParser.parse("Screen Shot 2023-10-05 at 13.07.09 PM.png"), "13 PM")
        XCTAssertNil(FileNameDateParser.parse("mmexport0000000000001.jpg"), "epoch in 1970")
    }

    func testNamesWithoutDates() {
        for name in ["IMG_1234.JPG", "DSC_0001.JPG", "photo.jpg", "IMG_20240315_0930121.jpg", "2024.png", ""] {
            XCTAssertNil(FileNameDateParser.parse(name), name)
        }
    }

    func testDirectoryAndExtensionAreIgnored() {
        check("/a/b.c/IMG_20240315_093012", "2024-03-15T09:30:12", pattern: "android.camera")
    }
}
