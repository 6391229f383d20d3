/// Walks an AVI file [Microsoft, "AVI RIFF File Reference"]: `RIFF` size `AVI `, then chunks
/// (four-character id, u32 little-endian size, data padded to an even length). Read: the
/// `LIST hdrl` main header `avih` (frame period, frame count, size), its `IDIT` chunk (the
/// recording date, as cameras write it) and a `LIST INFO` `ICRD` (creation date). The `movi`
/// list, which holds the frames, is skipped unread.
package enum AVIReader {
    package static func read(_ reader: BoundedReader) -> ContainerFindings {
        var out = ContainerFindings(format: .avi)
        var chunks = 0
        var dates = Dates()
        do throws(ReadFailure) {
            let end = try RIFFForm.end(reader, domain: "avi", into: &out)
            walk(reader, from: 12, to: end, depth: 0, chunks: &chunks, dates: &dates, into: &out)
        } catch {
            out.note("avi", error, while: "reading the RIFF header")
        }
        // IDIT before ICRD whatever their order in the file: both are reported as
        // riff.DateTimeOriginal, the recording date first.
        for text in [dates.recorded, dates.created].compactMap({ $0 }) {
            out.dates.append(DateClue(.riffDateTimeOriginal, .text(text, .riff)))
        }
        return out
    }

    /// The first `IDIT` (recording date) and `INFO/ICRD` (creation date) texts, as written.
    struct Dates {
        var recorded: String?
        var created: String?
    }

    /// The chunks between `from` and `to`; `LIST hdrl` and `LIST INFO` are entered (they are
    /// one level deep in every writer's layout, so depth stops at 2).
    static func walk(
        _ reader: BoundedReader, from: Int64, to end: Int64, depth: Int, chunks: inout Int,
        dates: inout Dates, into out: inout ContainerFindings
    ) {
        var pos = from
        while pos + 8 <= end {
            chunks += 1
            if chunks > Limits.structureCountMax {
                out.noteOnce("avi", "chunk count", "more than \(Limits.structureCountMax) chunks; stopped")
                return
            }
            let header: [UInt8]
            do throws(ReadFailure) {
                header = try reader.read(at: pos, count: 8)
            } catch {
                out.note("avi", error, while: "reading the chunk header at offset \(pos)")
                return
            }
            var h = ByteReader(header)
            guard let id = h.fourCC(), let size32 = h.u32le() else { return }
            let data = pos + 8
            let size = Int64(size32)
            if data + size > end {
                out.truncated = true
                out.note("avi", "chunk '\(id)' at offset \(pos) runs past the end of its \(depth == 0 ? "file" : "list")")
            }
            switch id {
            case "LIST" where depth < 2 && size >= 4:
                if let type = try? reader.read(at: data, count: 4), FourCC.string(type) == "hdrl" || FourCC.string(type) == "INFO"
                {
                    walk(
                        reader, from: data + 4, to: min(data + size, end), depth: depth + 1, chunks: &chunks, dates: &dates,
                        into: &out)
                }
            case "avih":
                readMainHeader(reader, at: data, size: size, into: &out)
            case "IDIT":
                dates.recorded = dates.recorded ?? text(reader, at: data, size: size)
            case "ICRD":
                dates.created = dates.created ?? text(reader, at: data, size: size)
            default:
                break
            }
            // Sizes are of the data; chunks start on even offsets.
            pos = data + size + (size & 1)
        }
    }

    /// AVIMAINHEADER: dwMicroSecPerFrame, dwMaxBytesPerSec, dwPaddingGranularity, dwFlags,
    /// dwTotalFrames, dwInitialFrames, dwStreams, dwSuggestedBufferSize, dwWidth, dwHeight.
    static func readMainHeader(_ reader: BoundedReader, at offset: Int64, size: Int64, into out: inout ContainerFindings) {
        guard size >= 40, let b = try? reader.read(at: offset, count: 40) else {
            out.note("avi", "'avih' of \(size) bytes is too short")
            return
        }
        var r = ByteReader(b)
        guard let microsPerFrame = r.u32le(), r.skip(12), let frames = r.u32le(), r.skip(12), let w = r.u32le(),
            let h = r.u32le()
        else { return }
        if w > 0, h > 0, w <= 1 << 20, h <= 1 << 20 {
            out.width = Int(w)
            out.height = Int(h)
        }
        if microsPerFrame > 0, frames > 0 {
            out.evidence[.riffMainHeader, default: FieldEvidence()].durationSeconds =
                Double(microsPerFrame) * Double(frames) / 1_000_000
        }
    }

    /// A short text chunk (a date), NULs and line ends removed; longer ones are not dates.
    static func text(_ reader: BoundedReader, at offset: Int64, size: Int64) -> String? {
        guard size > 0, size <= 256, let b = try? reader.readAvailable(at: offset, count: Int(size)) else { return nil }
        let v = Text.clean(String(decoding: b.prefix { $0 != 0 }, as: UTF8.self))
        return v.isEmpty ? nil : v
    }
}
