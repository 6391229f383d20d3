import Foundation

extension SuggestReport {
    /// The answer for people: the offer (or what is pending, or nothing), and with `--explain`
    /// the table of every file and the rule that turned it down. Names are escaped for the
    /// terminal. `zone` is the one assumed for dates without an offset; `lookedIn` says which
    /// folder was taken for want of a DIR, `answered` who answered (the service, or why not).
    package func text(zone: TimeZone, lookedIn: String? = nil, answered: String? = nil) -> String {
        var out = ""
        if let s = suggestion {
            let age = s.ageSeconds ?? 0
            var detail = "\(s.kind.rawValue), taken \(DurationText.describe(age)) ago"
            if let c = s.captured, !c.isExact { detail += "; zone assumed: \(zone.identifier)" }
            if age < 0 { detail = "\(s.kind.rawValue), taken just now (clock skew)" }
            out += "\(standing == true ? "On offer" : "You may want to send"): \(TerminalText.escape(s.path)) (\(detail))\n"
            if let path = s.thumbnail?.made?.path { out += "thumbnail: \(TerminalText.escape(path))\n" }
        } else if let p = pending {
            out +=
                "A photo is still being written: \(TerminalText.escape(p.path)) (ask again in \(p.retryAfterMilliseconds) ms)\n"
        } else {
            out += standing == true ? "Nothing on offer.\n" : "Nothing new to send.\n"
        }
        if let rejected { out += (answered.map { $0 + "\n" } ?? "") + explanation(rejected, lookedIn: lookedIn) }
        return out
    }

    /// The `--explain` table: the offer first, then every other file in path order.
    private func explanation(_ rejected: [Rejection], lookedIn: String?) -> String {
        var out = lookedIn ?? ""
        let files = considered == 1 ? "file" : "files"
        out += "Considered \(considered) \(files)\(recorded ? "; the offer was recorded" : ""):\n"
        var rows =
            (rejected.map { ($0.path, "\($0.rule): \($0.reason)") }
            + (skipped ?? []).map { ($0.path, "skipped: \($0.reason)") })
            .sorted { $0.0 < $1.0 }
        if let s = suggestion { rows.insert((s.path, "offered"), at: 0) }
        let width = min(48, rows.map { TerminalText.escape($0.0).count }.max() ?? 0)
        for (p, why) in rows {
            let shown = TerminalText.escape(p)
            out += "  \(shown)\(String(repeating: " ", count: max(1, width - shown.count + 2)))\(TerminalText.escape(why))\n"
        }
        return out
    }
}

extension WatchEventReport {
    /// The event for people, on stdout: change lines (`+`, `-`, `~`) and the offer; nil for the
    /// events that go to stderr in text mode (ready, error).
    package func text() -> String? {
        switch self {
        case .changes(let inserted, let removed, let changed, let moved):
            var lines = "changes: \(inserted.count) inserted, \(removed.count) removed, \(changed.count) changed"
            lines += moved.isEmpty ? "\n" : ", \(moved.count) moved\n"
            for f in inserted { lines += "+ \(TerminalText.escape(f.path))\n" }
            for p in removed { lines += "- \(TerminalText.escape(p))\n" }
            for f in changed { lines += "~ \(TerminalText.escape(f.path))\n" }
            for m in moved { lines += "> \(TerminalText.escape(m.from)) -> \(TerminalText.escape(m.to))\n" }
            return lines
        case .suggestion(let s):
            let age = DurationText.describe(max(0, s.ageSeconds ?? 0))
            let what = s.standing == true ? "Still on offer" : "You may want to send"
            var lines = "\(what): \(TerminalText.escape(s.path)) (\(s.kind.rawValue), taken \(age) ago)\n"
            if let path = s.thumbnail?.made?.path { lines += "thumbnail: \(TerminalText.escape(path))\n" }
            return lines
        case .withdrawn(let w):
            if let to = w.to {
                return "Withdrawn (\(w.reason.rawValue)): \(TerminalText.escape(w.path)) -> \(TerminalText.escape(to))\n"
            }
            return "Withdrawn (\(w.reason.rawValue)): \(TerminalText.escape(w.path))\n"
        case .thumbnail(let path, let outcome):
            if let made = outcome.made?.path { return "thumbnail: \(TerminalText.escape(made))\n" }
            return outcome.error.map { "thumbnail of \(TerminalText.escape(path)) failed: \(TerminalText.escape($0))\n" }
        case .ready, .error:
            return nil
        }
    }
}
