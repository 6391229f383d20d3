// Fuzz target 'mpeg' (see docs/fuzzing.md).
@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    // Both readers on every input: the transport stream's packets, PSI tables, MDPM, SPS and
    // clock; the program stream's sequence header and SPS.
    fuzzContainer(bytes) { TransportStreamReader.read($0) }
    fuzzContainer(bytes) { ProgramStreamReader.read($0) }
    _ = AVCSequenceParameterSet.pictureSize(bytes)
    return 0
}
