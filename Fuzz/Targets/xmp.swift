// Fuzz target 'xmp' (see docs/fuzzing.md); sidecars (an XMP sidecar, a Takeout JSON) join it.
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
    // The same bytes as a sidecar of either kind: a date clue always names its sidecar.
    for kind in [SidecarNames.Kind.xmp, .takeout] {
        let e = SidecarEvidence.read([SidecarFile(kind: kind, path: "s", bytes: bytes)], pictureName: "p.jpg")
        invariant(e.clues.allSatisfy { $0.origin == "s" }, "a sidecar's clue without its origin")
        if let g = e.location {
            invariant(abs(g.latitude) <= 90 && abs(g.longitude) <= 180, "position out of range: \(g)")
        }
    }
    return 0
}
