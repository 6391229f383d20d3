// Fuzz target 'datetext' (see docs/fuzzing.md).
import Foundation

@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    // The metadata date-text parsers (EXIF, ISO 8601, RFC 1123, offsets, sub-seconds).
    let text = String(decoding: bytes, as: UTF8.self)
    _ = DateTextParser.exif(text)
    _ = DateTextParser.freeform(text)
    _ = DateTextParser.offset(text)
    _ = DateTextParser.subSecond(text)
    // The same bytes as numbers, through every time conversion (issue 13, item 1: a file time
    // near Int64.min trapped): seconds and nanoseconds as file times and as instants, and a
    // QuickTime movie header.
    if bytes.count >= 12 {
        var seconds: Int64 = 0
        var nanoseconds: Int32 = 0
        for i in 0..<8 { seconds = seconds << 8 | Int64(bytes[i]) }
        for i in 8..<12 { nanoseconds = nanoseconds << 8 | Int32(bytes[i]) }
        if let local = LocalDateTime(secondsAsIfUTC: seconds, nanosecond: Int(nanoseconds), fractionDigits: 3) {
            invariant((1...9999).contains(local.year), "year \(local.year) from \(seconds)")
            let times = FileTimes(birth: local, modification: local)
            let asset = Inspector.inspect(bytes: [0xFF, 0xD8, 0xFF, 0xD9], path: "f.jpg", fileTimes: times)
            _ = asset.captured?.epochSeconds(assuming: TimeZone(secondsFromGMT: 14 * 3600) ?? .current)
            _ = asset.captured?.rendered(in: TimeZone(secondsFromGMT: -12 * 3600) ?? .current)
        }
        var qt = QuickTimeReader.Atoms()
        QuickTimeReader.readMovieHeader(bytes, into: &qt)
        if let c = qt.movieDate {
            _ = CaptureDateResolver.resolve(DateEvidence(clues: [DateClue(.quickTimeMovieHeader, c)], fileName: "x.mov"))
        }
        _ = QuickTimeReader.movieDate(secondsSince1904: seconds)
    }
    return 0
}
