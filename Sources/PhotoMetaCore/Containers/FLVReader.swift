/// Walks a Flash Video file [Adobe, Video File Format Specification 10.1, annex E] (older OBS
/// recordings, downloads): the header (its audio and video flags), then the first tags until
/// the script tag `onMetaData` [FLV 10.1 E.5], whose properties give the size (`width`,
/// `height`), the `duration`, the `encoder` and a `creationdate` when a recorder wrote one. The
/// audio and video tags, which hold the frames, are never read.
///
/// A file is `truncated` when its last `PreviousTagSize` [FLV 10.1 E.3] does not lead back to
/// a tag of that size: a recording still being written ends inside a tag.
package enum FLVReader {
    /// [FLV 10.1 E.2] "FLV" and version 1.
    package static let magic: [UInt8] = [0x46, 0x4C, 0x56, 0x01]

    /// How many tags are looked at for the script tag (writers put it first).
    static let tagsMax = 16
    /// The largest script tag read: an `onMetaData` with a `keyframes` index of a long video is
    /// some tens of KiB; past this, its first bytes are read and what they hold is used.
    static let scriptMax = Limits.boxPayloadMax

    /// Tag types [FLV 10.1 E.4.1], in the low five bits (bit 5 marks a filtered tag).
    enum TagType {
        static let audio: UInt8 = 8
        static let video: UInt8 = 9
        static let script: UInt8 = 18
    }

    package static func read(_ reader: BoundedReader) -> ContainerFindings {
        var out = ContainerFindings(format: .flv)
        let header: [UInt8]
        do throws(ReadFailure) {
            header = try reader.read(at: 0, count: 9)
        } catch {
            out.note("flv", error, while: "reading the header")
            return out
        }
        var h = ByteReader(header)
        guard h.skip(4), let flags = h.u8(), let dataOffset = h.u32be(), dataOffset >= 9 else {
            out.note("flv", "the header's data offset is smaller than the header")
            return out
        }
        // [FLV 10.1 E.3] The body: PreviousTagSize0 (always 0), then tags, each followed by its size.
        var pos = Int64(dataOffset) + 4
        for _ in 0..<tagsMax {
            guard pos + 11 <= reader.size, let tag = try? reader.read(at: pos, count: 11) else { break }
            var t = ByteReader(tag)
            guard let type = t.u8(), let size = t.u24be() else { break }
            let data = pos + 11
            // Streams saved from RTMP may start with another script tag (`|RtmpSampleAccess`,
            // `onCuePoint`): the walk goes on to `onMetaData`.
            if type & 0x1F == TagType.script, type & 0x20 == 0, readScript(reader, at: data, size: Int64(size), into: &out) {
                break
            }
            pos = data + Int64(size) + 4
        }
        let hasVideo = flags & 0x01 != 0
        let hasAudio = flags & 0x04 != 0
        // A writer that set no flags is not taken at its word; sound alone only when it said so.
        out.audioOnly = hasAudio && !hasVideo && out.width == nil
        checkEnd(reader, bodyStart: Int64(dataOffset) + 4, into: &out)
        return out
    }

    /// [FLV 10.1 E.4.4, E.5] The script tag `onMetaData`: its numbers, strings and dates. False
    /// for another script tag (the walk goes on), true once `onMetaData` was read (or could not be).
    static func readScript(_ reader: BoundedReader, at offset: Int64, size: Int64, into out: inout ContainerFindings)
        -> Bool
    {
        let bytes: [UInt8]
        do throws(ReadFailure) {
            bytes = try reader.readAvailable(at: offset, count: Int(min(size, Int64(scriptMax))))
        } catch {
            out.note("flv", error, while: "reading the script tag")
            return true
        }
        guard let (name, p) = ActionMessageFormat.properties(bytes), name == "onMetaData" else { return false }
        if case .number(let w) = p["width"], case .number(let hh) = p["height"], let width = dimension(w),
            let height = dimension(hh)
        {
            out.width = width
            out.height = height
        }
        var e = FieldEvidence()
        // A recorder that was stopped before it rewrote the tag leaves 0.
        if case .number(let d) = p["duration"], d.isFinite, d > 0, d < 1e9 { e.durationSeconds = d }
        if case .string(let s) = p["encoder"] {
            let v = Text.clean(s)
            if !v.isEmpty, v.utf8.count <= 256 { e.software = v }
        }
        if e.durationSeconds != nil || e.software != nil { out.evidence[.flvMetaData] = e }
        // Recorders write `creationdate` in C's asctime form ("Tue Apr 22 10:21:34 2008\n": a
        // wall clock) or as an AMF date; ffmpeg passes a source's `creation_time` on as
        // ISO 8601 in UTC. Each is handed on in that order, and the first usable one is the
        // file's (one that does not parse falls through to the next).
        for (key, form) in [("creationdate", DateClue.TextForm.riff), ("creationDate", .riff), ("creation_time", .utcISO8601)] {
            switch p[key] {
            case .string(let s):
                let v = Text.clean(s)
                guard !v.isEmpty, v.utf8.count <= 256 else { continue }
                out.dates.append(DateClue(.flvCreationDate, .text(v, form)))
            case .date(let ms):
                out.dates.append(DateClue(.flvCreationDate, instant(milliseconds: ms)))
            default:
                continue
            }
        }
        return true
    }

    /// A width or height stated as a number: a whole, positive, plausible count of pixels.
    static func dimension(_ v: Double) -> Int? {
        guard v.isFinite, v >= 1, v <= Double(1 << 20), v == v.rounded() else { return nil }
        return Int(v)
    }

    /// [AMF0 2.13] An AMF date: milliseconds since 1970 (UTC).
    static func instant(milliseconds ms: Double) -> DateClue.Value {
        guard ms.isFinite, ms > 0, ms < 1e15 else { return .unusable(reason: "flv.CreationDate is not a date; skipped") }
        let whole = Int64(ms.rounded(.down))
        let (seconds, milli) = whole.quotientAndRemainder(dividingBy: 1000)
        guard
            let utc = LocalDateTime(
                secondsAsIfUTC: seconds, nanosecond: Int(milli) * 1_000_000, fractionDigits: milli == 0 ? nil : 3)
        else { return .unusable(reason: "flv.CreationDate is out of range; skipped") }
        return .instant(utc: utc, caveat: nil)
    }

    /// [FLV 10.1 E.3] The file's last four bytes are the size of the tag before them (its
    /// 11-byte header and its data): a tag of that size must start there. Some old writers
    /// counted the data alone; that is accepted too. A file that ends inside a tag is cut short.
    static func checkEnd(_ reader: BoundedReader, bodyStart: Int64, into out: inout ContainerFindings) {
        let size = reader.size
        // Only the header and PreviousTagSize0: a file with no tags yet (a recorder just started).
        if size == bodyStart { return }
        if size > bodyStart, let last = try? reader.read(at: size - 4, count: 4) {
            var r = ByteReader(last)
            let total = Int64(r.u32be() ?? 0)
            for (start, dataSize) in [(size - 4 - total, total - 11), (size - 4 - total - 11, total)]
            where dataSize >= 0 && start >= bodyStart {
                guard let milliseconds = tagTime(reader, at: start, dataSize: dataSize) else { continue }
                // The last tag's time: how long the file plays, where `onMetaData` says nothing
                // (ffmpeg writing to a pipe, a recorder stopped before it rewrote the tag).
                if milliseconds > 0 {
                    out.evidence[.flvLastTag, default: FieldEvidence()].durationSeconds = Double(milliseconds) / 1000
                }
                return
            }
        }
        out.truncated = true
        out.note("flv", "the last tag is cut short: the file ends inside it (\(size) bytes)")
    }

    /// The time (milliseconds: 24 bits, then 8 more above them [FLV 10.1 E.4.1]) of the audio,
    /// video or script tag of `dataSize` bytes of data that starts at `offset`; nil when none does.
    static func tagTime(_ reader: BoundedReader, at offset: Int64, dataSize: Int64) -> UInt32? {
        guard let b = try? reader.read(at: offset, count: 8), b.count == 8 else { return nil }
        var r = ByteReader(b)
        guard let type = r.u8(), let size = r.u24be(), let low = r.u24be(), let high = r.u8(),
            [TagType.audio, TagType.video, TagType.script].contains(type & 0x1F), Int64(size) == dataSize
        else { return nil }
        return UInt32(high) << 24 | low
    }
}
