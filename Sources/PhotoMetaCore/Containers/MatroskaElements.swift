/// The small Matroska elements that `MatroskaReader` reads whole and walks in memory: `Info`,
/// `Tracks` and `SeekHead` [RFC 9559 5.1.2, 5.1.4, 5.1.1].
enum MatroskaElements {
    typealias ID = MatroskaReader.ID

    /// [RFC 9559 5.1.2] `Info`: `TimestampScale` (nanoseconds per tick, 1,000,000 when absent),
    /// `Duration` (a float, in ticks), `DateUTC` (an instant) and `WritingApp`.
    static func info(_ data: [UInt8], into out: inout ContainerFindings) {
        var c = EBMLChildren(data)
        var scale: UInt64 = 1_000_000
        var ticks: Double?
        var date: DateClue.Value?
        var app: String?
        while let e = c.next() {
            switch e.id {
            case ID.timestampScale:
                if let v = c.unsigned(e.data), v > 0 { scale = v }
            case ID.duration:
                ticks = c.float(e.data)
            case ID.dateUTC:
                date = date ?? dateValue(e.data.count == 8 ? c.signed(e.data) : nil, size: e.data.count)
            case ID.writingApp:
                app = app ?? c.text(e.data)
            default:
                break
            }
        }
        if let problem = c.problem { out.note("matroska", "Info: \(problem)") }
        if let date { out.dates.append(DateClue(.matroskaDateUTC, date)) }
        var evidence = FieldEvidence(software: app?.isEmpty == false ? app : nil)
        if let ticks, ticks.isFinite, ticks >= 0 {
            let seconds = ticks * Double(scale) / 1e9
            if seconds.isFinite { evidence.durationSeconds = seconds }
        }
        out.evidence[.matroskaInfo] = evidence
    }

    /// 2001-01-01T00:00:00 UTC in seconds since 1970: the origin of EBML dates [RFC 8794 7.6].
    static let dateOrigin: Int64 = 978_307_200

    /// [RFC 8794 7.6] A date is 8 bytes: nanoseconds since 2001-01-01T00:00:00 UTC, signed.
    static func dateValue(_ nanoseconds: Int64?, size: Int) -> DateClue.Value {
        guard let ns = nanoseconds else {
            return .unusable(reason: "matroska.DateUTC of \(size) bytes is not a date (8 bytes); skipped")
        }
        let (q, r) = ns.quotientAndRemainder(dividingBy: 1_000_000_000)
        let seconds = r < 0 ? q - 1 : q
        let nano = Int(r < 0 ? r + 1_000_000_000 : r)
        guard
            let utc = LocalDateTime(
                secondsAsIfUTC: dateOrigin + seconds, nanosecond: nano,
                fractionDigits: LocalDateTime.fractionDigits(nanosecond: nano))
        else { return .unusable(reason: "matroska.DateUTC is out of range; skipped") }
        return .instant(utc: utc, caveat: nil)
    }

    /// [RFC 9559 5.1.4] The first `TrackEntry` whose `TrackType` is 1 (video): its `Video`
    /// element's `PixelWidth` and `PixelHeight`, the size of the frames as stored.
    static func tracks(_ data: [UInt8], into out: inout ContainerFindings) {
        var c = EBMLChildren(data)
        while let entry = c.next() {
            guard entry.id == ID.trackEntry else { continue }
            if let size = videoSize(data, entry.data, into: &out) {
                out.width = size.width
                out.height = size.height
                if let shown = size.display, shown != (size.width, size.height) {
                    (out.displayWidth, out.displayHeight) = (shown.0, shown.1)
                }
                return
            }
        }
        if let problem = c.problem { out.note("matroska", "Tracks: \(problem)") }
    }

    static func videoSize(_ data: [UInt8], _ entry: Range<Int>, into out: inout ContainerFindings)
        -> (width: Int, height: Int, display: (Int, Int)?)?
    {
        var c = EBMLChildren(data, from: entry.lowerBound, to: entry.upperBound)
        var type: UInt64?
        var video: Range<Int>?
        while let e = c.next() {
            if e.id == ID.trackType { type = c.unsigned(e.data) }
            if e.id == ID.video, video == nil { video = e.data }
        }
        if let problem = c.problem { out.note("matroska", "TrackEntry: \(problem)") }
        guard type == 1, let video else { return nil }
        var v = EBMLChildren(data, from: video.lowerBound, to: video.upperBound)
        var width: UInt64?
        var height: UInt64?
        var shown: (w: UInt64?, h: UInt64?, unit: UInt64) = (nil, nil, 0)
        while let e = v.next() {
            if e.id == ID.pixelWidth { width = v.unsigned(e.data) }
            if e.id == ID.pixelHeight { height = v.unsigned(e.data) }
            if e.id == ID.displayWidth { shown.w = v.unsigned(e.data) }
            if e.id == ID.displayHeight { shown.h = v.unsigned(e.data) }
            if e.id == ID.displayUnit { shown.unit = v.unsigned(e.data) ?? 0 }
        }
        if let problem = v.problem { out.note("matroska", "Video: \(problem)") }
        guard let width, let height, (1...1 << 20).contains(width), (1...1 << 20).contains(height) else {
            out.note("matroska", "the video track states no usable pixel size")
            return nil
        }
        return (Int(width), Int(height), displaySize(shown, height: height))
    }

    /// [RFC 9559 5.1.4.1.28.8-10] The display size in pixels: `DisplayWidth`/`DisplayHeight` as
    /// they are when `DisplayUnit` is 0 (pixels, the default); when it is 3 (an aspect ratio),
    /// the width that ratio gives at the stored height. Centimetres, inches and unknown units
    /// say nothing about pixels. Each side 1 to 2^20, or none.
    static func displaySize(_ d: (w: UInt64?, h: UInt64?, unit: UInt64), height: UInt64) -> (Int, Int)? {
        guard let w = d.w, let h = d.h, (1...1 << 20).contains(w), (1...1 << 20).contains(h) else { return nil }
        switch d.unit {
        case 0: return (Int(w), Int(h))
        case 3:
            let width = (Double(height) * Double(w) / Double(h)).rounded()
            guard width >= 1, width <= Double(1 << 20) else { return nil }
            return (Int(width), Int(height))
        default: return nil
        }
    }

    /// [RFC 9559 5.1.1] `SeekHead`: each `Seek`'s `SeekID` (an element ID, as stored) and
    /// `SeekPosition`, for the IDs in `wanted`, the first entry of each.
    static func seeks(_ data: [UInt8], wanted: Set<UInt32>, into out: inout ContainerFindings) -> [UInt32: UInt64] {
        var c = EBMLChildren(data)
        var found: [UInt32: UInt64] = [:]
        while let s = c.next() {
            guard s.id == ID.seek else { continue }
            var inner = EBMLChildren(data, from: s.data.lowerBound, to: s.data.upperBound)
            var id: UInt64?
            var position: UInt64?
            while let e = inner.next() {
                if e.id == ID.seekID, e.data.count <= 4 { id = inner.unsigned(e.data) }
                if e.id == ID.seekPosition { position = inner.unsigned(e.data) }
            }
            guard let id, let position, let id32 = UInt32(exactly: id), wanted.contains(id32), found[id32] == nil else {
                continue
            }
            found[id32] = position
        }
        if let problem = c.problem { out.note("matroska", "SeekHead: \(problem)") }
        return found
    }
}
