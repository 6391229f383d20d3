// Fuzz target 'xmp' (see docs/fuzzing.md).
@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    // A NUL byte splits the input into packets, as a file with several XMP blocks hands them on.
    let packets = bytes.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).map(Array.init)
    _ = XMPReader.read(packets)
    if let end = XMPReader.packetEnd(in: bytes) {
        invariant(end <= bytes.count, "packet end \(end) past the input (\(bytes.count) bytes)")
    }
    return 0
}
