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

    /// Open Camera's UTC option, screen recorders on Linux, Windows and iOS, DJI's cameras,
    /// LINE (docs/dates.md cites each).
    func testRecordersCamerasAndMessengers() {
        check("IMG_20240101_120000Z.jpg", "2024-01-01T12:00:00", pattern: "android.camera", instant: true)
        check("VID_20240101_120000Z_1.mp4", "2024-01-01T12:00:00", pattern: "android.camera", instant: true)
        check("IMG_20240101_120000_1.jpg", "2024-01-01T12:00:00", pattern: "android.camera")
        check("simplescreenrecorder-2024-09-19_14.24.08.mkv", "2024-09-19T14:24:08", pattern: "simplescreenrecorder")
        check("simplescreenrecorder-2024-09-19_14.24.08-2.mkv", "2024-09-19T14:24:08", pattern: "simplescreenrecorder")
        check("Kooha-2022-05-10-14-30-12.webm", "2022-05-10T14:30:12", pattern: "kooha")
        check("vokoscreenNG-2023-12-01_12-34-56.mkv", "2023-12-01T12:34:56", pattern: "vokoscreen", screenshot: true)
        check("vokoscreenNG-2023-12-01_12-34-56.789.png", "2023-12-01T12:34:56.789", pattern: "vokoscreen", screenshot: true)
        check("Peek 2020-03-01 12-34.gif", "2020-03-01T12:34:00", pattern: "peek")
        check("Screen Recording 2025-07-30 231848.mp4", "2025-07-30T23:18:48", pattern: "windows.screenrecord")
        check("ScreenRecording_01-22-2025 16-13-55_1.MP4", "2025-01-22T16:13:55", pattern: "ios.screenrecord")
        check("DJI_20211110092545_0001_Z.JPG", "2021-11-10T09:25:45", pattern: "dji")
        check("LINE_P20210307_160303085.jpg", "2021-03-07T16:03:03.085", pattern: "line")
        XCTAssertNil(FileNameDateParser.parse("DJI_0001.JPG"), "older DJI models' counter")
        XCTAssertNil(FileNameDateParser.parse("ScreenRecording_22-01-2025 16-13-55.MP4"), "month 22")
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
        // Dropbox's camera uploads, and macOS's screen recordings.
        check("2023-07-15 20.29.02.jpg", "2023-07-15T20:29:02", pattern: "dropbox")
        check("2023-07-15 20.29.02-1.jpg", "2023-07-15T20:29:02", pattern: "dropbox")
        check("Screen Recording 2024-03-15 at 9.30.12 AM.mov", "2024-03-15T09:30:12", pattern: "macos.screenrecord")
        check("Screen Recording 2024-03-15 at 21.30.12.mov", "2024-03-15T21:30:12", pattern: "macos.screenrecord")
        // A phone set to a 12-hour clock.
        check("WhatsApp Image 2023-07-15 at 8.29.02 PM.jpeg", "2023-07-15T20:29:02", pattern: "whatsapp.export")
        check("WhatsApp Image 2023-07-15 at 8.29.02 PM (1) (1).jpeg", "2023-07-15T20:29:02", pattern: "whatsapp.export")
        check("WhatsApp Video 2023-07-15 at 12.05.09 AM.mp4", "2023-07-15T00:05:09", pattern: "whatsapp.export")
        check("WhatsApp Image 2023-07-15 at 9.05.09.jpeg", "2023-07-15T09:05:09", pattern: "whatsapp.export")
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

    /// macOS's other languages: each as a real name seen in public repositories (docs/dates.md).
    func testMacOSLocalisedScreenshots() {
        for (name, expected) in [
            ("Bildschirmfoto 2023-11-07 um 08.42.13.png", "2023-11-07T08:42:13"),
            ("Capture d\u{2019}écran 2025-01-17 à 20.58.03.png", "2025-01-17T20:58:03"),
            ("Captura de pantalla 2023-10-30 a las 9.18.36.png", "2023-10-30T09:18:36"),
            ("Captura de Pantalla 2023-07-14 a la(s) 15.37.49.png", "2023-07-14T15:37:49"),
            ("Captura de Tela 2024-09-28 às 19.20.35.png", "2024-09-28T19:20:35"),
            ("Captura de ecrã 2023-11-26, às 18.53.34.png", "2023-11-26T18:53:34"),
            ("Schermafbeelding 2019-01-16 om 17.17.56.png", "2019-01-16T17:17:56"),
            ("Schermata 2024-12-23 alle 15.10.01.png", "2024-12-23T15:10:01"),
            ("Zrzut ekranu 2024-12-3 o 20.53.01.png", "2024-12-03T20:53:01"),
            ("Снимок экрана 2024-03-08 в 22.38.52.png", "2024-03-08T22:38:52"),
            ("スクリーンショット 2020-03-21 8.50.12.png", "2020-03-21T08:50:12"),
            ("스크린샷 2023-12-28 22.11.22.png", "2023-12-28T22:11:22"),
            ("스크린샷 2023-12-21 오후 2.54.58.png", "2023-12-21T14:54:58"),
            ("Skärmavbild 2018-10-01 kl. 09.53.29.png", "2018-10-01T09:53:29"),
            ("Skærmbillede 2023-12-02 kl. 13.36.31.png", "2023-12-02T13:36:31"),
            ("Skjermbilde 2020-11-30 kl. 16.28.52.png", "2020-11-30T16:28:52"),
            ("Näyttökuva 2022-10-6 kello 22.29.23.png", "2022-10-06T22:29:23"),
            ("Ekran Resmi 2021-05-02 16.11.30.png", "2021-05-02T16:11:30"),
            ("Ekran Resmi 2022-03-23 8.36.56 PM.png", "2022-03-23T20:36:56"),
            ("Snímek obrazovky 2022-11-29 v 18.40.09.png", "2022-11-29T18:40:09"),
            ("螢幕快照 2017-10-11 下午8.11.21.png", "2017-10-11T20:11:21"),
            ("螢幕截圖 2023-12-10 上午11.59.11.png", "2023-12-10T11:59:11"),
            ("截圖 2025-11-19 晚上10.16.30.png", "2025-11-19T22:16:30"),
            ("Screenshot 2024-06-01 at 7.24.08 pm.png", "2024-06-01T19:24:08"),
        ] {
            check(name, expected, pattern: "macos.screenshot", screenshot: true)
        }
        // Windows' Snipping Tool writes the same words with a bare `HHmmss`.
        check("Captura de pantalla 2023-11-04 171245.png", "2023-11-04T17:12:45", pattern: "windows.screenshot", screenshot: true)
        check("Schermafbeelding 2023-04-06 093350.png", "2023-04-06T09:33:50", pattern: "windows.screenshot", screenshot: true)
        XCTAssertNil(FileNameDateParser.parse("스크린샷 2023-12-21 오후 14.54.58.png"), "afternoon hour 14")
    }

    /// Game captures: the title first, then the time (ShadowPlay, Xbox Game Bar; real names).
    func testTitleFirstSchemes() {
        check(
            "War Thunder 2021.09.23 - 17.24.16.15.DVR.mp4", "2021-09-23T17:24:16", pattern: "shadowplay")
        check("Spelunky 2 2022.04.16 - 00.59.58.06.DVR.mp4", "2022-04-16T00:59:58", pattern: "shadowplay")
        check("Call of Duty  Black Ops Cold War 2021.05.10 - 13.49.56.02.mp4", "2021-05-10T13:49:56", pattern: "shadowplay")
        check(
            "Battlefield 1 Screenshot 2021.07.22 - 19.37.40.47.png", "2021-07-22T19:37:40",
            pattern: "shadowplay.screenshot", screenshot: true)
        check(
            "Desktop Screenshot 2021.08.02 - 01.39.05.72.png", "2021-08-02T01:39:05", pattern: "shadowplay.screenshot",
            screenshot: true)
        check("TEKKEN 7  2019-08-12 22-25-31.mp4", "2019-08-12T22:25:31", pattern: "xbox.gamebar")
        check("Nintendo 64 - OoTR 593579 2020-10-19 12-53-01.mp4", "2020-10-19T12:53:01", pattern: "xbox.gamebar")
        // A title needs a name before the space; the bare date is OBS's.
        check("2020-10-19 12-53-01.mkv", "2020-10-19T12:53:01", pattern: "obs")
        // Only when nothing matched from the start: a Firefox screenshot of a page whose title
        // holds another time keeps its own date.
        check(
            "Screenshot 2025-03-07 at 14-05-09 Log 2020-10-19 12-53-01.png", "2025-03-07T14:05:09",
            pattern: "firefox.screenshot", screenshot: true)
        // The hundredths must be there, and nothing may continue the number.
        XCTAssertNil(FileNameDateParser.parse("Game 2021.09.23 - 17.24.16.png"))
        XCTAssertNil(FileNameDateParser.parse("Game 2021-09-23 17-24-165.png"))
        XCTAssertNil(FileNameDateParser.parse(" 2021-09-23 17-24-16.png"), "no title")
        // Two times after titles that disagree give none.
        XCTAssertNil(FileNameDateParser.parse("A 2021-09-23 17-24-16 B 2022-01-01 00-00-00.png"))
        XCTAssertTrue(FileNameDateParser.mayBeScreenshot("Hades Screenshot 2021.03.23 - 06.00.32.64.webp"))
        XCTAssertFalse(FileNameDateParser.mayBeScreenshot("Hades 2021.03.23 - 06.00.32.64.mp4"))
    }

    /// ChromeOS: the 24-hour clock zero-padded, the 12-hour one not, with AM or PM.
    func testChromeOS() {
        check("Screenshot 2023-01-12 15.04.05.png", "2023-01-12T15:04:05", pattern: "chromeos.screenshot", screenshot: true)
        check("Screenshot 2023-01-12 3.04.05 PM.png", "2023-01-12T15:04:05", pattern: "chromeos.screenshot", screenshot: true)
        check("Screenshot 2023-01-12 12.04.05 AM.png", "2023-01-12T00:04:05", pattern: "chromeos.screenshot", screenshot: true)
        check("Screen recording 2023-01-12 9.04.05 AM.webm", "2023-01-12T09:04:05", pattern: "chromeos.screenrecord")
        XCTAssertNil(FileNameDateParser.parse("Screenshot 2023-01-12 13.04.05 PM.png"), "13 PM")
    }

    func testLinuxScreenshotTools() {
        check("2023-11-30-135138_1920x1080_scrot.png", "2023-11-30T13:51:38", pattern: "scrot", screenshot: true)
        check("2023-11-30-135138_1920x1080_scrot_001.png", "2023-11-30T13:51:38", pattern: "scrot", screenshot: true)
        check("20231130_13h51m38s_grim.png", "2023-11-30T13:51:38", pattern: "grim", screenshot: true)
        check("2023-11-30T12:51:38Z_grim.png", "2023-11-30T12:51:38", pattern: "grim", instant: true, screenshot: true)
        check("ksnip_20231130-135138.png", "2023-11-30T13:51:38", pattern: "ksnip", screenshot: true)
        check(
            "Screenshot 2025-03-07 at 14-05-09 Example Domain.png", "2025-03-07T14:05:09", pattern: "firefox.screenshot",
            screenshot: true)
        check(
            "Screenshot 2025-03-07 at 14-05-09 2024 [...].png", "2025-03-07T14:05:09", pattern: "firefox.screenshot",
            screenshot: true)
        check("Snipaste_2025-03-07_14-05-09.png", "2025-03-07T14:05:09", pattern: "snipaste", screenshot: true)
        check("CleanShot 2025-03-07 at 14.05.09@2x.png", "2025-03-07T14:05:09", pattern: "cleanshot", screenshot: true)
        check("CleanShot 2025-03-07 at 14.05.09.png", "2025-03-07T14:05:09", pattern: "cleanshot", screenshot: true)
        // macOS's own English name has dots, Firefox's dashes: each is its own.
        check("Screenshot 2025-03-07 at 14.05.09.png", "2025-03-07T14:05:09", pattern: "macos.screenshot", screenshot: true)
        // scrot's name without its picture size is not scrot's.
        XCTAssertNil(FileNameDateParser.parse("2023-11-30-135138_scrot.png"))
    }

    func testScreenRecordersAndSteam() {
        check("screen-20231130-135138.mp4", "2023-11-30T13:51:38", pattern: "android.screenrecord")
        check("screen-20231130-135138-1701348698000.mp4", "2023-11-30T13:51:38", pattern: "android.screenrecord")
        check("Screen_Recording_20201028-103621_Chrome_1.mp4", "2020-10-28T10:36:21", pattern: "samsung.screenrecord")
        check("Screen_Recording_20221107_140902_Twitter.mp4", "2022-11-07T14:09:02", pattern: "samsung.screenrecord")
        check("20231130135138_1.jpg", "2023-11-30T13:51:38", pattern: "steam")
        check("20231130135138_12.jpg", "2023-11-30T13:51:38", pattern: "steam")
        // A counter longer than any integer is only counted.
        check("20231130135138_\(String(repeating: "9", count: 40)).jpg", "2023-11-30T13:51:38", pattern: "steam")
    }

    /// Phones' other camera names and the messengers' saved pictures (docs/dates.md cites each).
    func testPhoneAndMessengerNames() {
        check("PANO_20191231_235723.jpg", "2019-12-31T23:57:23", pattern: "android.camera")
        check("MVIMG_20191231_235723.jpg", "2019-12-31T23:57:23", pattern: "android.camera")
        check("IMG_20231130_135138_123.jpg", "2023-11-30T13:51:38", pattern: "android.camera")
        check("IMG20220423105358.jpg", "2022-04-23T10:53:58", pattern: "realme.camera")
        check("VID20240731092916_1.mp4", "2024-07-31T09:29:16", pattern: "realme.camera")
        check("00015IMG_00015_BURST20171111030039_COVER.jpg", "2017-11-11T03:00:39", pattern: "google.burst")
        check("00000IMG_00000_BURST20200209175020789_COVER.jpg", "2020-02-09T17:50:20.789", pattern: "google.burst")
        check("00100dPORTRAIT_00100_BURST20200209175020789.jpg", "2020-02-09T17:50:20.789", pattern: "google.burst")
        // The other portrait prefixes of real names.
        check("00100lrPORTRAIT_00100_BURST20200215105941635_COVER.jpg", "2020-02-15T10:59:41.635", pattern: "google.burst")
        check("00100sPORTRAIT_00100_BURST20200309173239199_COVER.jpg", "2020-03-09T17:32:39.199", pattern: "google.burst")
        check("00100lPORTRAIT_00100_BURST20190505125527565_COVER.jpg", "2019-05-05T12:55:27.565", pattern: "google.burst")
        check("00000PORTRAIT_00000_BURST20200309173410155.jpg", "2020-03-09T17:34:10.155", pattern: "google.burst")
        check("FB_IMG_1681531522298.jpg", "2023-04-15T04:05:22.298", pattern: "facebook", instant: true)
        check("KakaoTalk_20201230_215907472.jpg", "2020-12-30T21:59:07.472", pattern: "kakaotalk")
        check("KakaoTalk_20260901_145641111_01.png", "2026-09-01T14:56:41.111", pattern: "kakaotalk")
        check("KakaoTalk_Photo_2023-05-31-15-28-38 001.jpeg", "2023-05-31T15:28:38", pattern: "kakaotalk.pc")
        check("KakaoTalk_Video_2023-05-31-15-28-38.mp4", "2023-05-31T15:28:38", pattern: "kakaotalk.pc")
        check("viber_image_2023-11-09_16-47-04-506.jpg", "2023-11-09T16:47:04.506", pattern: "viber")
        check("signal-2024-05-01-10-11-12-123.jpg", "2024-05-01T10:11:12.123", pattern: "signal.android")
        check("signal-2024-05-01-10-11-12-123-2.jpg", "2024-05-01T10:11:12.123", pattern: "signal.android")
        check("Screenrecorder-2023-05-20-22-02-55-536.mp4", "2023-05-20T22:02:55", pattern: "miui.screenrecord")
        check("Screenrecorder-2023-05-20-21-25-34-31.mp4", "2023-05-20T21:25:34", pattern: "miui.screenrecord")
        check("SVID_20240805_113052_1.mp4", "2024-08-05T11:30:52", pattern: "huawei.screenrecord")
        // Snapchat's number is no time.
        XCTAssertNil(FileNameDateParser.parse("Snapchat-1743849407.jpg"))
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
