// Fuzz target 'previews' (see docs/fuzzing.md): the embedded-preview extraction that
// photometa thumbnail trusts (EXIF IFD1, MPF index, TIFF/SubIFD JPEGs, RAF, HEIF thmb).
@testable import PhotoMetaCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = MemoryByteSource(fuzzBytes(data, size))
    for p in PreviewFinder.previews(source) {
        // What the thumbnailer relies on: a range inside the input, a size from the JPEG's SOF.
        precondition(p.source == .heif || (p.offset > 0 && p.offset + Int64(p.length) <= Int64(size)))
        precondition(p.width > 0 && p.height > 0)
    }
    return 0
}
