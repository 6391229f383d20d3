/// GLib's `%c` in the Chinese, Japanese and Korean locales, as GNOME Shell writes a
/// screenshot's PNG `Creation Time` there (gnome-shell `src/shell-screenshot.c`; glibc's
/// `D_T_FMT`): every number is followed by its unit. zh_CN `%Y年%m月%d日 %A %H时%M分%S秒`
/// (`2025年03月07日 星期五 14时05分09秒`), ja_JP `%Y年%m月%d日 %H時%M分%S秒`, zh_TW
/// `%Y年%m月%d日 (%A) %H時%M分%S秒`, ko_KR `%x (%a) %r` (`2025년 03월 07일 (금) 오후 02시 05분
/// 09초`: a 12-hour clock after 오전 or 오후). Words between numbers (the weekday) are skipped;
/// the six units come once each, in this order. A wall clock: no zone is written.
package enum CJKDateTime {
    /// The units of year, month, day, hour, minute and second, in order.
    static let units: [Set<Character>] = [["年", "년"], ["月", "월"], ["日", "일"], ["时", "時", "시"], ["分", "분"], ["秒", "초"]]
    static let morning = ["오전", "上午", "午前"]
    static let afternoon = ["오후", "下午", "午後"]

    package static func parse(_ text: String) -> DateTextParser.Stamp? {
        var values: [Int] = []
        var number: Int?
        var digits = 0
        for ch in text {
            if ch.isASCII, let d = ch.wholeNumberValue {
                guard digits < 4 else { return nil }
                number = (number ?? 0) * 10 + d
                digits += 1
            } else if let n = number {
                guard values.count < units.count, units[values.count].contains(ch) else { return nil }
                values.append(n)
                number = nil
                digits = 0
            }
        }
        guard number == nil, values.count == units.count else { return nil }
        var hour = values[3]
        let pm = afternoon.contains { text.contains($0) }
        if pm || morning.contains(where: { text.contains($0) }) {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (pm ? 12 : 0)
        }
        guard
            let local = LocalDateTime(
                year: values[0], month: values[1], day: values[2], hour: hour, minute: values[4], second: values[5])
        else { return nil }
        return DateTextParser.Stamp(local: local, offset: nil)
    }
}
