/// Everything a file says about its dates, gathered from the earlier stages.
package struct DateEvidence: Sendable {
    package var exif: ExifRecord?
    package var xmp: XMPRecord
    package var quickTime: QuickTimeMetadata?
    /// AVI `IDIT`, then `INFO/ICRD` text.
    package var riffDates: [String]
    package var pngCreationTime: String?
    package var fileName: String
    package var fileTimes: FileTimes?

    package init(
        exif: ExifRecord? = nil, xmp: XMPRecord = XMPRecord(), quickTime: QuickTimeMetadata? = nil,
        riffDates: [String] = [], pngCreationTime: String? = nil, fileName: String, fileTimes: FileTimes? = nil
    ) {
        self.riffDates = riffDates
        self.exif = exif
        self.xmp = xmp
        self.quickTime = quickTime
        self.pngCreationTime = pngCreationTime
        self.fileName = fileName
        self.fileTimes = fileTimes
    }
}

/// A file's times, as the file system reports them: instants.
public struct FileTimes: Sendable, Equatable {
    /// Birth time (statx STATX_BTIME), nil where the file system does not record it.
    public var birth: LocalDateTime?
    /// Modification time (statx STATX_MTIME).
    public var modification: LocalDateTime

    /// File times as instants (their UTC wall clocks).
    public init(birth: LocalDateTime?, modification: LocalDateTime) {
        self.birth = birth
        self.modification = modification
    }
}

