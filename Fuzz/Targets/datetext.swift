// Fuzz target 'datetext' (see docs/fuzzing.md).
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
    return 0
}
