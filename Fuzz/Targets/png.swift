// Fuzz target 'png' (see docs/fuzzing.md).
@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    fuzzContainer(bytes) { PNGReader.read($0) }
    // The ImageMagick raw-profile decoder on its own (it parses untrusted text).
    if let exif = PNGReader.rawProfile(bytes) {
        invariant(exif.count <= bytes.count / 2, "raw profile decoded to more bytes than its text holds")
    }
    return 0
}
