// Fuzz target 'filename' (see docs/fuzzing.md).
@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    // The bytes as a file name (invalid UTF-8 becomes U+FFFD, as the scanners decode names).
    let name = String(decoding: bytes, as: UTF8.self)
    if let d = FileNameDateParser.parse(name) {
        invariant(FileNameDateParser.plausibleYears.contains(d.local.year), "implausible year \(d.local.year)")
    }
    _ = FileNameDateParser.parse("/some/dir/" + name + ".jpg")
    // The name with file times and a movie header near its date (the first 8 bytes, as an
    // offset in seconds, move them): the rules that place a name's date by the file time
    // (`refinedByFileTimes`), beside a movie header (rule 3b) that outranks the name.
    if let d = FileNameDateParser.parse(name), bytes.count >= 8 {
        var shift: Int64 = 0
        for b in bytes.prefix(8) { shift = shift << 8 | Int64(b) }
        let seconds = d.local.secondsAsIfUTC.addingReportingOverflow(shift % 200_000)
        if !seconds.overflow, let t = LocalDateTime(secondsAsIfUTC: seconds.partialValue, nanosecond: Int(bytes[0]) * 3_900_000) {
            let times = FileTimes(birth: nil, modification: t)
            let mvhd = DateClue(.quickTimeMovieHeader, .instant(utc: t, caveat: nil))
            let (date, _) = CaptureDateResolver.resolve(DateEvidence(clues: [mvhd], fileName: name, fileTimes: times))
            invariant(date != nil, "a movie header always gives a date")
            _ = CaptureDateResolver.resolve(DateEvidence(fileName: name, fileTimes: times))
        }
    }
    return 0
}
