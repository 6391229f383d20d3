/// The outer chunk of a RIFF file (WebP, AVI) [RIFF: "RIFF", u32 little-endian size of what
/// follows, form type]: where its chunks end. A size that claims more than the file holds
/// marks the file as cut short and is clamped to the file.
enum RIFFForm {
    static func end(_ reader: BoundedReader, domain: String, into out: inout ContainerFindings) throws(ReadFailure) -> Int64 {
        var riff = ByteReader(try reader.read(at: 4, count: 4))
        let formEnd = Int64(riff.u32le() ?? 0) + 8
        if formEnd > reader.size {
            out.truncated = true
            out.note(domain, "RIFF size \(formEnd) exceeds the file size \(reader.size)")
        }
        return min(formEnd, reader.size)
    }
}
