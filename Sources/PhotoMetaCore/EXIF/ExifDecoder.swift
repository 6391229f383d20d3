internal import CExif

// Only for vsnprintf: libexif's log callback hands over a printf format and a va_list.
#if canImport(Glibc)
    import Glibc
#endif

/// The only file that talks to libexif.
///
/// Decodes a TIFF-structured EXIF block into an `ExifRecord`. Every libexif object created here
/// is released on every path (`defer`), libexif's log is routed into the record's diagnostics,
/// and the options that rewrite the data (FOLLOW_SPECIFICATION deletes "not recorded" tags and
/// invents mandatory ones; IGNORE_UNKNOWN_TAGS drops tags libexif does not know) are turned off
/// so the report shows what the file holds.
package enum ExifDecoder {
    /// libexif caps its input, including the 6-byte "Exif\0\0" header, at 0xfffe bytes: the
    /// JPEG APP1 limit. Tags or thumbnails stored past it are not seen.
    package static let libexifInputMax = 0xFFFE

    /// What the first IFD of a TIFF stream is. In a file it is IFD0; Canon CR3 stores the Exif
    /// IFD (CMT2) and the GPS IFD (CMT4) as TIFF streams of their own, whose first IFD holds
    /// those tags.
    package enum FirstIFD: Sendable {
        case ifd0, exif, gps
    }

    /// `tiff` starts at the TIFF header ("II*\0" or "MM\0*").
    package static func decode(tiff: [UInt8], firstIFD: FirstIFD = .ifd0) -> ExifRecord {
        // libexif wants the APP1 identifier in front of the TIFF stream.
        decode(app1: ExifHeader.prefix + tiff, firstIFD: firstIFD)
    }

    /// `input` is "Exif\0\0" then the TIFF stream (`ContainerFindings.ExifStream.app1`).
    package static func decode(app1 input: [UInt8], firstIFD: FirstIFD = .ifd0) -> ExifRecord {
        var record = ExifRecord()
        let tiffCount = input.count - ExifHeader.prefix.count
        guard tiffCount >= 8, input.starts(with: ExifHeader.prefix) else {
            record.diagnostics.append(Diagnostic("exif", "EXIF block of \(max(0, tiffCount)) bytes is too short"))
            return record
        }
        if input.count > libexifInputMax {
            record.diagnostics.append(
                Diagnostic(
                    "exif",
                    "EXIF block of \(tiffCount) bytes; libexif reads only the first \(libexifInputMax - ExifHeader.prefix.count)"
                ))
        }

        // From the thread's arena (CExif/exif_arena.h), released on this thread.
        guard let data = photometa_exif_data_new() else {
            record.diagnostics.append(Diagnostic("exif", "libexif could not allocate its data"))
            return record
        }
        defer { photometa_exif_data_release(data) }
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)

        let collector = LogCollector()
        let log = photometa_exif_log_new()  // after the data: from the same arena (CExif/exif_arena.h)
        defer { if let log { exif_log_unref(log) } }
        if let log {
            let context = Unmanaged.passUnretained(collector).toOpaque()
            exif_log_set_func(log, logCallback, context)
            exif_data_log(data, log)
        }
        withExtendedLifetime(collector) {
            input.withUnsafeBufferPointer { buf in
                exif_data_load_data(data, buf.baseAddress, UInt32(buf.count))
            }
        }
        record.diagnostics += collector.messages.map { Diagnostic("exif", $0) }

        let order = exif_data_get_byte_order(data)
        // libexif loads a stream's first IFD as IFD 0 whatever its tags; read it as the IFD
        // it is.
        let first = data.pointee.ifd.0
        let ifd0 = firstIFD == .ifd0 ? first : nil
        let exif = firstIFD == .exif ? first : data.pointee.ifd.2
        let gps = firstIFD == .gps ? first : data.pointee.ifd.3
        let view = EntryReader(order: order)

        readTags(view, ifd0: ifd0, exif: exif, into: &record)
        readGPS(view, gps, into: &record)
        if data.pointee.data != nil, data.pointee.size > 0 {
            record.thumbnailBytes = Int(data.pointee.size)
        }
        // Maker-note values are read from Apple's maker note only: other makers' notes are
        // parsed by libexif with no bound on the work (an Olympus note of 300 overlapping
        // 60,000-byte entries took a second; libexif issues #77, #227).
        if record.make == "Apple" {
            let note = view.entry(exif, .makerNote).flatMap { view.bytes($0) }.map { Array($0.prefix(libexifInputMax)) }
            record.contentIdentifier = note.flatMap(appleContentIdentifier(makerNote:)) ?? appleContentIdentifier(data)
        }
        record.imageDataEnd =
            view.extentEnd(ifd0, offsets: .stripOffsets, counts: .stripByteCounts)
            ?? view.extentEnd(ifd0, offsets: .tileOffsets, counts: .tileByteCounts)
        return record
    }

    /// The IFD0 and Exif IFD tags, each from the IFD it belongs to (a date from the other
    /// one when a writer put it there).
    private static func readTags(_ view: EntryReader, ifd0: IFD, exif: IFD, into record: inout ExifRecord) {
        record.dateTimeOriginal = view.text(exif, .dateTimeOriginal) ?? view.text(ifd0, .dateTimeOriginal)
        record.dateTimeDigitized = view.text(exif, .dateTimeDigitized) ?? view.text(ifd0, .dateTimeDigitized)
        record.dateTime = view.text(ifd0, .dateTime) ?? view.text(exif, .dateTime)
        // [EXIF 2.32 4.6.5] The offsets and sub-seconds belong in the Exif IFD; a writer that put
        // DateTimeOriginal in IFD0 (read above) puts them there too, and exiftool reads them so.
        record.offsetTime = view.text(exif, .offsetTime) ?? view.text(ifd0, .offsetTime)
        record.offsetTimeOriginal = view.text(exif, .offsetTimeOriginal) ?? view.text(ifd0, .offsetTimeOriginal)
        record.offsetTimeDigitized = view.text(exif, .offsetTimeDigitized) ?? view.text(ifd0, .offsetTimeDigitized)
        record.subSecTime = view.text(exif, .subSecTime) ?? view.text(ifd0, .subSecTime)
        record.subSecTimeOriginal = view.text(exif, .subSecTimeOriginal) ?? view.text(ifd0, .subSecTimeOriginal)
        record.subSecTimeDigitized = view.text(exif, .subSecTimeDigitized) ?? view.text(ifd0, .subSecTimeDigitized)
        record.make = view.text(ifd0, .make)
        record.model = view.text(ifd0, .model)
        record.software = view.text(ifd0, .software)
        record.lensModel = view.text(exif, .lensModel)
        record.imageDescription = view.text(ifd0, .imageDescription)
        // Orientation from IFD0 only: exif_data_get_entry would fall through to the
        // thumbnail's IFD1 [EXIF 2.32 4.6.4 A].
        if let o = view.integer(ifd0, .orientation) {
            if (1...8).contains(o) {
                record.orientation = o
            } else {
                record.diagnostics.append(Diagnostic("exif", "Orientation \(o) is not 1...8; ignored"))
            }
        }
        record.pixelWidth = view.integer(exif, .pixelXDimension) ?? view.integer(ifd0, .imageWidth)
        record.pixelHeight = view.integer(exif, .pixelYDimension) ?? view.integer(ifd0, .imageLength)
        record.userComment = view.userComment(exif, .userComment)
    }

    private static func readGPS(_ view: EntryReader, _ gps: IFD, into record: inout ExifRecord) {
        // [EXIF 2.32 4.6.6] GPS: Latitude/Longitude are 3 RATIONALs (degrees, minutes, seconds)
        // with 'N'/'S', 'E'/'W' references. The side is the reference's: a negative part (from a
        // writer's SRATIONALs) would make it ambiguous, so it is out of range.
        if let lat = view.rationals(gps, .gpsLatitude), lat.count >= 3, let lon = view.rationals(gps, .gpsLongitude),
            lon.count >= 3
        {
            let la = lat[0] + lat[1] / 60 + lat[2] / 3600
            let lo = lon[0] + lon[1] / 60 + lon[2] / 3600
            let latRef = view.text(gps, .gpsLatitudeRef) ?? "N"
            let lonRef = view.text(gps, .gpsLongitudeRef) ?? "E"
            let parts = lat.prefix(3) + lon.prefix(3)
            if la.isFinite, lo.isFinite, la <= 90, lo <= 180, parts.allSatisfy({ $0 >= 0 }) {
                // Some writers use lower case ('s', 'w'); exiftool reads them as south and west.
                record.gpsLatitude = latRef.hasPrefix("S") || latRef.hasPrefix("s") ? -la : la
                record.gpsLongitude = lonRef.hasPrefix("W") || lonRef.hasPrefix("w") ? -lo : lo
            } else {
                record.diagnostics.append(Diagnostic("exif", "GPS position out of range; ignored"))
            }
        }
        record.gpsDateStamp = view.text(gps, .gpsDateStamp)
        if let t = view.rationals(gps, .gpsTimeStamp), t.count >= 3, t.allSatisfy({ $0.isFinite && $0 >= 0 }) {
            let seconds = t[0] * 3600 + t[1] * 60 + t[2]
            if seconds < 86_400 { record.gpsTimeOfDay = seconds }
        }
    }

    typealias IFD = UnsafeMutablePointer<ExifContent>?

    /// Apple's maker note tag 0x0011 (the Live Photo content identifier), when libexif
    /// recognised the maker note ("Apple iOS").
    /// Apple's maker note (MakerNote 0x927C; the layout exiftool's Apple table reads, no
    /// published spec): "Apple iOS\0", a u16 version, the byte order "MM" or "II" (14 bytes),
    /// then an IFD whose value offsets count from the start of the note. libexif 0.6.24's own
    /// Apple reader returns junk for the ASCII tag 0x0011 (MediaGroupUUID, the Live Photo
    /// content identifier) on real iPhone files. So the note is handed back to libexif as a
    /// TIFF stream of its own: its first 8 bytes become a TIFF header whose IFD0 offset is 14,
    /// every value offset stays right, and libexif reads the entries as that stream's IFD0.
    /// Bytes are relocated; the value is still libexif's to read.
    static func appleContentIdentifier(makerNote note: [UInt8]) -> String? {
        guard note.count > 16, note.hasPrefix(Array("Apple iOS".utf8) + [0]) else { return nil }
        var stream = note
        if note[12] == 0x4D, note[13] == 0x4D {
            stream.replaceSubrange(0..<8, with: [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x0E])
        } else if note[12] == 0x49, note[13] == 0x49 {
            stream.replaceSubrange(0..<8, with: [0x49, 0x49, 0x2A, 0x00, 0x0E, 0x00, 0x00, 0x00])
        } else {
            return nil
        }
        guard let data = photometa_exif_data_new() else { return nil }
        defer { photometa_exif_data_release(data) }
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        let input = ExifHeader.prefix + stream
        input.withUnsafeBufferPointer { buf in
            exif_data_load_data(data, buf.baseAddress, UInt32(buf.count))
        }
        let view = EntryReader(order: exif_data_get_byte_order(data))
        guard let value = view.text(data.pointee.ifd.0, .appleMediaGroupUUID), isIdentifier(value) else { return nil }
        return value
    }

    /// A content identifier is a UUID-like ASCII string: letters, digits and dashes.
    static func isIdentifier(_ v: String) -> Bool {
        v.count >= 8
            && v.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
            }
    }

    private static func appleContentIdentifier(_ data: UnsafeMutablePointer<ExifData>) -> String? {
        guard let mnote = exif_data_get_mnote_data(data) else { return nil }
        let count = exif_mnote_data_count(mnote)
        guard count < 10_000 else { return nil }
        // The first entry with the tag is the one: one value formatted, never one per entry.
        for i in 0..<count where exif_mnote_data_get_id(mnote, i) == UInt32(TIFFTag.appleMediaGroupUUID.number) {
            var buffer = [CChar](repeating: 0, count: 256)
            let value = buffer.withUnsafeMutableBufferPointer { buf -> String? in
                guard let p = exif_mnote_data_get_value(mnote, i, buf.baseAddress, UInt32(buf.count)) else { return nil }
                return String(cString: p)
            }
            // libexif 0.6.24 mangles this ASCII value in some files (two stray bytes instead of
            // the UUID): keep only what looks like an identifier.
            if let v = value.map(Text.clean), isIdentifier(v) { return v }
            return nil
        }
        return nil
    }
}