/// The capture-date precedence table: the one place that decides which date wins.
///
/// 1. EXIF DateTimeOriginal (+ SubSecTimeOriginal, + OffsetTimeOriginal)
/// 2. EXIF DateTimeDigitized (+ SubSecTimeDigitized, + OffsetTimeDigitized)
/// 3. QuickTime: Apple Keys CreationDate (its own offset), then `mvhd` (UTC)
/// 4. XMP: exif:DateTimeOriginal, photoshop:DateCreated, xmp:CreateDate
/// 5. PNG `Creation Time`
/// 6. EXIF DateTime (+ SubSecTime, + OffsetTime)
/// 7. a date in the file name
/// 8. the file's birth time, else its modification time
///
/// A value that is present but unusable (placeholder, malformed, impossible) is skipped with a
/// diagnostic, and the next rule is tried. docs/dates.md explains each rule.
package enum CaptureDateResolver {
    package static func resolve(_ e: DateEvidence) -> (date: CaptureDate?, diagnostics: [Diagnostic]) {
        let (date, diagnostics) = resolveByPrecedence(e)
        return (date.map { offsetFromFileTimes($0, e.fileTimes) }, diagnostics)
    }

    /// The precedence table itself; `resolve` adds offsets from file times.
    static func resolveByPrecedence(_ e: DateEvidence) -> (date: CaptureDate?, diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        if let x = e.exif {
            if let d = exifDate(
                x.dateTimeOriginal, subSec: x.subSecTimeOriginal, offset: x.offsetTimeOriginal,
                offsetSource: .offsetTimeOriginal, source: .exifDateTimeOriginal, exif: x, &diagnostics)
            {
                return (d, diagnostics)
            }
            if let d = exifDate(
                x.dateTimeDigitized, subSec: x.subSecTimeDigitized, offset: x.offsetTimeDigitized,
                offsetSource: .offsetTimeDigitized, source: .exifDateTimeDigitized, exif: x, &diagnostics)
            {
                return (d, diagnostics)
            }
        }
        if let qt = e.quickTime {
            if let text = qt.creationDate {
                switch DateTextParser.iso8601(text) {
                case .success(let stamp):
                    return (
                        CaptureDate(
                            .wall(stamp.local, offset: stamp.offset, offsetSource: stamp.offset == nil ? nil : .embedded),
                            source: .quickTimeCreationDate), diagnostics
                    )
                case .failure(let why):
                    diagnostics.append(Diagnostic("date", "quicktime.CreationDate '\(text)': \(why); skipped"))
                }
            }
            if let seconds = qt.mvhdCreation {
                if seconds > 0, let utc = LocalDateTime(secondsAsIfUTC: seconds) {
                    return (CaptureDate(.instant(utc: utc), source: .quickTimeMovieHeader), diagnostics)
                }
                // Before 1970 from 1904 [ISO 14496-12 8.2.2.3]: some writers count from the Unix
                // epoch instead (exiftool patches the same mistake). Read as such when that gives
                // a date a digital camera could have written (1990 or later); a smaller value is
                // a movie written without a clock.
                let raw = seconds + QuickTimeReader.epochDelta
                if raw >= Self.unixEpochWriterFloor, let utc = LocalDateTime(secondsAsIfUTC: raw) {
                    diagnostics.append(
                        Diagnostic("date", "quicktime.mvhd creation time counts from 1970, not 1904; read as such"))
                    return (CaptureDate(.instant(utc: utc), source: .quickTimeMovieHeader), diagnostics)
                }
                diagnostics.append(Diagnostic("date", "quicktime.mvhd creation time is before 1970; skipped"))
            }
        }
        for text in e.riffDates {
            switch DateTextParser.riff(text) {
            case .success(let stamp):
                return (
                    CaptureDate(
                        .wall(stamp.local, offset: stamp.offset, offsetSource: stamp.offset == nil ? nil : .embedded),
                        source: .riffDateTimeOriginal), diagnostics
                )
            case .failure(let why):
                diagnostics.append(Diagnostic("date", "riff.DateTimeOriginal '\(text)': \(why); skipped"))
            }
        }
        for (text, source) in [
            (e.xmp.dateTimeOriginal, DateSource.xmpDateTimeOriginal),
            (e.xmp.dateCreated, .xmpDateCreated), (e.xmp.createDate, .xmpCreateDate),
        ] {
            guard let text else { continue }
            switch DateTextParser.iso8601(text) {
            case .success(let stamp):
                return (
                    CaptureDate(
                        .wall(stamp.local, offset: stamp.offset, offsetSource: stamp.offset == nil ? nil : .embedded),
                        source: source), diagnostics
                )
            case .failure(let why):
                diagnostics.append(Diagnostic("date", "\(source.rawValue) '\(text)': \(why); skipped"))
            }
        }
        if let text = e.pngCreationTime {
            switch DateTextParser.freeform(text) {
            case .success(let stamp):
                return (
                    CaptureDate(
                        .wall(stamp.local, offset: stamp.offset, offsetSource: stamp.offset == nil ? nil : .embedded),
                        source: .pngCreationTime),
                    diagnostics
                )
            case .failure(let why):
                diagnostics.append(Diagnostic("date", "png.CreationTime '\(text)': \(why); skipped"))
            }
        }
        if let x = e.exif,
            let d = exifDate(
                x.dateTime, subSec: x.subSecTime, offset: x.offsetTime, offsetSource: .offsetTime,
                source: .exifDateTime, exif: x, &diagnostics)
        {
            return (d, diagnostics)
        }
        if let n = FileNameDateParser.parse(e.fileName) {
            let clock: CaptureDate.Clock = n.isInstant ? .instant(utc: n.local) : .wall(n.local, offset: nil, offsetSource: nil)
            return (CaptureDate(clock, source: .fileName), diagnostics)
        }
        if let t = e.fileTimes {
            // The earlier of the two: a copy made with `cp -p`, `rsync -a` or `tar` is born now
            // but keeps the old mtime, and the content is as old as the older time; a birth
            // time before the mtime is a file written (or touched) after it was created.
            if let birth = t.birth, birth <= t.modification {
                return (CaptureDate(.instant(utc: birth), source: .fileBirthTime), diagnostics)
            }
            return (CaptureDate(.instant(utc: t.modification), source: .fileModificationTime), diagnostics)
        }
        return (nil, diagnostics)
    }

    /// A wall clock that says nothing of its zone (a name, a zoneless EXIF or XMP date) gets an
    /// offset from the file's times when one of them, shifted by a whole quarter hour between
    /// -12:00 and +14:00, lands within `fileTimeAgreement` of it: a screenshot named in the
    /// machine's local time and written at that moment tells its zone. Only agreement that
    /// close counts (a file copied later, or a name that is not the capture time, will not
    /// match to the second).
    package static func offsetFromFileTimes(_ date: CaptureDate, _ times: FileTimes?) -> CaptureDate {
        guard case .wall(let local, nil, _) = date.clock, local.hasTime, let times else { return date }
        let wall = Double(local.secondsAsIfUTC) + Double(local.nanosecond) / 1e9
        for t in [times.birth, times.modification].compactMap({ $0 }) {
            let instant = Double(t.secondsAsIfUTC) + Double(t.nanosecond) / 1e9
            let diff = wall - instant
            guard abs(diff) <= 14 * 3600 + fileTimeAgreement else { continue }
            let quarters = (diff / 900).rounded()
            guard abs(diff - quarters * 900) <= fileTimeAgreement else { continue }
            let seconds = Int(quarters) * 900
            guard seconds >= -12 * 3600, seconds <= 14 * 3600, let offset = UTCOffset(seconds: seconds) else { continue }
            return CaptureDate(.wall(local, offset: offset, offsetSource: .fileTime), source: date.source)
        }
        return date
    }

    /// How close a file time must come to a wall clock (after the offset) to lend its zone.
    package static let fileTimeAgreement = 2.0

    /// 1990-01-01T00:00:00Z: an `mvhd` time below 1970 that, counted from 1970, lands before
    /// this is not a clock's reading.
    static let unixEpochWriterFloor: Int64 = 631_152_000

    /// An EXIF date with its fraction and offset. The offset comes from the tag that belongs to
    /// this date, else from GPS; never from another date's tag (OffsetTime belongs to DateTime).
    static func exifDate(
        _ text: String?, subSec: String?, offset: String?, offsetSource: OffsetSource,
        source: DateSource, exif: ExifRecord, _ diagnostics: inout [Diagnostic]
    ) -> CaptureDate? {
        guard let text else { return nil }
        var stamp: DateTextParser.Stamp
        switch DateTextParser.exif(text) {
        case .success(let s): stamp = s
        case .failure(let why):
            diagnostics.append(Diagnostic("date", "\(source.rawValue) '\(text)': \(why); skipped"))
            return nil
        }
        if let subSec {
            if let (nano, digits) = DateTextParser.subSecond(subSec) {
                if stamp.local.fractionDigits == nil {
                    stamp.local.nanosecond = nano
                    stamp.local.fractionDigits = digits
                }
            } else {
                diagnostics.append(Diagnostic("date", "SubSecTime for \(source.rawValue) '\(subSec)' is not digits; ignored"))
            }
        }
        if let embedded = stamp.offset {
            return CaptureDate(.wall(stamp.local, offset: embedded, offsetSource: .embedded), source: source)
        }
        if let offset {
            if let o = DateTextParser.offset(offset) {
                return CaptureDate(.wall(stamp.local, offset: o, offsetSource: offsetSource), source: source)
            }
            diagnostics.append(Diagnostic("date", "\(offsetSource.rawValue) '\(offset)' is not an offset; ignored"))
        }
        if let o = gpsOffset(local: stamp.local, exif: exif) {
            return CaptureDate(.wall(stamp.local, offset: o, offsetSource: .gps), source: source)
        }
        return CaptureDate(.wall(stamp.local, offset: nil, offsetSource: nil), source: source)
    }

    /// The offset implied by GPS UTC date and time [EXIF 2.32 4.6.6, GPSTimeStamp, GPSDateStamp]:
    /// local minus UTC, rounded to 15 minutes, accepted only within ±14 h (further apart, one
    /// of the clocks is wrong).
    package static func gpsOffset(local: LocalDateTime, exif: ExifRecord) -> UTCOffset? {
        guard let dateText = exif.gpsDateStamp, let time = exif.gpsTimeOfDay,
            case .success(let d) = DateTextParser.exif(dateText + " 00:00:00")
        else { return nil }
        let gpsUTC = Double(d.local.secondsAsIfUTC) + time
        let diff = Double(local.secondsAsIfUTC) - gpsUTC
        guard abs(diff) <= 14 * 3600 + 450 else { return nil }
        let rounded = Int((diff / 900).rounded()) * 900
        return UTCOffset(seconds: rounded)
    }
}
