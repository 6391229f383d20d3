/// The hand-written naming schemes: phones, messengers and desktop tools, each as the tool's
/// source writes it (docs/dates.md cites each). GNOME Shell's names, in every language it ships,
/// come from its message catalogues instead (`GnomeShellNames`). All are local wall clocks
/// (the tool formats the machine's local time) except `pixel` (UTC digits) and the WeChat epoch
/// names (instants).
extension FileNameDateParser {
    /// `YYYY-MM-DD`, `hh-mm-ss`: the ISO-like date and the dashed time many tools write.
    static let dashedDate: [Token] = [.year, .literal("-"), .month, .literal("-"), .day]
    static let dashedTime: [Token] = [.hour, .literal("-"), .minute, .literal("-"), .second]
    /// `YYYYMMDDhhmmss`.
    static let compact: [Token] = [.year, .month, .day, .hour, .minute, .second]
    /// ShadowPlay's `YYYY.MM.DD - hh.mm.ss.cc`; the hundredths are not read.
    static let shadowPlayTime: [Token] = [
        .year, .literal("."), .month, .literal("."), .day, .literal(" - "), .hour, .literal("."), .minute, .literal("."),
        .second, .literal("."), .ignoredDigits(2),
    ]

    /// The word macOS starts a screenshot's name with, in its languages but English and
    /// Simplified Chinese (the rows above), each with the space after it. Windows' Snipping Tool
    /// names its screenshots with the same words.
    static let macOSScreenshotWords = [
        "Bildschirmfoto ", "Capture d’écran ", "Captura de pantalla ", "Captura de Pantalla ", "Captura de Tela ",
        "Captura de ecrã ", "Schermafbeelding ", "Schermata ", "Zrzut ekranu ", "Снимок экрана ", "スクリーンショット ",
        "스크린샷 ", "Skärmavbild ", "Skærmbillede ", "Skjermbilde ", "Näyttökuva ", "Ekran Resmi ", "Snímek obrazovky ",
        "螢幕快照 ", "螢幕截圖 ", "截圖 ",
    ]
    /// What stands between the date and the time ("um", "à", "kl."...), the bare space last: the
    /// first that matches is taken.
    static let macOSScreenshotConnectors = [
        " um ", " à ", " a las ", " a la(s) ", " às ", ", às ", " om ", " alle ", " o ", " в ", " kl. ", " kello ", " v ",
        " ",
    ]

