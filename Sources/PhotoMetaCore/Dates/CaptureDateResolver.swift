/// The capture-date precedence table: the one place that decides which date wins.
///
/// 1. EXIF DateTimeOriginal (+ SubSecTimeOriginal, + OffsetTimeOriginal)
/// 2. EXIF DateTimeDigitized (+ SubSecTimeDigitized, + OffsetTimeDigitized)
/// 3. QuickTime: Apple Keys CreationDate (its own offset), then `mvhd` (UTC)
/// 4. AVI: `IDIT`, then `INFO/ICRD` (both reported as `riff.DateTimeOriginal`); Matroska and
///    WebM `DateUTC` (an instant); ASF's `Creation Date` (an instant); FLV's `creationdate`;
///    AVCHD's MDPM recording time in a transport stream
/// 5. XMP: exif:DateTimeOriginal, photoshop:DateCreated, xmp:CreateDate; then IPTC
///    DateCreated (+ TimeCreated)
/// 6. PNG `Creation Time`
/// 7. GPS date and time (an instant): EXIF GPSDateStamp + GPSTimeStamp, then XMP
///    exif:GPSTimeStamp; then EXIF DateTime (+ SubSecTime, + OffsetTime)
/// 8. sidecars: an XMP sidecar's dates, then a Google Takeout JSON's `photoTakenTime`
/// 9. a date in the file name
/// 10. the earlier of the file's birth and modification times; for a still modified more than
///    a minute after its birth (written anew in place), the modification time
///
/// A value that is present but unusable (placeholder, malformed, impossible) is skipped with a
/// diagnostic, and the next rule is tried. docs/dates.md explains each rule.
package enum CaptureDateResolver {
    /// How long after its birth a still may still be being written (a slow copy, a download):
    /// a modification later than this is the still written anew, and dates it.
    static let rewriteGapSeconds: Int64 = 60

    /// Modified more than `rewriteGapSeconds` after its birth, to the nanosecond (wrapping: a
    /// hostile time stamp must not trap).
    static func writtenAnew(_ birth: LocalDateTime, _ modification: LocalDateTime) -> Bool {
        let seconds = modification.secondsAsIfUTC &- birth.secondsAsIfUTC
        let nanoseconds = Int64(modification.nanosecond) &- Int64(birth.nanosecond)
        return seconds > rewriteGapSeconds || (seconds == rewriteGapSeconds && nanoseconds > 0)
    }

    /// The table, as data: rules 1 to 10 above, by the source each reports.
    package static let precedence: [DateSource] = [
        .exifDateTimeOriginal, .exifDateTimeDigitized, .quickTimeCreationDate, .quickTimeMovieHeader,
        .riffDateTimeOriginal, .matroskaDateUTC, .asfCreationDate, .flvCreationDate, .h264DateTimeOriginal,
        .xmpDateTimeOriginal, .xmpDateCreated, .xmpCreateDate,
        .iptcDateCreated,
        .pngCreationTime,
        .exifGPSDateTime, .xmpGPSTimeStamp, .exifDateTime, .sidecarXMP, .sidecarTakeout, .fileName, .fileBirthTime,
    ]

    package static func resolve(_ e: DateEvidence) -> (date: CaptureDate?, diagnostics: [Diagnostic]) {
        let (date, diagnostics) = resolveByPrecedence(e)
        return (date.map { offsetFromFileTimes($0, e.fileTimes) }, diagnostics)
    }

    /// The precedence table itself; `resolve` adds offsets from file times.
    static func resolveByPrecedence(_ e: DateEvidence) -> (date: CaptureDate?, diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        for (k, source) in precedence.enumerated() {
            guard let d = date(from: source, e, &diagnostics) else { continue }
            return (d.reduced == nil ? d : reducedDate(d, rank: k, e, &diagnostics), diagnostics)
        }
        return (nil, diagnostics)
    }

    /// The date one rule of the table gives, if any.
    static func date(from source: DateSource, _ e: DateEvidence, _ diagnostics: inout [Diagnostic]) -> CaptureDate? {
        switch source {
        case .exifDateTimeOriginal:
            guard let x = e.exif else { return nil }
            return exifDate(
                x.dateTimeOriginal, subSec: x.subSecTimeOriginal, offset: x.offsetTimeOriginal,
                offsetSource: .offsetTimeOriginal, source: source, exif: x, &diagnostics)
        case .exifDateTimeDigitized:
            guard let x = e.exif else { return nil }
            return exifDate(
                x.dateTimeDigitized, subSec: x.subSecTimeDigitized, offset: x.offsetTimeDigitized,
                offsetSource: .offsetTimeDigitized, source: source, exif: x, &diagnostics)
        case .exifDateTime:
            guard let x = e.exif else { return nil }
            return exifDate(
                x.dateTime, subSec: x.subSecTime, offset: x.offsetTime, offsetSource: .offsetTime,
                source: source, exif: x, &diagnostics)
        case .exifGPSDateTime:
            guard let x = e.exif, let gps = gpsDate(x, &diagnostics) else { return nil }
            // A DateTime at the same moment (a phone that writes no DateTimeOriginal) says the
            // wall clock as well, and GPS lends it its offset: rule 6c gives both.
            if let time = dateTime(x), sameMoment(time, gps) { return nil }
            return gps
        case .iptcDateCreated:
            for clue in e.clues where clue.source == source {
                guard let d = date(from: clue, &diagnostics) else { continue }
                // A date alone that a later timestamp of the file falls on (the GPS fix's, or
                // DateTime): that one says the time too.
                if !d.hasTime, let x = e.exif, [gpsDate(x), dateTime(x)].contains(where: { $0?.localDay == d.localDay }) {
                    return nil
                }
                return d
            }
            return nil
        case .fileName:
            let (name, why) = FileNameDateParser.interpret(e.fileName)
            diagnostics += why
            guard let n = name else { return nil }
            if let latest = e.latestNameYear, n.local.year > latest {
                diagnostics.append(
                    Diagnostic(
                        "date", "filename '\(e.fileName)' looks like \(n.pattern) but its date is after \(latest); skipped"))
                return nil
            }
            let clock: CaptureDate.Clock = n.isInstant ? .instant(utc: n.local) : .wall(n.local, offset: nil, offsetSource: nil)
            return refinedByFileTimes(CaptureDate(clock, source: .fileName), resolution: n.resolution, e.fileTimes, &diagnostics)
        case .fileBirthTime, .fileModificationTime:
            guard let t = e.fileTimes else { return nil }
            // The earlier of the two: a copy made with `cp -p`, `rsync -a` or `tar` is born now
            // but keeps the old mtime, and the content is as old as the older time; a birth
            // time before the mtime is a file written (or touched) after it was created: a
            // recording, born when it started. A still modified long after its birth was
            // written anew in place (a tool that saves every shot as `screenshot.png`
            // truncates the old one, which keeps its birth): its picture is the modification's,
            // as it would be had the tool written a new file and renamed it over the old one.
            if let birth = t.birth, birth <= t.modification, !e.isStill || !writtenAnew(birth, t.modification) {
                return CaptureDate(.instant(utc: birth), source: .fileBirthTime)
            }
            return CaptureDate(.instant(utc: t.modification), source: .fileModificationTime)
        default:
            for clue in e.clues where clue.source == source {
                if let d = date(from: clue, &diagnostics) { return d }
            }
            return nil
        }
    }

    /// A container's or XMP's date: text parsed by its form, or the reader's instant.
    static func date(from clue: DateClue, _ diagnostics: inout [Diagnostic]) -> CaptureDate? {
        var date = dateIgnoringOrigin(from: clue, &diagnostics)
        date?.sidecar = clue.origin
        return date
    }

    static func dateIgnoringOrigin(from clue: DateClue, _ diagnostics: inout [Diagnostic]) -> CaptureDate? {
        switch clue.value {
        case .text(let text, let form):
            switch form.parse(text) {
            case .success(let stamp) where form == .utcISO8601:
                // An instant: the offset it names, else UTC [XMP EXIF schema, GPSTimeStamp].
                guard stamp.local.hasTime else {
                    diagnostics.append(Diagnostic("date", "\(clue.source.rawValue) '\(text)' has no time; skipped"))
                    return nil
                }
                let seconds = stamp.local.secondsAsIfUTC - Int64(stamp.offset?.seconds ?? 0)
                guard
                    let utc = LocalDateTime(
                        secondsAsIfUTC: seconds, nanosecond: stamp.local.nanosecond,
                        fractionDigits: stamp.local.fractionDigits),
                    utc.year >= gpsEpochYear
                else {
                    diagnostics.append(Diagnostic("date", "\(clue.source.rawValue) '\(text)': before GPS time began; skipped"))
                    return nil
                }
                return CaptureDate(.instant(utc: utc), source: clue.source)
            case .success(let stamp):
                var d = CaptureDate(
                    .wall(stamp.local, offset: stamp.offset, offsetSource: stamp.offset == nil ? nil : .embedded),
                    source: clue.source)
                d.reduced = stamp.reduced
                return d
            case .failure(let why):
                diagnostics.append(Diagnostic("date", "\(clue.source.rawValue) '\(text)': \(why); skipped"))
                return nil
            }
        case .instant(let utc, let caveat):
            if let caveat { diagnostics.append(Diagnostic("date", caveat)) }
            return CaptureDate(.instant(utc: utc), source: clue.source)
        case .unusable(let reason):
            diagnostics.append(Diagnostic("date", reason))
            return nil
        }
    }

    /// A wall clock that says nothing of its zone (a name, a zoneless EXIF or XMP date) gets an
    /// offset from the file's times when one of them, shifted by an offset in use
    /// (`UTCOffset.isInUse`), lands within `fileTimeAgreement` of it: a screenshot named in the
    /// machine's local time and written at that moment tells its zone. Only agreement that
    /// close counts (a file copied later, or a name that is not the capture time, will not
    /// match to the second).
    ///
    /// Agreement at +00:00 lends nothing. FAT and most exFAT cards store a camera's local time
    /// with no zone, and Linux reads it in the kernel's zone, UTC unless the clock is set to
    /// local time: a camera's photo copied with its times (`cp -p`, a file manager) agrees
    /// with them at +00:00 wherever it was taken. A machine that does run in UTC loses nothing:
    /// its zone, assumed, is the same +00:00.
    package static func offsetFromFileTimes(_ date: CaptureDate, _ times: FileTimes?) -> CaptureDate {
        guard case .wall(let local, nil, _) = date.clock, local.hasTime, let times else { return date }
        let wall = Double(local.secondsAsIfUTC) + Double(local.nanosecond) / 1e9
        for t in [times.birth, times.modification].compactMap({ $0 }) {
            let instant = Double(t.secondsAsIfUTC) + Double(t.nanosecond) / 1e9
            guard let offset = UTCOffset.inUse(nearest: wall - instant, within: fileTimeAgreement), offset.seconds != 0
            else { continue }
            var shifted = CaptureDate(.wall(local, offset: offset, offsetSource: .fileTime), source: date.source)
            shifted.sidecar = date.sidecar
            return shifted
        }
        return date
    }

    /// How close a file time must come to a wall clock (after the offset) to lend its zone.
    package static let fileTimeAgreement = 2.0

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
        if let o = gpsOffset(local: stamp.local, exif: exif, &diagnostics) {
            return CaptureDate(.wall(stamp.local, offset: o, offsetSource: .gps), source: source)
        }
        return CaptureDate(.wall(stamp.local, offset: nil, offsetSource: nil), source: source)
    }

    /// EXIF DateTime as rule 6c reads it, without its notes (asked by earlier rules).
    static func dateTime(_ x: ExifRecord) -> CaptureDate? {
        var ignored: [Diagnostic] = []
        return exifDate(
            x.dateTime, subSec: x.subSecTime, offset: x.offsetTime, offsetSource: .offsetTime, source: .exifDateTime,
            exif: x, &ignored)
    }

    /// The GPS fix's time without its notes.
    static func gpsDate(_ x: ExifRecord) -> CaptureDate? {
        var ignored: [Diagnostic] = []
        return gpsDate(x, &ignored)
    }

    /// A wall clock and a GPS instant are one moment when they differ by an offset in use
    /// (the zone), give or take `gpsAgreement` (the fix may lag).
    static func sameMoment(_ wall: CaptureDate, _ gps: CaptureDate) -> Bool {
        guard case .wall(let local, _, _) = wall.clock, local.hasTime, case .instant(let utc) = gps.clock else { return false }
        let diff = Double(local.secondsAsIfUTC - utc.secondsAsIfUTC) + Double(local.nanosecond - utc.nanosecond) / 1e9
        return UTCOffset.inUse(nearest: diff, within: gpsAgreement) != nil
    }

    /// How far a GPS fix's time may lag the wall clock and still give its zone. A fix is often
    /// older than the photo (the last one a camera synced, a phone indoors): a minute or two is
    /// common (exiftool's Ricoh2.jpg: 84 s), and the offset then is still the zone's; 8 minutes
    /// stale, rounding made +02:15 of Paris's +02:00 and a UTC wrong by 8 minutes shown as exact.
    /// A difference further than this from a zone's offset gives none.
    static let gpsAgreement = 300.0

    /// GPS time began on 1980-01-06: an earlier GPS date is a receiver's placeholder.
    static let gpsEpochYear = 1980

    /// The UTC time of the GPS fix [EXIF 2.32 4.6.6, GPSDateStamp, GPSTimeStamp], an instant:
    /// a phone's or camera's fix is taken as the picture is, by a clock that needs no zone.
    /// Both tags must be there (a date alone is not a time of capture).
    static func gpsDate(_ exif: ExifRecord, _ diagnostics: inout [Diagnostic]) -> CaptureDate? {
        guard let dateText = exif.gpsDateStamp, let time = exif.gpsTimeOfDay else { return nil }
        guard case .success(let d) = DateTextParser.exif(dateText + " 00:00:00"), d.local.year >= gpsEpochYear else {
            diagnostics.append(Diagnostic("date", "exif.GPSDateStamp '\(dateText)' is not a usable date; skipped"))
            return nil
        }
        // `gpsTimeOfDay` is finite, non-negative and under a day (`ExifDecoder`).
        let whole = time.rounded(.down)
        let nanosecond = Int(((time - whole) * 1e9).rounded())
        let fraction: Int? = nanosecond == 0 ? nil : 3
        guard
            let utc = LocalDateTime(
                secondsAsIfUTC: d.local.secondsAsIfUTC + Int64(whole), nanosecond: min(nanosecond, 999_999_999),
                fractionDigits: fraction)
        else { return nil }
        return CaptureDate(.instant(utc: utc), source: .exifGPSDateTime)
    }

    /// The offset implied by GPS UTC date and time [EXIF 2.32 4.6.6, GPSTimeStamp, GPSDateStamp]:
    /// local minus UTC, when that lies within `gpsAgreement` of an offset a zone uses
    /// (`UTCOffset.inUse`); nil otherwise, with a note in `diagnostics` when both tags were
    /// there (a stale fix, or a wrong clock).
    package static func gpsOffset(
        local: LocalDateTime, exif: ExifRecord, _ diagnostics: inout [Diagnostic]
    ) -> UTCOffset? {
        guard let dateText = exif.gpsDateStamp, let time = exif.gpsTimeOfDay,
            case .success(let d) = DateTextParser.exif(dateText + " 00:00:00")
        else { return nil }
        let gpsUTC = Double(d.local.secondsAsIfUTC) + time
        let diff = Double(local.secondsAsIfUTC) + Double(local.nanosecond) / 1e9 - gpsUTC
        if let offset = UTCOffset.inUse(nearest: diff, within: gpsAgreement) { return offset }
        let shown = abs(diff) <= 14 * 3600 ? "\(Int((diff / 60).rounded())) min" : "more than 14 h"
        diagnostics.append(
            Diagnostic(
                "date",
                "the GPS time is \(shown) from the wall clock, not a zone's offset (a stale fix, or a clock set wrong); no offset from GPS"
            ))
        return nil
    }
}
