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
    return 0
}
