// Fuzz target 'jxl' (see docs/fuzzing.md).
@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    fuzzContainer(bytes) { JXLReader.read($0) }
    // The Brotli decoder alone, on the same bytes, with a small limit.
    if case .tooLarge(let prefix) = BrotliDecoder.decompress(bytes, limit: 4096) {
        invariant(prefix.count == 4096, "a cut Brotli output of \(prefix.count) bytes")
    }
    return 0
}
