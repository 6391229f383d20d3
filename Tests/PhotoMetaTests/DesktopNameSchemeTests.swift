import XCTest

@testable import PhotoMetaCore

/// The names Linux desktops and messengers give (docs/dates.md, "File-name patterns"), GNOME
/// Shell's in every language of the generated table, and the names that only look like one.
final class DesktopNameSchemeTests: XCTestCase {
    func check(
        _ name: String, _ expected: String, pattern: String, screenshot: Bool = false,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let (date, diagnostics) = FileNameDateParser.interpret(name)
        guard let d = date else { return XCTFail("\(name): no date \(diagnostics)", file: file, line: line) }
        XCTAssertEqual(d.local.iso8601, expected, name, file: file, line: line)
        XCTAssertEqual(d.pattern, pattern, name, file: file, line: line)
        XCTAssertFalse(d.isInstant, name, file: file, line: line)
        XCTAssertEqual(d.isScreenshot, screenshot, name, file: file, line: line)
        XCTAssertEqual(diagnostics, [], name, file: file, line: line)
    }

    func testGNOME47CapitalFrom() {
        check("Screenshot From 2024-11-29 22-15-00.png", "2024-11-29T22:15:00", pattern: "gnome.screenshot", screenshot: true)
        check("Screenshot From 2024-11-29 22-15-00-1.png", "2024-11-29T22:15:00", pattern: "gnome.screenshot", screenshot: true)
        check("Screencast From 2024-11-29 22-15-00.webm", "2024-11-29T22:15:00", pattern: "gnome.screencast")
        check("Screencast from 2024-11-29 22-15-00.mp4", "2024-11-29T22:15:00", pattern: "gnome.screencast")
    }

    /// Twelve languages from the generated table, right-to-left and non-Latin among them.
    func testGNOMETranslations() {
        let screenshots = [
            "Bildschirmfoto vom 2024-11-29 22-15-00.png",  // de
            "Capture d’écran du 2024-11-29 22-15-00.png",  // fr
            "截图 2024-11-29 22-15-00.png",  // zh_CN
            "스크린샷 2024-11-29 22-15-00.png",  // ko
            "Снимок экрана от 2024-11-29 22-15-00.png",  // ru
            "צילום מסך מ־2024-11-29 22-15-00.png",  // he, right to left
            "نماگرفت از 2024-11-29 22-15-00.png",  // fa, right to left
            "2024-11-29 22-15-00 ਤੋਂ ਸਕਰੀਨਸ਼ਾਟ.png",  // pa: words after the date
            "ภาพหน้าจอจาก 2024-11-29 22-15-00.png",  // th
            "Στιγμιότυπο οθόνης από 2024-11-29 22-15-00.png",  // el
            "Zrzut ekranu z 2024-11-29 22-15-00.png",  // pl
            "Знімок екрана з 2024-11-29 22-15-00.png",  // uk
        ]
        for name in screenshots {
            check(name, "2024-11-29T22:15:00", pattern: "gnome.screenshot", screenshot: true)
        }
        // Persian's screencast puts the time before the date; Georgian's ends in a suffix.
        check("ضبط صفحه از 22-15-00 2024-11-29.webm", "2024-11-29T22:15:00", pattern: "gnome.screencast")
        check("ეკრანის ვიდეოჩანაწერი 2024-11-29 22-15-00-დან.webm", "2024-11-29T22:15:00", pattern: "gnome.screencast")
        check("Bildschirmaufzeichnung vom 2024-11-29, 22-15-00.webm", "2024-11-29T22:15:00", pattern: "gnome.screencast")
    }

    /// A name decomposed on its way (a copy through macOS writes NFD) still reads.
    func testDecomposedNamesRead() {
        check(
            "Capture d’e\u{301}cran du 2024-11-29 22-15-00.png", "2024-11-29T22:15:00", pattern: "gnome.screenshot",
            screenshot: true)
    }

    /// Every usable pattern of the table, filled the way GNOME fills it, reads back.
    func testEveryTableEntryReadsBack() {
        XCTAssertGreaterThan(GnomeShellNames.table.count, 100)
        for e in GnomeShellNames.table {
            let name =
                e.pattern.replacingOccurrences(of: "%s", with: "2024-11-29 22-15-00")
                .replacingOccurrences(of: "%d", with: "2024-11-29").replacingOccurrences(of: "%t", with: "22-15-00")
                .replacingOccurrences(of: "%%", with: "%") + ".png"
            let d = FileNameDateParser.parse(name)
            XCTAssertEqual(d?.local.iso8601, "2024-11-29T22:15:00", "\(e.languages): \(name)")
            if e.kind == .screenshot, e.pattern != "%s" { XCTAssertEqual(d?.isScreenshot, true, name) }
        }
    }

