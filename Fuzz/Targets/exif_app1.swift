// Fuzz target 'exif_app1' (see docs/fuzzing.md).
@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    // The same payload as a JPEG carries it: SOI, APP1 "Exif\0\0" + payload (cut to the 16-bit
    // segment length), a frame header, SOS, EOI. Then the whole pipeline.
    let payload = Array(bytes.prefix(0xFFFF - 2 - 6))
    let length = payload.count + 2 + 6
    var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]
    jpeg += ExifHeader.prefix + payload
    jpeg += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x10, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00]
    jpeg += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0xFF, 0xD9]
    let asset = Inspector.inspect(MemoryByteSource(jpeg), path: "fuzz.jpg")
    invariant(asset.format == .jpeg && asset.error == nil, "the wrapper JPEG was not read as one")
    return 0
}
