// Fuzz target 'heif' (see docs/fuzzing.md).
@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    // The reader is told the brand the detector finds (HEIC when the ftyp says something else).
    let detected = FormatDetector.detect(Array(bytes.prefix(FormatDetector.headerLength)))
    let format: MediaFormat = [.heic, .heif, .avif].contains(detected) ? detected : .heic
    fuzzContainer(bytes) { HEIFReader.read($0, format: format) }
    return 0
}
