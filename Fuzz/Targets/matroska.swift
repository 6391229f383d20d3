// Fuzz target 'matroska' (see docs/fuzzing.md).
@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let format: MediaFormat = FormatDetector.detect(Array(bytes.prefix(FormatDetector.headerLength))) == .webm ? .webm : .mkv
    fuzzContainer(bytes) { MatroskaReader.read($0, format: format) }
    return 0
}
