/// An XMP sidecar [XMP Part 3 2.3]: a whole XMP packet in a file of its own. Read by the same
/// namespace-aware scan as embedded packets (`XMPReader`), so `exif:DateTimeOriginal`,
/// `photoshop:DateCreated` and `xmp:CreateDate` count whatever prefix the writer bound (darktable
/// writes `exif:` and `xmp:`, Lightroom `photoshop:` too), each with the offset written in it.
enum XMPSidecar {
    static func read(_ f: SidecarFile) -> SidecarEvidence {
        var e = SidecarEvidence()
        guard looksLikeXMP(f.bytes) else {
            e.diagnostics.append(Diagnostic("sidecar", "\(f.path) is not an XMP packet; skipped"))
            return e
        }
        let record = XMPReader.read([f.bytes])
        e.clues = record.dateClues.map { DateClue(.sidecarXMP, $0.value, origin: f.path) }
        e.location = record.location
        if e.clues.isEmpty, e.location == nil {
            e.diagnostics.append(Diagnostic("sidecar", "\(f.path) states no date and no position"))
        }
        return e
    }

    /// An XMP sidecar holds `x:xmpmeta` or at least an `rdf:RDF` element [XMP Part 1 7.3].
    static func looksLikeXMP(_ b: [UInt8]) -> Bool {
        XMPReader.find(Array("xmpmeta".utf8), in: b) != nil || XMPReader.find(Array("rdf:RDF".utf8), in: b) != nil
    }
}