/// Reads entry values straight from libexif's buffers, checking the format and size first:
/// a tag stored with an unexpected type (Orientation as LONG) is still read correctly, and a
/// short buffer never leads to an out-of-bounds read.
private struct EntryReader {
    let order: ExifByteOrder

    func entry(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: TIFFTag) -> UnsafeMutablePointer<ExifEntry>? {
        guard let content else { return nil }
        return exif_content_get_entry(content, ExifTag(rawValue: UInt32(tag.number)))
    }

    func bytes(_ e: UnsafeMutablePointer<ExifEntry>) -> UnsafeBufferPointer<UInt8>? {
        guard let p = e.pointee.data, e.pointee.size > 0 else { return nil }
        return UnsafeBufferPointer(start: p, count: Int(e.pointee.size))
    }

    /// ASCII (or UNDEFINED/BYTE holding text), up to the first NUL, cleaned; nil when empty.
    func text(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: TIFFTag) -> String? {
        guard let e = entry(content, tag), let b = bytes(e) else { return nil }
        let f = e.pointee.format
        guard f == EXIF_FORMAT_ASCII || f == EXIF_FORMAT_UNDEFINED || f == EXIF_FORMAT_BYTE else { return nil }
        let end = b.firstIndex(of: 0) ?? b.count
        let s = Text.clean(String(decoding: UnsafeBufferPointer(rebasing: b[0..<end]), as: UTF8.self))
        return s.isEmpty ? nil : s
    }