    func testDesktopTools() {
        check("Screenshot_2024-11-29_22-15-00.png", "2024-11-29T22:15:00", pattern: "xfce.screenshot", screenshot: true)
        check("Screenshot_20241129_221500.png", "2024-11-29T22:15:00", pattern: "samsung.screenshot", screenshot: true)
        check("Screencast_20241129_221500.webm", "2024-11-29T22:15:00", pattern: "spectacle.screencast")
        check("2024-11-29_22-15.png", "2024-11-29T22:15:00", pattern: "flameshot", screenshot: true)
        check("2024-11-29_22-15_1.png", "2024-11-29T22:15:00", pattern: "flameshot", screenshot: true)
        check("2024-11-29_22-15-56.png", "2024-11-29T22:15:56", pattern: "flameshot", screenshot: true)
        XCTAssertEqual(FileNameDateParser.parse("2024-11-29_22-15-56.png")?.resolution, 1, "to the second")
        XCTAssertEqual(FileNameDateParser.parse("2024-11-29_22-15.png")?.resolution, 60, "to the minute")
        check("Screenshot at 2024-11-29 22-15-00.png", "2024-11-29T22:15:00", pattern: "mate.screenshot", screenshot: true)
        check("Screenshot at 2024-11-29 22-15-00 - 2.png", "2024-11-29T22:15:00", pattern: "mate.screenshot", screenshot: true)
        check("2024-11-29 22-15-00.mkv", "2024-11-29T22:15:00", pattern: "obs")
        check("Screenshot 2024-11-29 22-15-00.png", "2024-11-29T22:15:00", pattern: "obs.screenshot", screenshot: true)
    }

    func testMessengers() {
        check("photo_2024-11-29_22-15-00.jpg", "2024-11-29T22:15:00", pattern: "telegram")
        check("video_2024-11-29_22-15-00 (2).mp4", "2024-11-29T22:15:00", pattern: "telegram")
        check("signal-2024-11-29-221500.jpg", "2024-11-29T22:15:00", pattern: "signal")
        check("signal-2024-11-29-221500_002.jpg", "2024-11-29T22:15:00", pattern: "signal")
        check("QQ图片20241129221500.jpg", "2024-11-29T22:15:00", pattern: "qq.image")
        check("TIM图片20241129221500.jpg", "2024-11-29T22:15:00", pattern: "qq.image")
        check("TIM截图20241129221500.png", "2024-11-29T22:15:00", pattern: "qq.screenshot", screenshot: true)
        check("微信截图_20241129221500.png", "2024-11-29T22:15:00", pattern: "wechat.screenshot", screenshot: true)
        check("WhatsApp Image 2024-11-29 at 22.15.00.jpeg", "2024-11-29T22:15:00", pattern: "whatsapp.export")
        check("WhatsApp Image 2024-11-29 at 22.15.00_3f2a91c0.jpg", "2024-11-29T22:15:00", pattern: "whatsapp.export")
    }

    func testLookAlikesAreRefusedWithADiagnostic() {
        for name in [
            "photo_2024-13-45_22-15-00.jpg", "signal-1989-11-29-221500.jpg", "Screenshot From 2024-02-30 22-15-00.png",
            "QQ图片21241129221500.jpg", "2024-11-29_25-15.png", "Bildschirmfoto vom 2024-11-29 22-61-00.png",
        ] {
            let (date, diagnostics) = FileNameDateParser.interpret(name)
            XCTAssertNil(date, name)
            XCTAssertEqual(diagnostics.count, 1, name)
            XCTAssertTrue(diagnostics.first?.message.hasPrefix("filename '\(name)' looks like ") == true, "\(diagnostics)")
        }
        let (_, none) = FileNameDateParser.interpret("holiday.jpg")
        XCTAssertEqual(none, [], "a name that looks like no scheme says nothing")
    }

    /// Two schemes that read one name as different dates: neither is believed.
    func testDisagreeingSchemesGiveNoDate() {
        let table = FileNameDateParser.Table([
            .init("day.first", [.literal("D"), .year, .month, .day]),
            .init("month.first", [.literal("D"), .year, .day, .month]),
            .init("same.as.day.first", [.literal("D"), .year, .month, .day, .optional([.literal("x")])]),
        ])
        let (date, diagnostics) = FileNameDateParser.interpret("D20240305.png", in: table)
        XCTAssertNil(date)
        XCTAssertEqual(
            diagnostics.map(\.message),
            ["filename 'D20240305.png' matches day.first and month.first with different dates; skipped"])
        let (agreed, none) = FileNameDateParser.interpret("D20241305.png", in: table)
        XCTAssertEqual(agreed?.pattern, "month.first", "only one reading is a date")
        XCTAssertEqual(none, [])
    }

    func testTheResolverCarriesTheRefusal() {
        let (date, diagnostics) = CaptureDateResolver.resolve(DateEvidence(fileName: "photo_2024-13-45_22-15-00.jpg"))
        XCTAssertNil(date)
        XCTAssertEqual(diagnostics.map(\.domain), ["date"])
    }

