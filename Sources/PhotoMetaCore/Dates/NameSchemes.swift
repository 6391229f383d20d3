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

    /// The schemes, most specific first; every one is tried (`FileNameDateParser.interpret`).
    static let handWritten: [Pattern] = [
        Pattern("pixel", utc: true, [.literal("PXL_"), .year, .month, .day, .literal("_"), .hour, .minute, .second, .millis]),
        Pattern("android.camera", [.oneOf(["IMG_", "VID_"]), .year, .month, .day, .literal("_"), .hour, .minute, .second]),
        Pattern("whatsapp", [.oneOf(["IMG-", "VID-"]), .year, .month, .day, .literal("-WA"), .ignoredDigits(4)]),
        // WhatsApp's phone export and WhatsApp Desktop's saved media.
        Pattern(
            "whatsapp.export",
            [.oneOf(["WhatsApp Image ", "WhatsApp Video "])] + dashedDate
                + [.literal(" at "), .hour, .literal("."), .minute, .literal("."), .second]),
        Pattern("wechat.export", utc: true, [.literal("mmexport"), .epochMillis]),
        Pattern("wechat.camera", utc: true, [.literal("wx_camera_"), .epochMillis]),
        Pattern("wechat.image", [.literal("微信图片_")] + compact),
        Pattern("wechat.screenshot", screenshot: true, [.literal("微信截图_")] + compact),
        Pattern("qq.screenshot", screenshot: true, [.oneOf(["QQ截图", "TIM截图"])] + compact),
        Pattern("qq.image", [.oneOf(["QQ图片", "TIM图片"])] + compact),
        Pattern("telegram", [.oneOf(["photo_", "video_"])] + dashedDate + [.literal("_")] + dashedTime),
        Pattern("signal", [.literal("signal-")] + dashedDate + [.literal("-"), .hour, .minute, .second]),
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
                + [.literal(" "), .chineseMeridiem(required: true), .looseHour, .literal("."), .minute, .literal("."), .second]),
        Pattern(
            "macos.screenshot.zh", screenshot: true,
            [.literal("截屏"), .optional([.literal(" ")])] + dashedDate
                + [.literal(" "), .chineseMeridiem(required: false), .looseHour, .literal("."), .minute, .literal("."), .second]),
        // OBS Studio's default recording name (Output/FilenameFormatting).
        Pattern("obs", dashedDate + [.literal(" ")] + dashedTime),
        // Flameshot's default `%F_%H-%M`: minutes, no seconds.
        Pattern("flameshot", screenshot: true, dashedDate + [.literal("_"), .hour, .literal("-"), .minute]),
        // Samsung camera: bare YYYYMMDD_hhmmss.
        Pattern("samsung.camera", [.year, .month, .day, .literal("_"), .hour, .minute, .second]),
    ]
}