    /// The first component of a SHORT, LONG, SSHORT, SLONG or BYTE entry.
    func integer(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: TIFFTag) -> Int? {
        guard let e = entry(content, tag), let b = bytes(e), let base = b.baseAddress else { return nil }
        switch e.pointee.format {
        case EXIF_FORMAT_SHORT where b.count >= 2: return Int(exif_get_short(base, order))
        case EXIF_FORMAT_SSHORT where b.count >= 2: return Int(exif_get_sshort(base, order))
        case EXIF_FORMAT_LONG where b.count >= 4: return Int(exif_get_long(base, order))
        case EXIF_FORMAT_SLONG where b.count >= 4: return Int(exif_get_slong(base, order))
        case EXIF_FORMAT_BYTE: return Int(b[0])
        default: return nil
        }
    }

    /// SHORT or LONG components (at most `limit`).
    func integers(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: TIFFTag, limit: Int = 65_536) -> [Int]? {
        guard let e = entry(content, tag), let b = bytes(e), let base = b.baseAddress else { return nil }
        let f = e.pointee.format
        let width = f == EXIF_FORMAT_SHORT ? 2 : f == EXIF_FORMAT_LONG ? 4 : 0
        guard width > 0 else { return nil }
        let n = min(Int(e.pointee.components), b.count / width, limit)
        return (0..<n).map { i in
            width == 2 ? Int(exif_get_short(base + 2 * i, order)) : Int(exif_get_long(base + 4 * i, order))
        }
    }