    /// The precheck tries an ASCII name against `asciiScreenshotTable` only: that table must be
    /// every screenshot scheme an ASCII name can match, in the same order, and a translation
    /// left out of it for a non-ASCII scalar must keep one once composed.
    func testTheASCIIScreenshotTableIsEveryScreenshotSchemeAnASCIINameCanMatch() {
        let expected = FileNameDateParser.patterns.filter { $0.screenshot && FileNameDateParser.mayMatchASCII($0.tokens) }
        let table = FileNameDateParser.asciiScreenshotTable.patterns
        XCTAssertEqual(table.map(\.name), expected.map(\.name))
        XCTAssertEqual(table.map(\.tokens.count), expected.map(\.tokens.count))
        XCTAssertTrue(table.contains { $0.name == "gnome.screenshot" })
        XCTAssertTrue(table.contains { $0.name == "flameshot" })
        XCTAssertFalse(table.contains { $0.name == "wechat.screenshot" })
        for e in GnomeShellNames.table {
            let ascii = e.pattern.utf8.allSatisfy { $0 < 0x80 }
            let composed = Text.canonical(e.pattern).utf8.allSatisfy { $0 < 0x80 }
            XCTAssertEqual(ascii, composed, e.pattern)
        }
        // The two tables answer alike for ASCII names, screenshots or not.
        for name in [
            "Screenshot_20241129-221500", "Screenshot from 2024-11-29 22-15-00", "2024-11-29_22-15",
            "Screen Shot 2024-11-29 at 9.15.00 PM",
            "20240315_093012", "2024-11-29 22-15-00", "PXL_20241129_221500123", "holiday",
        ] {
            XCTAssertEqual(
                FileNameDateParser.interpret(name, in: FileNameDateParser.asciiScreenshotTable).date,
                FileNameDateParser.interpret(name, in: FileNameDateParser.screenshotTable).date, name)
        }
        XCTAssertFalse(FileNameDateParser.mayMatchASCII([.literal("微信截图_"), .year]))
        XCTAssertFalse(FileNameDateParser.mayMatchASCII([.oneOf(["QQ截图", "TIM截图"]), .year]))
        XCTAssertTrue(FileNameDateParser.mayMatchASCII([.oneOf(["Screenshot ", "屏幕截图 "]), .year]))
        XCTAssertTrue(FileNameDateParser.mayMatchASCII([.leadingMeridiem(required: false), .year]))
    }

    func testScreenshotPrecheckCoversEveryScreenshotScheme() {
        for name in ["Bildschirmfoto vom 2024-11-29 22-15-00", "2024-11-29_22-15", "微信截图_20241129221500", "TIM截图20241129221500"] {
            XCTAssertTrue(FileNameDateParser.mayBeScreenshot(Substring(name)), name)
        }
        XCTAssertFalse(FileNameDateParser.mayBeScreenshot("holiday"))
        // A camera's dated name starts like many schemes but is no screenshot scheme's.
        for name in ["20240315_093012", "2025-10-DSC_1624", "IMG_20240315_093012"] {
            XCTAssertFalse(FileNameDateParser.mayBeScreenshot(Substring(name)), name)
            XCTAssertNotEqual(FileNameDateParser.parse(name)?.isScreenshot, true, name)
        }
    }

    /// A name a scheme's tokens spell, with a plausible date (2024-03-15 09:30:12.123).
    private func example(_ tokens: [FileNameDateParser.Token]) -> String {
        tokens.map { t -> String in
            switch t {
            case .literal(let l): return l
            case .oneOf(let options): return options.first ?? ""
            case .year: return "2024"
            case .month: return "03"
            case .day: return "15"
            case .looseMonth: return "3"
            case .looseDay: return "15"
            case .hour: return "09"
            case .looseHour: return "9"
            case .minute: return "30"
            case .second: return "12"
            case .millis: return "123"
            case .epochMillis: return "1710495012123"
            case .ignoredDigits(let n): return String(repeating: "7", count: n)
            case .someDigits: return "12"
            case .optionalMeridiem: return ""
            case .leadingMeridiem(let required): return required ? "上午" : ""
            case .optional(let group): return example(group)
            case .zulu: return "Z"
            }
        }.joined()
    }

    /// The pre-check never turns down a name that `parse` calls a screenshot: every scheme's
    /// own example names, and each with a suffix and an extension.
    func testScreenshotPrecheckAgreesWithTheParser() {
        let names = FileNameDateParser.patterns.filter(\.screenshot).map { ($0.afterTitle ? "Hades" : "") + example($0.tokens) }
        XCTAssertGreaterThan(names.count, 20)
        for base in names {
            for name in [base, base + ".png", base + " (2).png", base + "_1.jpg"] {
                let parsed = FileNameDateParser.parse(name)
                if parsed?.isScreenshot == true {
                    let stem = name.split(separator: "/").last.map(String.init) ?? name
                    XCTAssertTrue(FileNameDateParser.mayBeScreenshot(Substring(stem)), name)
                }
            }
        }
    }
}
