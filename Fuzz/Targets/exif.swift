// Fuzz target 'exif' (see docs/fuzzing.md).
@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    // libexif bridge with the first four bytes forced to a TIFF header, so every input reaches
    // libexif's IFD parser (bit 0 of the first byte picks the byte order).
    var tiff = bytes
    if tiff.count >= 4 {
        if tiff[0] & 1 == 0 {
            tiff[0] = 0x49
            tiff[1] = 0x49
            tiff[2] = 0x2A
            tiff[3] = 0x00
        } else {
            tiff[0] = 0x4D
            tiff[1] = 0x4D
            tiff[2] = 0x00
            tiff[3] = 0x2A
        }
    }
    let record = ExifDecoder.decode(tiff: tiff)
    invariant(record.diagnostics.count <= 100, "\(record.diagnostics.count) EXIF diagnostics")
    return 0
}