    /// The end of the last (offset, count) pair of two parallel arrays (strips or tiles).
    func extentEnd(_ content: UnsafeMutablePointer<ExifContent>?, offsets: TIFFTag, counts: TIFFTag) -> Int64? {
        guard let o = integers(content, offsets), let c = integers(content, counts), !o.isEmpty else { return nil }
        return zip(o, c).map { Int64($0) + Int64($1) }.max()
    }

    /// RATIONAL components as Doubles; a zero denominator makes the value nil.
    /// RATIONALs, or SRATIONALs where a writer used the signed type (HMD's Nokia phones write
    /// GPSLatitude, GPSLongitude and GPSTimeStamp so; exiftool reads them): the caller decides
    /// what a negative value means.
    func rationals(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: TIFFTag) -> [Double]? {
        guard let e = entry(content, tag), e.pointee.format == EXIF_FORMAT_RATIONAL || e.pointee.format == EXIF_FORMAT_SRATIONAL,
            let b = bytes(e), let base = b.baseAddress
        else { return nil }
        let signed = e.pointee.format == EXIF_FORMAT_SRATIONAL
        let n = min(Int(e.pointee.components), b.count / 8, 8)
        var values: [Double] = []
        for i in 0..<n {
            if signed {
                let r = exif_get_srational(base + 8 * i, order)
                guard r.denominator != 0 else { return nil }
                values.append(Double(r.numerator) / Double(r.denominator))
            } else {
                let r = exif_get_rational(base + 8 * i, order)
                guard r.denominator != 0 else { return nil }
                values.append(Double(r.numerator) / Double(r.denominator))
            }
        }
        return values
    }

