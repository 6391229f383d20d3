/// Reads an MPEG-2 transport stream [ISO/IEC 13818-1 2.4.3]: 188-byte packets, each starting
/// with the sync byte 0x47, or 192-byte ones whose 4-byte arrival time stamp comes first
/// (BDAV, the `.MTS`/`.M2TS` of AVCHD camcorders and cameras). It holds no metadata box; an
/// AVCHD camera writes the recording time into the H.264 video itself, as the Modified
/// Digital Video Pack Metadata (MDPM) of an SEI message of unregistered user data [ITU-T
/// H.264 D.1.6, D.2.6] whose UUID is `uuid`. The packets of the first `scanBytes` are walked,
/// their payloads joined by PID, and the first MDPM found with a date gives it; the first
/// sequence parameter set of the video the program map table lists gives the picture size
/// (`ProgramMapTable`, `AVCSequenceParameterSet`).
package enum TransportStreamReader {
    /// How far packets are walked: the MDPM rides in the first access unit's SEI, before its
    /// picture data, so the first 64 KiB nearly always hold it (a cold disk reads no more);
    /// then up to 512 KiB.
    static let scanBytes = [64 << 10, 512 << 10]
    /// How many MDPM candidates are looked at before giving up.
    static let candidatesMax = 64
    /// The user data's UUID, 17ee8c60-f84d-11d9-8cd6-0800200c9a66, then "MDPM".
    static let uuid: [UInt8] = [
        0x17, 0xEE, 0x8C, 0x60, 0xF8, 0x4D, 0x11, 0xD9, 0x8C, 0xD6, 0x08, 0x00, 0x20, 0x0C, 0x9A, 0x66,
    ]
    static let mdpm = Array("MDPM".utf8)
    /// Packets whose starts `layout` checks: a stray 0x47 in four places is one chance in 2^32.
    static let probePackets = 4
    /// The bytes `layout` needs: four 192-byte packets.
    package static let probeLength = probePackets * 192

    /// The packet size and where in a packet its sync byte is, when the first `probePackets`
    /// packets of `head` start alike; nil for anything else.
    package static func layout(_ head: [UInt8]) -> (size: Int, sync: Int)? {
        for (size, sync) in [(188, 0), (192, 4)] where head.count >= (probePackets - 1) * size + sync + 1 {
            if (0..<probePackets).allSatisfy({ head[$0 * size + sync] == 0x47 }) { return (size, sync) }
        }
        return nil
    }

    package static func read(_ reader: BoundedReader) -> ContainerFindings {
        var out = ContainerFindings(format: .m2ts)
        if let head = try? reader.readAvailable(at: 0, count: scanBytes[0]), let layout = layout(head),
            let seconds = TransportStreamClock.duration(reader, head: head, layout: layout)
        {
            out.evidence[.transportStreamClock, default: FieldEvidence()].durationSeconds = seconds
        }
        for (pass, count) in scanBytes.enumerated() {
            let bytes: [UInt8]
            do throws(ReadFailure) {
                bytes = try reader.readAvailable(at: 0, count: count)
            } catch {
                out.note("m2ts", error, while: "reading the first packets")
                return out
            }
            guard let layout = layout(bytes) else {
                out.note("m2ts", "the first packets do not start with the sync byte")
                return out
            }
            if pass == 0, reader.size % Int64(layout.size) != 0 {
                // A camera writes whole packets (AVCHD: aligned units of 32); a part of one at
                // the end is a file cut short.
                out.truncated = true
                out.note("m2ts", "the file ends inside a packet (\(reader.size) bytes, packets of \(layout.size))")
            }
            var walk = ContainerFindings(format: .m2ts)
            let payloads = payloadsByPID(bytes, layout, into: &walk)
            if out.width == nil, let size = pictureSize(payloads) { (out.width, out.height) = (size.width, size.height) }
            for pid in payloads.keys.sorted() {
                guard let found = metadata(in: payloads[pid] ?? []) else { continue }
                out.dates.append(DateClue(.h264DateTimeOriginal, .text(found.time, .iso8601)))
                out.evidence[.h264UserData] = FieldEvidence(make: found.make, model: found.model)
                out.diagnostics += walk.diagnostics
                return out
            }
            // Said once, by the widest walk; nothing more to read in a file this short.
            if pass == scanBytes.count - 1 || Int64(bytes.count) >= reader.size {
                out.diagnostics += walk.diagnostics
                return out
            }
        }
        return out
    }

    /// The picture size of the first video stream the program map table lists: an H.264
    /// one's sequence parameter set, an MPEG-1 or MPEG-2 one's sequence header.
    static func pictureSize(_ payloads: [Int: [UInt8]]) -> (width: Int, height: Int)? {
        for (pid, type) in ProgramMapTable.streamTypes(payloads).sorted(by: { $0.key < $1.key }) {
            guard let payload = payloads[pid] else { continue }
            switch type {
            case ProgramMapTable.avcVideo:
                if let size = pictureSize(in: payload) { return size }
            case ProgramMapTable.mpeg1Video, ProgramMapTable.mpeg2Video:
                if let size = ProgramStreamReader.sequenceHeaderSize(payload) { return size }
            default: continue
            }
        }
        return nil
    }

    /// The picture size of the first H.264 sequence parameter set in `payload` when it is a
    /// video stream's PES packets (stream ids 0xE0-0xEF [ISO/IEC 13818-1 Table 2-22]).
    static func pictureSize(in payload: [UInt8]) -> (width: Int, height: Int)? {
        guard payload.count > 4, payload[0] == 0, payload[1] == 0, payload[2] == 1, payload[3] & 0xF0 == 0xE0 else {
            return nil
        }
        return AVCSequenceParameterSet.firstPictureSize(in: payload, from: 4)
    }

    /// The makers' codes in MDPM tag 0xE0's first two bytes (as exiftool's H264.pm names them).
    static let makes: [Int: String] = [0x0103: "Panasonic", 0x0108: "Sony", 0x1011: "Canon", 0x1104: "JVC"]

    /// Each PID's payload bytes in stream order, from the packets in `bytes` [ISO/IEC 13818-1
    /// 2.4.3.2-3: sync, PID (13 bits), adaptation_field_control, the adaptation field's length].
    static func payloadsByPID(
        _ bytes: [UInt8], _ layout: (size: Int, sync: Int), into out: inout ContainerFindings
    ) -> [Int: [UInt8]] {
        var payloads: [Int: [UInt8]] = [:]
        var packet = 0
        while packet + layout.size <= bytes.count {
            let p = packet + layout.sync
            guard bytes[p] == 0x47 else {
                out.note("m2ts", "the packet at offset \(packet) does not start with the sync byte; stopped")
                break
            }
            let pid = Int(bytes[p + 1] & 0x1F) << 8 | Int(bytes[p + 2])
            let control = bytes[p + 3] >> 4 & 0x3
            var start = p + 4
            if control & 0x2 != 0 { start += 1 + Int(bytes[p + 4]) }
            // 0x1FFF: null packets, stuffing.
            if control & 0x1 != 0, pid != 0x1FFF, start < p + 188 {
                payloads[pid, default: []].append(contentsOf: bytes[start..<(p + 188)])
            }
            packet += layout.size
        }
        return payloads
    }

    /// The recording time (ISO 8601 text), make and model of the first MDPM in `payload` that
    /// holds a time. The time is a wall clock: the byte before the year holds a zone in some
    /// cameras' files and other values, up to 0xFF, in others, so it is not read. Sony's
    /// cameras write their model as text over tags 0xE4 to 0xE6 (as exiftool's H264.pm reads
    /// it, for Sony only).
    static func metadata(in payload: [UInt8]) -> (time: String, make: String?, model: String?)? {
        var from = 0
        for _ in 0..<candidatesMax {
            guard let at = ByteSearch.first(uuid, in: payload, from: from) else { return nil }
            from = at + uuid.count
            let pack = AVCSequenceParameterSet.unescaped(payload[from..<min(payload.count, from + mdpm.count + 1 + 5 * 255 + 64)])
            guard let entries = entries(pack), let time = dateText(entries) else { continue }
            let make = entries[0xE0].map { Int($0[$0.startIndex]) << 8 | Int($0[$0.startIndex + 1]) }.flatMap { makes[$0] }
            var model: String?
            if make == "Sony" {
                let bytes = [UInt8(0xE4), 0xE5, 0xE6].flatMap { entries[$0] ?? [] }.prefix { $0 != 0 }
                let text = Text.clean(String(decoding: bytes, as: UTF8.self))
                model = text.isEmpty ? nil : text
            }
            return (time, make, model)
        }
        return nil
    }

    /// The MDPM after the UUID: "MDPM", a count, then that many 5-byte entries (a tag and 4
    /// bytes; the first of a tag kept).
    static func entries(_ pack: [UInt8]) -> [UInt8: ArraySlice<UInt8>]? {
        guard pack.count > mdpm.count, pack.prefix(mdpm.count).elementsEqual(mdpm) else { return nil }
        var entries: [UInt8: ArraySlice<UInt8>] = [:]
        var i = mdpm.count + 1
        for _ in 0..<Int(pack[mdpm.count]) {
            guard i + 5 <= pack.count else { break }
            if entries[pack[i]] == nil { entries[pack[i]] = pack[(i + 1)..<(i + 5)] }
            i += 5
        }
        return entries
    }

    /// Tag 0x18: a byte, then the year (2 bytes) and month in BCD; 0x19: day, hour, minute,
    /// second in BCD (IEC 61834-4's packs, as exiftool's H264.pm reads them).
    static func dateText(_ entries: [UInt8: ArraySlice<UInt8>]) -> String? {
        guard let ym = entries[0x18], let dt = entries[0x19] else { return nil }
        let digits = (ym.dropFirst() + dt).map(bcd)
        guard digits.allSatisfy({ $0 != nil }) else { return nil }
        let d = digits.map { String(format2: $0 ?? 0) }
        return "\(d[0])\(d[1])-\(d[2])-\(d[3])T\(d[4]):\(d[5]):\(d[6])"
    }

    /// Two BCD digits, nil when a nibble is not a digit.
    static func bcd(_ b: UInt8) -> Int? {
        let hi = Int(b >> 4)
        let lo = Int(b & 0xF)
        return hi <= 9 && lo <= 9 ? hi * 10 + lo : nil
    }

}

extension String {
    /// Two digits, zero-padded.
    fileprivate init(format2 v: Int) { self = v < 10 ? "0\(v)" : String(v) }
}