    /// The schemes, most specific first; every one is tried (`FileNameDateParser.interpret`).
    static let handWritten: [Pattern] = [
        Pattern("pixel", utc: true, [.literal("PXL_"), .year, .month, .day, .literal("_"), .hour, .minute, .second, .millis]),
        // Android cameras, Google Camera's panoramas and older Motion Photos (`MVIMG_`), and
        // Telegram's in-app camera (`IMG_…_SSS`: the milliseconds follow, unread). Open Camera
        // writes the same, and with its UTC option `yyyyMMdd_HHmmss'Z'` in UTC (StorageUtils):
        // then the name is an instant.
        Pattern(
            "android.camera",
            [
                .oneOf(["IMG_", "VID_", "PANO_", "MVIMG_"]), .year, .month, .day, .literal("_"), .hour, .minute, .second,
                .optional([.zulu]),
            ]),
        // Realme (and other ColorOS phones): no separator at all.
        Pattern("realme.camera", [.oneOf(["IMG", "VID"])] + compact),
        // Google Camera's bursts: `NNNNNIMG_NNNNN_BURST` (or a portrait's `…PORTRAIT_…`, with
        // `d`, `l`, `lr` or `s` in front or nothing, as real names show) and the time, later
        // with its milliseconds; the cover shot ends in `_COVER`.
        Pattern(
            "google.burst",
            [
                .ignoredDigits(5), .oneOf(["IMG_", "PORTRAIT_", "dPORTRAIT_", "lPORTRAIT_", "lrPORTRAIT_", "sPORTRAIT_"]),
                .ignoredDigits(5), .literal("_BURST"),
            ] + compact + [.optional([.millis])]),
        Pattern("whatsapp", [.oneOf(["IMG-", "VID-"]), .year, .month, .day, .literal("-WA"), .ignoredDigits(4)]),
        // WhatsApp's phone export and WhatsApp Desktop's saved media; the time in the phone's
        // clock, 24-hour (`22.15.00`) or 12-hour (`8.29.02 PM`, real names).
        Pattern(
            "whatsapp.export",
            [.oneOf(["WhatsApp Image ", "WhatsApp Video "])] + dashedDate
                + [.literal(" at "), .looseHour, .literal("."), .minute, .literal("."), .second, .optionalMeridiem]),
        Pattern("wechat.export", utc: true, [.literal("mmexport"), .epochMillis]),
        Pattern("wechat.camera", utc: true, [.literal("wx_camera_"), .epochMillis]),
        Pattern("wechat.image", [.literal("微信图片_")] + compact),
        Pattern("wechat.screenshot", screenshot: true, [.literal("微信截图_")] + compact),
        Pattern("qq.screenshot", screenshot: true, [.oneOf(["QQ截图", "TIM截图"])] + compact),
        Pattern("qq.image", [.oneOf(["QQ图片", "TIM图片"])] + compact),
        Pattern("telegram", [.oneOf(["photo_", "video_"])] + dashedDate + [.literal("_")] + dashedTime),
        // Facebook's saved pictures: `FB_IMG_` and epoch milliseconds.
        Pattern("facebook", utc: true, [.literal("FB_IMG_"), .epochMillis]),
        // KakaoTalk on phones: `KakaoTalk_yyyyMMdd_HHmmssSSS`; on PCs and Macs:
        // `KakaoTalk_Photo_yyyy-MM-dd-HH-mm-ss` (` 001`, ` 002` for several in one second).
        Pattern("kakaotalk", [.literal("KakaoTalk_"), .year, .month, .day, .literal("_"), .hour, .minute, .second, .millis]),
        Pattern(
            "kakaotalk.pc", [.oneOf(["KakaoTalk_Photo_", "KakaoTalk_Video_"])] + dashedDate + [.literal("-")] + dashedTime),
        // Viber: `viber_image_yyyy-MM-dd_HH-mm-ss-SSS`.
        Pattern("viber", [.literal("viber_image_")] + dashedDate + [.literal("_")] + dashedTime + [.literal("-"), .millis]),
        Pattern("signal", [.literal("signal-")] + dashedDate + [.literal("-"), .hour, .minute, .second]),
        // Signal for Android since 2020: `signal-yyyy-MM-dd-HH-mm-ss-SSS` (`-1`, `-2` on a clash).
        Pattern("signal.android", [.literal("signal-")] + dashedDate + [.literal("-")] + dashedTime + [.literal("-"), .millis]),
        Pattern(
            "android.screenshot", screenshot: true,
            [.literal("Screenshot_"), .year, .month, .day, .literal("-"), .hour, .minute, .second]),
        // Samsung and KDE Spectacle write the same shape.
        Pattern(
            "samsung.screenshot", screenshot: true,
            [.literal("Screenshot_"), .year, .month, .day, .literal("_"), .hour, .minute, .second]),
        Pattern("spectacle.screencast", [.literal("Screencast_"), .year, .month, .day, .literal("_"), .hour, .minute, .second]),
        Pattern(
            "miui.screenshot", screenshot: true,
            [.literal("Screenshot_")] + dashedDate + [.literal("-")] + dashedTime + [.optional([.literal("-"), .millis])]),
        Pattern("xfce.screenshot", screenshot: true, [.literal("Screenshot_")] + dashedDate + [.literal("_")] + dashedTime),
        Pattern(
            "macos.screenshot", screenshot: true,
            [.oneOf(["Screen Shot ", "Screenshot "])] + dashedDate
                + [.literal(" at "), .looseHour, .literal("."), .minute, .literal("."), .second, .optionalMeridiem]),
        Pattern(
            "windows.screenshot", screenshot: true,
            [.oneOf(["Screenshot ", "屏幕截图 "])] + dashedDate + [.literal(" "), .hour, .minute, .second]),
        Pattern("obs.screenshot", screenshot: true, [.literal("Screenshot ")] + dashedDate + [.literal(" ")] + dashedTime),
        Pattern(
            "macos.screenshot.zh", screenshot: true,
            [.literal("屏幕快照 ")] + dashedDate
                + [.literal(" "), .leadingMeridiem(required: true), .looseHour, .literal("."), .minute, .literal("."), .second]),
        Pattern(
            "macos.screenshot.zh", screenshot: true,
            [.literal("截屏"), .optional([.literal(" ")])] + dashedDate
                + [.literal(" "), .leadingMeridiem(required: false), .looseHour, .literal("."), .minute, .literal("."), .second]),
        // macOS in its other languages: the localised word, the date, a connector (none in
        // Japanese, Korean, Turkish, Chinese) and the dotted time (docs/dates.md lists the
        // names each is seen with). Finnish and Polish may leave the month and day unpadded.
        Pattern(
            "macos.screenshot", screenshot: true,
            [
                .oneOf(macOSScreenshotWords), .year, .literal("-"), .looseMonth, .literal("-"), .looseDay,
                .oneOf(macOSScreenshotConnectors), .leadingMeridiem(required: false), .looseHour, .literal("."), .minute,
                .literal("."), .second, .optionalMeridiem,
            ]),
        // Windows' Snipping Tool in other languages: macOS's words, the date and a bare `HHmmss`.
        Pattern(
            "windows.screenshot", screenshot: true,
            [.oneOf(macOSScreenshotWords)] + dashedDate + [.literal(" "), .hour, .minute, .second]),
        // scrot: `%Y-%m-%d-%H%M%S_$wx$h_scrot` (the picture's width and height follow).
        Pattern(
            "scrot", screenshot: true,
            dashedDate + [
                .literal("-"), .hour, .minute, .second, .literal("_"), .someDigits, .literal("x"), .someDigits,
                .literal("_scrot"),
            ]),
        // grim: `%Y%m%d_%Hh%Mm%Ss_grim` (local time); before, `%Y-%m-%dT%H:%M:%SZ_grim` (UTC).
        Pattern(
            "grim", screenshot: true,
            [.year, .month, .day, .literal("_"), .hour, .literal("h"), .minute, .literal("m"), .second, .literal("s_grim")]),
        Pattern(
            "grim", screenshot: true, utc: true,
            dashedDate + [.literal("T"), .hour, .literal(":"), .minute, .literal(":"), .second, .literal("Z_grim")]),
        // ksnip: `ksnip_$Y$M$D-$T`, $T being hhmmss.
        Pattern("ksnip", screenshot: true, [.literal("ksnip_"), .year, .month, .day, .literal("-"), .hour, .minute, .second]),
        // Firefox's screenshots: `Screenshot ${date} at ${time} ${title}`, the local date and
        // time with `-` for `:`, in English whatever the browser's language (mozilla/gecko-dev
        // browser/components/screenshots/fileHelpers.mjs, `getFilename`).
        Pattern(
            "firefox.screenshot", screenshot: true, [.literal("Screenshot ")] + dashedDate + [.literal(" at ")] + dashedTime),
        // MATE Screenshot: `Screenshot at %Y-%m-%d %H-%M-%S`, ` - N` when the name is taken
        // (mate-desktop/mate-utils mate-screenshot/src/mate-screenshot.c, `build_uri`:
        // `g_date_time_new_now_local`).
        Pattern("mate.screenshot", screenshot: true, [.literal("Screenshot at ")] + dashedDate + [.literal(" ")] + dashedTime),
        // Snipaste: `Snipaste_$yyyy-MM-dd_HH-mm-ss$` (the default of its config.ini's save path).
        Pattern("snipaste", screenshot: true, [.literal("Snipaste_")] + dashedDate + [.literal("_")] + dashedTime),
        // CleanShot X (macOS): `CleanShot YYYY-MM-DD at hh.mm.ss`, `@2x` after a Retina capture.
        Pattern(
            "cleanshot", screenshot: true,
            [.literal("CleanShot ")] + dashedDate + [
                .literal(" at "), .hour, .literal("."), .minute, .literal("."), .second,
            ]),
        // SimpleScreenRecorder: `simplescreenrecorder-yyyy-MM-dd_hh.mm.ss` (MaartenBaert/ssr
        // src/GUI/PageRecord.cpp, `QDateTime::currentDateTime()`: local).
        Pattern(
            "simplescreenrecorder",
            [.literal("simplescreenrecorder-")] + dashedDate + [
                .literal("_"), .hour, .literal("."), .minute, .literal("."), .second,
            ]),
        // vokoscreenNG: snapshots `vokoscreenNG-yyyy-MM-dd_hh-mm-ss.zzz` (with the milliseconds),
        // recordings the same without them (vkohaupt/vokoscreenNG, QvkSnapshot and the recorder's
        // `newVideoFilename`: `QDateTime::currentDateTime()`, local). A screenshot scheme: a
        // recording is a video by its format whatever its name says.
        Pattern(
            "vokoscreen", screenshot: true,
            [.literal("vokoscreenNG-")] + dashedDate + [.literal("_")] + dashedTime + [.optional([.literal("."), .millis])]),
        // Kooha: `Kooha-%F-%H-%M-%S` (SeaDve/Kooha src/recording.rs, `now_local`).
        Pattern("kooha", [.literal("Kooha-")] + dashedDate + [.literal("-")] + dashedTime),
        // Peek: `Peek %Y-%m-%d %H-%M.gif` (phw/peek application-window.vala, local; no seconds).
        Pattern("peek", [.literal("Peek ")] + dashedDate + [.literal(" "), .hour, .literal("-"), .minute]),
        // ChromeOS's screen capture: `Screenshot %d-%02d-%02d` then `%02d.%02d.%02d` (24-hour) or
        // `%d.%02d.%02d AM` (chromium ash/capture_mode/capture_mode_controller.cc, `GetDateStr`,
        // `GetTimeStr`: local time); its recordings `Screen recording …`.
        Pattern(
            "chromeos.screenshot", screenshot: true,
            [.literal("Screenshot ")] + dashedDate + [
                .literal(" "), .looseHour, .literal("."), .minute, .literal("."), .second, .optionalMeridiem,
            ]),
        Pattern(
            "chromeos.screenrecord",
            [.literal("Screen recording ")] + dashedDate + [
                .literal(" "), .looseHour, .literal("."), .minute, .literal("."), .second, .optionalMeridiem,
            ]),
        // macOS's screen recordings (Screenshot.app, ⇧⌘5): the screenshots' English form.
        Pattern(
            "macos.screenrecord",
            [.literal("Screen Recording ")] + dashedDate
                + [.literal(" at "), .looseHour, .literal("."), .minute, .literal("."), .second, .optionalMeridiem]),
        // Windows 11 Snipping Tool's recordings: `Screen Recording YYYY-MM-DD HHMMSS` (real names).
        Pattern(
            "windows.screenrecord", [.literal("Screen Recording ")] + dashedDate + [.literal(" "), .hour, .minute, .second]),
        // iOS screen recordings as shared or exported: `ScreenRecording_MM-DD-YYYY HH-MM-SS_N`,
        // the month first (real names).
        Pattern(
            "ios.screenrecord",
            [.literal("ScreenRecording_"), .month, .literal("-"), .day, .literal("-"), .year, .literal(" ")] + dashedTime),
        // DJI's drones and gimbals since about 2021: `DJI_YYYYMMDDHHMMSS_NNNN_LENS` (the camera's
        // clock; older models' `DJI_0001` carries no date).
        Pattern("dji", [.literal("DJI_")] + compact),
        // LINE's saved photos: `LINE_P` and `yyyyMMdd_HHmmssSSS` (real names; an unpadded
        // `LINE_P2022831_…` form exists too, ambiguous at seven digits, and is not read).
        Pattern("line", [.literal("LINE_P"), .year, .month, .day, .literal("_"), .hour, .minute, .second, .millis]),
        // Android's screen recorder (SystemUI `ScreenMediaRecorder`): `screen-yyyyMMdd-HHmmss`,
        // the time the recording was saved; the newest adds `-` and the start in epoch ms.
        Pattern("android.screenrecord", [.literal("screen-"), .year, .month, .day, .literal("-"), .hour, .minute, .second]),
        // Xiaomi's screen recorder: `Screenrecorder-yyyy-MM-dd-HH-mm-ss-` and the milliseconds
        // unpadded (1 to 3 digits, so not read as a fraction).
        Pattern("miui.screenrecord", [.literal("Screenrecorder-")] + dashedDate + [.literal("-")] + dashedTime),
        // Huawei's screen recorder: `SVID_yyyyMMdd_HHmmss_1`.
        Pattern("huawei.screenrecord", [.literal("SVID_"), .year, .month, .day, .literal("_"), .hour, .minute, .second]),
        // Samsung's screen recorder: `Screen_Recording_yyyyMMdd-HHmmss_App`, later `_` before the time.
        Pattern(
            "samsung.screenrecord",
            [.literal("Screen_Recording_"), .year, .month, .day, .oneOf(["-", "_"]), .hour, .minute, .second]),
        // Steam's screenshots: `YYYYMMDDhhmmss_N`, N counting the shots of one second. Not
        // screenshot evidence by itself: the shape is no more than a compact date and a counter.
        Pattern("steam", compact + [.literal("_"), .someDigits]),
        // OBS Studio's default recording name (Output/FilenameFormatting).
        Pattern("obs", dashedDate + [.literal(" ")] + dashedTime),
        // Dropbox's camera uploads: `YYYY-MM-DD HH.MM.SS`, the time it was taken, local (a name
        // taken gets `-1`, `-2`... before the extension).
        Pattern("dropbox", dashedDate + [.literal(" "), .hour, .literal("."), .minute, .literal("."), .second]),
        // Flameshot's default `%F_%H-%M`: minutes, no seconds; `%F_%H-%M-%S`, the pattern
        // users set to tell shots of one minute apart, to the second.
        Pattern(
            "flameshot", screenshot: true,
            dashedDate + [.literal("_"), .hour, .literal("-"), .minute, .optional([.literal("-"), .second])]),
        // Samsung camera: bare YYYYMMDD_hhmmss.
        Pattern("samsung.camera", [.year, .month, .day, .literal("_"), .hour, .minute, .second]),
        // The game's or window's title first (its `:` and other characters a name cannot hold
        // made spaces), then the local time; matched from a space inside the name.
        // NVIDIA ShadowPlay (GeForce Experience, the NVIDIA app): `TITLE YYYY.MM.DD -
        // hh.mm.ss.cc`, hundredths last, `.DVR` after an instant replay; screenshots put
        // ` Screenshot` before the date (real names).
        Pattern("shadowplay", afterTitle: true, [.literal(" ")] + shadowPlayTime),
        Pattern("shadowplay.screenshot", screenshot: true, afterTitle: true, [.literal(" Screenshot ")] + shadowPlayTime),
        // Xbox Game Bar (Windows): `TITLE YYYY-MM-DD hh-mm-ss`, clips and screenshots alike
        // (real names), so not screenshot evidence by itself.
        Pattern("xbox.gamebar", afterTitle: true, [.literal(" ")] + dashedDate + [.literal(" ")] + dashedTime),
    ]

}