    /// [EXIF 2.32 4.6.5 C, Table 9] UserComment: an 8-byte character code then the text.
    func userComment(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: TIFFTag) -> String? {
        guard let e = entry(content, tag), let b = bytes(e) else { return nil }
        if e.pointee.format == EXIF_FORMAT_ASCII { return text(content, tag) }
        guard b.count > 8 else { return nil }
        let code = Array(b[0..<8])
        let body = Array(b[8...])
        let s: String
        if code.starts(with: Array("UNICODE".utf8)) {
            var units: [UInt16] = []
            var i = 0
            while i + 1 < body.count {
                units.append(
                    order == EXIF_BYTE_ORDER_MOTOROLA
                        ? UInt16(body[i]) << 8 | UInt16(body[i + 1])
                        : UInt16(body[i + 1]) << 8 | UInt16(body[i]))
                i += 2
            }
            s = String(decoding: units, as: UTF16.self)
        } else {
            // ASCII, undefined (all zero) or JIS: read as UTF-8, which ASCII is a subset of.
            s = String(decoding: body, as: UTF8.self)
        }
        let cleaned = Text.clean(s)
        return cleaned.isEmpty ? nil : cleaned
    }
}

/// Collects libexif's log messages for one decode. Only corrupt-data and out-of-memory
/// messages are kept; debug chatter is dropped.
private final class LogCollector {
    var messages: [String] = []
}

private let logCallback: ExifLogFunc = { _, code, domain, format, args, context in
    guard let context, let format, let args, code == EXIF_LOG_CODE_CORRUPT_DATA || code == EXIF_LOG_CODE_NO_MEMORY else { return }
    let collector = Unmanaged<LogCollector>.fromOpaque(context).takeUnretainedValue()
    guard collector.messages.count < 50 else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    _ = buffer.withUnsafeMutableBufferPointer { buf in
        vsnprintf(buf.baseAddress, buf.count, format, args)
    }
    let message = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let d = domain.map { String(cString: $0) } ?? "libexif"
    collector.messages.append("\(d): \(message)")
}
