// Fuzz target 'inspect' (see docs/fuzzing.md).
@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    // Format detection, then the whole pure pipeline as `photometa inspect` runs it.
    let format = FormatDetector.detect(Array(bytes.prefix(FormatDetector.headerLength)))
    let asset = Inspector.inspect(MemoryByteSource(bytes), path: "fuzz.bin")
    invariant(asset.format == format, "detected \(format) but the asset says \(asset.format)")
    invariant(asset.error != nil || format != .unknown, "unknown format without an error")
    return 0
}
