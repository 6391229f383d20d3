/// QuickTime and MP4 movies [ISO 14496-12, QuickTime File Format]: `moov/mvhd` creation time and
/// duration, video track size from `tkhd`, Apple `meta` / `keys` / `ilst` items, and `udta`
/// ©-atoms. Only box headers and these small boxes are read; `mdat` and sample tables never.
package enum QuickTimeReader {
    /// Seconds from 1904-01-01 to 1970-01-01 [ISO 14496-12 8.2.2.3].
    static let epochDelta: Int64 = 2_082_844_800

    /// 1990-01-01T00:00:00Z: an `mvhd` time below 1970 that, counted from 1970, lands before
    /// this is not a clock's reading.
    static let unixEpochWriterFloor: Int64 = 631_152_000

    /// What the movie's atoms said, by atom, while the walk goes on; `hand(_:into:)` turns it
    /// into evidence once the walk is over.
    struct Atoms {
        /// The movie header's creation time, as the date stage will take it.
        var movieDate: DateClue.Value?
        /// Duration in seconds from `mvhd`.
        var durationSeconds: Double?
        /// `mvhd`'s timescale, and `mvex/mehd`'s duration in it: a fragmented movie's length,
        /// where `mvhd` says 0 [ISO 14496-12 8.8.2].
        var timescale: UInt32?
        var fragmentDuration: UInt64?
        /// Apple `keys`/`ilst` items (`com.apple.quicktime.*`), `udta` ©-atoms (`udta.mak`) and
        /// `ilst` items without a key (`ilst.?xyz`), by key; the first value of a key is kept.
        var keys: [String: String] = [:]
        /// `udta/loci`: where a 3GP or remuxed MP4 was recorded.
        var loci: LocationInformation?
        /// The largest video track's display size from `tkhd`.
        var trackWidth: Int?
        var trackHeight: Int?
        /// A track's handler is named as Android's muxer names it (`MovieWriter.isAndroidHandler`).
        var androidHandler = false
    }

    package static func read(_ reader: BoundedReader, format: MediaFormat) -> ContainerFindings {
        var out = ContainerFindings(format: format)
        var qt = Atoms()
        let top = BoxWalker.children(reader, from: 0, to: reader.size, domain: "quicktime", into: &out)
        for box in top where box.type == "uuid" { readXMPBox(reader, box, out: &out) }
        guard let moov = top.first(where: { $0.type == "moov" }) else {
            out.truncated = true
            out.note("quicktime", "no 'moov' box (a movie still being written, or cut short)")
            return out
        }
        var bestArea = -1
        var (videoTracks, soundTracks) = (0, 0)
        for box in BoxWalker.children(reader, from: moov.dataStart, to: moov.end, domain: "quicktime", into: &out) {
            switch box.type {
            case "mvhd":
                guard let b = BoxWalker.body(reader, box, domain: "quicktime", into: &out) else { continue }
                readMovieHeader(b, into: &qt)
            case "trak":
                let track = readTrack(reader, box, into: &out, androidHandler: &qt.androidHandler, sound: &soundTracks)
                if track?.isVideo == true { videoTracks += 1 }
                if let track, track.isVideo,
                    track.width * track.height > bestArea
                {
                    bestArea = track.width * track.height
                    qt.trackWidth = track.width
                    qt.trackHeight = track.height
                    out.rotation = track.rotation
                }
            case "meta":
                readMeta(reader, box, into: &qt, out: &out)
            case "udta":
                readUserData(reader, box, into: &qt, out: &out)
            case "mvex":
                readMovieExtends(reader, box, into: &qt, out: &out)
            case "uuid":
                readCanonMetadata(reader, box, out: &out)
            default:
                break
            }
        }
        out.width = qt.trackWidth
        out.height = qt.trackHeight
        // [ISO 14496-12 8.4.3] Sound tracks (`soun`) and no video (`vide`, `pict`): audio.
        out.audioOnly = soundTracks > 0 && videoTracks == 0
        hand(qt, into: &out)
        return out
    }

    /// The atoms' facts and dates as evidence, each with the place it was found.
    static func hand(_ qt: Atoms, into out: inout ContainerFindings) {
        let k = qt.keys
        if let text = k["com.apple.quicktime.creationdate"] {
            out.dates.append(DateClue(.quickTimeCreationDate, .text(text, .iso8601)))
        }
        var duration = qt.durationSeconds
        if duration == nil, let t = qt.timescale, t > 0, let d = qt.fragmentDuration, d > 0, d < UInt64(UInt32.max) << 16 {
            duration = Double(d) / Double(t)
        }
        if let movieDate = qt.movieDate {
            let writtenAtStop = qt.androidHandler || k["com.android.version"] != nil
            out.dates.append(
                DateClue(.quickTimeMovieHeader, writtenAtStop ? MovieWriter.start(of: movieDate, lasting: duration) : movieDate))
        }
        func point(_ key: String) -> MediaAsset.GPS? {
            guard let text = k[key], let p = ISO6709Location(text) else { return nil }
            return MediaAsset.GPS(latitude: p.latitude, longitude: p.longitude)
        }
        // `location`: ffmpeg's name for the place when it writes its metadata as keys
        // (`-movflags use_metadata_tags`), an ISO 6709 string as Apple's key.
        out.evidence[.quickTimeKeys] = FieldEvidence(
            make: k["com.apple.quicktime.make"], model: k["com.apple.quicktime.model"],
            software: k["com.apple.quicktime.software"],
            location: point("com.apple.quicktime.location.ISO6709") ?? point("location"),
            contentIdentifier: k["com.apple.quicktime.content.identifier"])
        let loci = qt.loci.map { MediaAsset.GPS(latitude: $0.latitude, longitude: $0.longitude) }
        out.evidence[.quickTimeUserData] = FieldEvidence(
            make: k["udta.mak"], model: k["udta.mod"], location: point("udta.xyz") ?? loci)
        out.evidence[.quickTimeItemList] = FieldEvidence(location: point("ilst.?xyz"))
        out.evidence[.quickTimeMovieHeader] = FieldEvidence(durationSeconds: duration)
    }

    /// [ISO 14496-12 8.2.2.3] An `mvhd` creation time (seconds since 1904-01-01 UTC) as the date
    /// stage takes it. Before 1970, some writers count from the Unix epoch instead (exiftool
    /// patches the same mistake): read as such when that gives a date a digital camera could
    /// have written (1990 or later); a smaller value is a movie written without a clock.
    package static func movieDate(secondsSince1904 raw: Int64) -> DateClue.Value {
        let skipped = DateClue.Value.unusable(reason: "quicktime.mvhd creation time is before 1970; skipped")
        guard raw >= 0 else { return skipped }
        let seconds = raw - epochDelta
        if seconds > 0, let utc = LocalDateTime(secondsAsIfUTC: seconds) { return .instant(utc: utc, caveat: nil) }
        if seconds > 0 { return .unusable(reason: "quicktime.mvhd creation time is after the year 9999; skipped") }
        if raw >= unixEpochWriterFloor, let utc = LocalDateTime(secondsAsIfUTC: raw) {
            return .instant(utc: utc, caveat: "quicktime.mvhd creation time counts from 1970, not 1904; read as such")
        }
        return skipped
    }

    /// [ISO 14496-12 8.2.2] mvhd: version 1 has 64-bit times and duration, version 0 32-bit.
    static func readMovieHeader(_ b: [UInt8], into qt: inout Atoms) {
        var r = ByteReader(b)
        guard let version = r.u8(), r.skip(3) else { return }
        let creation: UInt64?
        let timescale: UInt32?
        let duration: UInt64?
        if version == 1 {
            creation = r.u64be()
            _ = r.u64be()
            timescale = r.u32be()
            duration = r.u64be()
        } else {
            creation = r.u32be().map(UInt64.init)
            _ = r.u32be()
            timescale = r.u32be()
            duration = r.u32be().map(UInt64.init)
        }
        // Zero means unset.
        if let c = creation, c > 0, c < UInt64(Int64.max) {
            qt.movieDate = movieDate(secondsSince1904: Int64(c))
        }
        qt.timescale = timescale
        // 0: not known when the header was written (a fragmented movie: `mehd` may say);
        // all ones: unknown [ISO 14496-12 8.2.2.3].
        if let t = timescale, t > 0, let d = duration, d > 0, d != UInt64(UInt32.max), d != UInt64.max {
            qt.durationSeconds = Double(d) / Double(t)
        }
    }

    /// [ISO 14496-12 8.8.2] mvex/mehd, a FullBox: fragment_duration, u64 (version 1) or u32.
    static func readMovieExtends(
        _ reader: BoundedReader, _ mvex: BoxHeader, into qt: inout Atoms, out: inout ContainerFindings
    ) {
        for m in BoxWalker.children(reader, from: mvex.dataStart, to: mvex.end, domain: "quicktime", into: &out)
        where m.type == "mehd" {
            guard let b = BoxWalker.body(reader, m, domain: "quicktime", into: &out) else { continue }
            var r = ByteReader(b)
            guard let version = r.u8(), r.skip(3) else { continue }
            qt.fragmentDuration = version == 1 ? r.u64be() : r.u32be().map(UInt64.init)
        }
    }

    /// trak → tkhd (display size, 16.16 fixed point; its matrix's rotation) and mdia/hdlr
    /// (is it video?).
    static func readTrack(
        _ reader: BoundedReader, _ trak: BoxHeader, into out: inout ContainerFindings, androidHandler: inout Bool,
        sound: inout Int
    ) -> (width: Int, height: Int, isVideo: Bool, rotation: Int?)? {
        var size: (Int, Int)?
        var rotation: Int?
        var isVideo = false
        for box in BoxWalker.children(reader, from: trak.dataStart, to: trak.end, domain: "quicktime", into: &out) {
            if box.type == "tkhd", let b = BoxWalker.body(reader, box, domain: "quicktime", into: &out) {
                // [ISO 14496-12 8.3.2] width and height are the last 8 bytes.
                var r = ByteReader(b)
                guard let version = r.u8() else { continue }
                let fixedOffset =
                    version == 1 ? 4 + 8 + 8 + 4 + 4 + 8 + 8 + 2 + 2 + 2 + 2 + 36 : 4 + 4 + 4 + 4 + 4 + 4 + 8 + 2 + 2 + 2 + 2 + 36
                var f = ByteReader(b, offset: fixedOffset)
                if let w = f.u32be(), let h = f.u32be() { size = (Int(w >> 16), Int(h >> 16)) }
                rotation = TrackMatrix.rotation(b, at: fixedOffset - 36)
            } else if box.type == "mdia" {
                for m in BoxWalker.children(reader, from: box.dataStart, to: box.end, domain: "quicktime", into: &out)
                where m.type == "hdlr" {
                    if let b = BoxWalker.body(reader, m, domain: "quicktime", into: &out) {
                        var r = ByteReader(b, offset: 8)
                        // 'pict': the track of a HEIF image sequence or animated AVIF
                        // [ISO 23008-12 7.2].
                        let handler = r.fourCC()
                        isVideo = handler == "vide" || handler == "pict"
                        if handler == "soun" { sound += 1 }
                        androidHandler = androidHandler || MovieWriter.isAndroidHandler(b)
                    }
                }
            }
        }
        guard let size else { return nil }
        return (size.0, size.1, isVideo, rotation)
    }

    /// The QuickTime `meta` atom is a plain box, the ISO one a FullBox; tell them apart by
    /// where the first child's type lands.
    static func metaChildrenStart(_ reader: BoundedReader, _ meta: BoxHeader) -> Int64 {
        if let peek = try? reader.readAvailable(at: meta.dataStart, count: 12), peek.count == 12,
            FourCC.string(Array(peek[4..<8])) == "hdlr"
        {
            return meta.dataStart
        }
        return meta.dataStart + 4
    }

    /// [QuickTime File Format, Metadata] keys (FullBox: count, then size + namespace + name)
    /// and ilst (items whose type is the 1-based key index, each holding a `data` atom).
    static func readMeta(
        _ reader: BoundedReader, _ meta: BoxHeader, into qt: inout Atoms,
        out: inout ContainerFindings
    ) {
        var keyNames: [String] = []
        var ilst: BoxHeader?
        for box in BoxWalker.children(
            reader, from: metaChildrenStart(reader, meta), to: meta.end, domain: "quicktime", into: &out)
        {
            if box.type == "keys", let b = BoxWalker.body(reader, box, domain: "quicktime", into: &out) {
                var r = ByteReader(b)
                guard r.skip(4), let count = r.u32be() else { continue }
                for _ in 0..<count {
                    guard let size = r.u32be(), size >= 8, r.skip(4), let name = r.bytes(Int(size) - 8) else {
                        out.note("quicktime", "'keys' announces \(count) keys but holds \(keyNames.count)")
                        break
                    }
                    keyNames.append(String(decoding: name, as: UTF8.self))
                }
            } else if box.type == "ilst" {
                ilst = box
            }
        }
        guard let ilst else { return }
        for item in BoxWalker.children(reader, from: ilst.dataStart, to: ilst.end, domain: "quicktime", into: &out) {
            let index = Int(item.rawType)
            let key = index >= 1 && index <= keyNames.count ? keyNames[index - 1] : "ilst." + item.type
            guard let value = readDataAtom(reader, item, out: &out) else { continue }
            if qt.keys[key] == nil { qt.keys[key] = value }
        }
    }

    /// The first `data` atom of an ilst item: type indicator (u32), locale (u32), value.
    /// Only text (type 1, UTF-8) is kept.
    static func readDataAtom(_ reader: BoundedReader, _ item: BoxHeader, out: inout ContainerFindings) -> String? {
        for d in BoxWalker.children(reader, from: item.dataStart, to: item.end, domain: "quicktime", into: &out)
        where d.type == "data" {
            guard d.dataLength <= 4096, let b = BoxWalker.body(reader, d, domain: "quicktime", into: &out) else { return nil }
            var r = ByteReader(b)
            guard let typeIndicator = r.u32be(), r.skip(4) else { return nil }
            guard typeIndicator & 0xFFFFFF == 1, let value = r.bytes(r.remaining) else { return nil }
            return Text.clean(String(decoding: value, as: UTF8.self))
        }
        return nil
    }

    /// [XMP Part 3 1.2.7.1] An MP4 file's XMP packet: a top-level `uuid` box whose user type
    /// is BE7ACFCB-97A9-42E8-9C71-999491E3AFAC, the packet its body.
    static func readXMPBox(_ reader: BoundedReader, _ box: BoxHeader, out: inout ContainerFindings) {
        guard box.dataStart - box.start >= 24, box.dataLength <= Int64(Limits.xmpPayloadMax),
            let id = try? reader.readAvailable(at: box.dataStart - 16, count: 16), id == xmpUUID,
            let b = BoxWalker.body(reader, box, domain: "quicktime", into: &out)
        else { return }
        out.addXMP(b, domain: "quicktime")
    }

    static let xmpUUID: [UInt8] = [
        0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC,
    ]

    /// udta ©-atoms (©day, ©mak, ©mod, ©xyz): u16 length, u16 language, text; `loci` and
    /// `XMP_` beside them.
    static func readUserData(
        _ reader: BoundedReader, _ udta: BoxHeader, into qt: inout Atoms,
        out: inout ContainerFindings
    ) {
        for box in BoxWalker.children(reader, from: udta.dataStart, to: udta.end, domain: "quicktime", into: &out) {
            switch box.type {
            case "meta":
                readMeta(reader, box, into: &qt, out: &out)
                continue
            case "loci":
                if qt.loci == nil, box.dataLength <= 4096, let b = BoxWalker.body(reader, box, domain: "quicktime", into: &out) {
                    qt.loci = LocationInformation(b)
                }
                continue
            case "XMP_":
                // [XMP Part 3 1.2.7.2] A QuickTime movie's XMP packet: the atom's whole body.
                if box.dataLength <= Int64(Limits.xmpPayloadMax),
                    let b = BoxWalker.body(reader, box, domain: "quicktime", into: &out)
                {
                    out.addXMP(b, domain: "quicktime")
                }
                continue
            default: break
            }
            guard box.rawType >> 24 == 0xA9, box.dataLength <= 4096,
                let b = BoxWalker.body(reader, box, domain: "quicktime", into: &out)
            else { continue }
            var r = ByteReader(b)
            guard let len = r.u16be(), r.skip(2), let text = r.bytes(Int(len)) else { continue }
            let name = "udta." + String(box.type.dropFirst())
            if qt.keys[name] == nil { qt.keys[name] = Text.clean(String(decoding: text, as: UTF8.self)) }
        }
    }
}
