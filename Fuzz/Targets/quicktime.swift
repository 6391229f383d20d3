// Fuzz target 'quicktime' (see docs/fuzzing.md).
@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let detected = FormatDetector.detect(Array(bytes.prefix(FormatDetector.headerLength)))
    let format: MediaFormat = detected == .mp4 ? .mp4 : .mov
    fuzzContainer(bytes) { QuickTimeReader.read($0, format: format) }
    return 0
}
