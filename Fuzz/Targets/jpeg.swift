// Fuzz target 'jpeg' (see docs/fuzzing.md).
@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    fuzzContainer(bytes) { JPEGReader.read($0) }
    return 0
}
