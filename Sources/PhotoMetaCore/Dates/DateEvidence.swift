/// Everything a file says about its dates, gathered from the earlier stages: the EXIF record
/// (its dates come with sub-seconds, offsets and GPS time, so the table reads it whole), the
/// dates containers and XMP state (`DateClue`), the file name and the file times.
package struct DateEvidence: Sendable {
    package var exif: ExifRecord?
    /// Container and XMP dates; among clues of one source, the first usable one wins.
    package var clues: [DateClue]
    package var fileName: String
    package var fileTimes: FileTimes?
    /// A name dated after this year is a counter, not a date (the caller's "next year"; the
    /// core reads no clock). Nil: only `FileNameDateParser.plausibleYears`.
    package var latestNameYear: Int?
    /// A still picture, written in one go (a video is written for as long as it records): a
    /// modification long after its birth is the picture written anew (`rewriteGapSeconds`).
    package var isStill: Bool

    package init(
        exif: ExifRecord? = nil, xmp: XMPRecord = XMPRecord(), clues: [DateClue] = [], fileName: String,
        fileTimes: FileTimes? = nil, latestNameYear: Int? = nil, isStill: Bool = false
    ) {
        self.exif = exif
        self.clues = clues + xmp.dateClues
        self.fileName = fileName
        self.fileTimes = fileTimes
        self.latestNameYear = latestNameYear
        self.isStill = isStill
    }
}
