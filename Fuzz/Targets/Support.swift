// Shared by every fuzz target (compiled into each binary). See docs/fuzzing.md.
@testable import PhotoMetaCore

/// The input as an array (the fuzzer's buffer is only valid during the call).
@inline(__always)
func fuzzBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}

/// A broken invariant is a finding: trap with a message libFuzzer saves with the input.
func invariant(_ ok: @autoclosure () -> Bool, _ what: @autoclosure () -> String) {
    if !ok() { fatalError("fuzz invariant broken: \(what())") }
}

/// What every container reader must guarantee whatever the input: bounded reads and bounded
/// output, payloads in the shape the next stage expects.
func checkPayloads(_ p: ContainerFindings, reader: BoundedReader) {
    invariant(reader.bytesRead <= Limits.readBudgetPerFile, "read \(reader.bytesRead) bytes, over the budget")
    if let exif = p.exif {
        invariant(exif.count <= 0xFFFE, "EXIF payload of \(exif.count) bytes handed on")
        invariant(exif.count >= 4 && (exif[0] == 0x49 || exif[0] == 0x4D), "EXIF payload does not start with a TIFF header")
    }
    for packet in p.xmp {
        invariant(packet.count <= Limits.xmpPayloadMax, "XMP packet of \(packet.count) bytes handed on")
    }
    invariant(p.xmp.count <= Limits.structureCountMax, "\(p.xmp.count) XMP packets")
    invariant(p.diagnostics.count <= 4 * Limits.structureCountMax, "\(p.diagnostics.count) diagnostics")
    // Evidence is a few typed values, whatever the input: one stream per first IFD, one date
    // per source and kind (a HEIF sequence adds its movie's two).
    invariant(p.exifStreams.count <= 3, "\(p.exifStreams.count) EXIF streams")
    invariant(p.dates.count <= 4, "\(p.dates.count) date clues")
    if let w = p.width { invariant(w >= 0, "negative width \(w)") }
    if let h = p.height { invariant(h >= 0, "negative height \(h)") }
}

/// Runs one container reader over the input, then the payload decoders on what it found.
func fuzzContainer(_ bytes: [UInt8], _ read: (BoundedReader) -> ContainerFindings) {
    let reader = BoundedReader(MemoryByteSource(bytes))
    let p = read(reader)
    checkPayloads(p, reader: reader)
    if let exif = p.exif { _ = ExifDecoder.decode(tiff: exif) }
    _ = XMPReader.read(p.xmp)
}
