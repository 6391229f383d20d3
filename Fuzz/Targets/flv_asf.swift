// Fuzz target 'flv_asf' (see docs/fuzzing.md).
@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    // Both readers on every input: FLV's header, tags, script data and end check; ASF's
    // objects, properties and index check. The raw bytes as AMF0 script data too.
    fuzzContainer(bytes) { FLVReader.read($0) }
    fuzzContainer(bytes) { ASFReader.read($0) }
    _ = ActionMessageFormat.properties(bytes)
    return 0
}
