/// Walks a Matroska or WebM file [RFC 8794 EBML, RFC 9559 Matroska, WebM Container Guidelines]:
/// the EBML header (its `DocType` says `matroska` or `webm`), then the first `Segment`, whose
/// top-level children are visited in order until the first `Cluster` (the frames, never read):
/// `Info` (`DateUTC`, `TimestampScale`, `Duration`, `WritingApp`) and `Tracks` (the first video
/// track's `PixelWidth`/`PixelHeight`). When a writer put `Info` or `Tracks` after the
/// clusters, the first `SeekHead` says where, and that one element is read.
///
/// Every element's size is checked against its parent's. Only `Segment` and `Cluster` may have
/// an unknown size [RFC 8794 6.2; RFC 9559's schema allows it for those two only]: an unknown-size `Segment` runs to the end of the file, an
/// unknown-size `Cluster` ends the walk, anything else of unknown size is a diagnostic. Depth is
/// bounded by the code: the walk descends only along `Segment/Info`,
/// `Segment/Tracks/TrackEntry/Video` and `Segment/SeekHead/Seek`, and each of those small
/// elements is read whole (at most `Limits.boxPayloadMax` bytes) and walked in memory.
package enum MatroskaReader {
    /// [RFC 8794 11.2.1] The EBML header's ID, the first four bytes of every EBML file.
    package static let magic: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3]

    /// Element IDs [RFC 8794 11.2, RFC 9559 5.1].
    enum ID {
        static let ebml: UInt32 = 0x1A45_DFA3
        static let docType: UInt32 = 0x4282
        static let segment: UInt32 = 0x1853_8067
        static let seekHead: UInt32 = 0x114D_9B74
        static let seek: UInt32 = 0x4DBB
        static let seekID: UInt32 = 0x53AB
        static let seekPosition: UInt32 = 0x53AC
        static let info: UInt32 = 0x1549_A966
        static let timestampScale: UInt32 = 0x2A_D7B1
        static let duration: UInt32 = 0x4489
        static let dateUTC: UInt32 = 0x4461
        static let writingApp: UInt32 = 0x5741
        static let tracks: UInt32 = 0x1654_AE6B
        static let trackEntry: UInt32 = 0xAE
        static let trackType: UInt32 = 0x83
        static let video: UInt32 = 0xE0
        static let pixelWidth: UInt32 = 0xB0
        static let pixelHeight: UInt32 = 0xBA
        static let displayWidth: UInt32 = 0x54B0
        static let displayHeight: UInt32 = 0x54BA
        static let displayUnit: UInt32 = 0x54B2
        static let cluster: UInt32 = 0x1F43_B675
    }

    /// The largest EBML header read (real ones are some 40 bytes).
    static let headerMax = 4096

    /// The `DocType` of the EBML header at the start of `head`, when the header starts there
    /// and the DocType lies within `head` (format detection sees only the first bytes).
    package static func docType(_ head: [UInt8]) -> String? {
        guard head.hasPrefix(magic), let e = try? EBMLElement.decode(head, at: 0, end: head.count) else { return nil }
        let end = e.size.map { min(head.count, e.headerLength + Int(min($0, UInt64(headerMax)))) } ?? head.count
        var children = EBMLChildren(head, from: e.headerLength, to: end)
        while let c = children.next() {
            if c.id == ID.docType { return children.text(c.data) }
        }
        return nil
    }

    /// What the walk keeps between elements.
    struct Walk {
        var out: ContainerFindings
        var segmentStart: Int64 = 0
        var segmentEnd: Int64 = 0
        var sawInfo = false
        var sawTracks = false
        var sawCluster = false
        /// `SeekHead` entries for `Info` and `Tracks`: positions from the segment's data start.
        var seeks: [UInt32: UInt64] = [:]
    }

    package static func read(_ reader: BoundedReader, format: MediaFormat) -> ContainerFindings {
        var walk = Walk(out: ContainerFindings(format: format))
        do throws(ReadFailure) {
            guard let afterHeader = try readEBMLHeader(reader, into: &walk.out) else { return walk.out }
            guard let segment = try findSegment(reader, from: afterHeader, into: &walk.out) else { return walk.out }
            try walkSegment(reader, segment, into: &walk)
            try followSeeks(reader, into: &walk)
        } catch {
            walk.out.note("matroska", error, while: "reading the EBML structure")
        }
        if !walk.sawCluster {
            walk.out.note("matroska", "the segment holds no Cluster (no frames)")
        }
        return walk.out
    }

    /// Reads one element header at `pos`, which must end by `end`; a cut header marks the file
    /// truncated and gives nil.
    static func header(
        _ reader: BoundedReader, at pos: Int64, end: Int64, what: String, into out: inout ContainerFindings
    ) throws(ReadFailure) -> EBMLElement? {
        let bytes = try reader.readAvailable(at: pos, count: Int(min(Int64(EBMLElement.maxHeaderLength), end - pos)))
        do throws(EBMLElement.Problem) {
            return try EBMLElement.decode(bytes, at: 0, end: bytes.count)
        } catch {
            if error == .cut, pos + Int64(bytes.count) >= reader.size { out.truncated = true }
            out.note("matroska", "\(what) at offset \(pos): \(error == .cut ? "header cut short" : "not an EBML element")")
            return nil
        }
    }

    /// [RFC 8794 11.2] The EBML header: its `DocType` checked against the detected format.
    /// Returns the offset after it, nil when the walk cannot go on.
    static func readEBMLHeader(_ reader: BoundedReader, into out: inout ContainerFindings) throws(ReadFailure) -> Int64? {
        guard let e = try header(reader, at: 0, end: reader.size, what: "EBML header", into: &out) else { return nil }
        guard e.id == ID.ebml, let size = e.size, size <= UInt64(headerMax) else {
            out.note("matroska", "the EBML header is missing, of unknown size or over \(headerMax) bytes")
            return nil
        }
        let data = try reader.read(at: Int64(e.headerLength), count: Int(size))
        var children = EBMLChildren(data)
        var docType: String?
        while let c = children.next() {
            if c.id == ID.docType { docType = children.text(c.data) }
        }
        if let problem = children.problem { out.note("matroska", "EBML header: \(problem)") }
        if docType == nil { out.note("matroska", "the EBML header names no DocType; read as Matroska") }
        return Int64(e.headerLength) + Int64(size)
    }

    /// The first `Segment` among the top-level elements after the EBML header [RFC 9559 5.1]:
    /// its data's start and end (the end of the file for an unknown size, or when its size runs
    /// past the file, which marks the file truncated).
    static func findSegment(
        _ reader: BoundedReader, from start: Int64, into out: inout ContainerFindings
    ) throws(ReadFailure) -> Range<Int64>? {
        var pos = start
        var count = 0
        while pos < reader.size, count < Limits.structureCountMax {
            count += 1
            guard let e = try header(reader, at: pos, end: reader.size, what: "top-level element", into: &out) else { return nil }
            let dataStart = pos + Int64(e.headerLength)
            if e.id == ID.segment {
                guard let size = e.size else { return dataStart..<reader.size }
                if size > UInt64(reader.size - dataStart) {
                    out.truncated = true
                    out.note("matroska", "the Segment of \(size) bytes runs past the end of the file")
                    return dataStart..<reader.size
                }
                return dataStart..<dataStart + Int64(size)
            }
            guard let size = e.size, size <= UInt64(reader.size - dataStart) else {
                out.truncated = e.size != nil
                out.note("matroska", "top-level element \(EBMLElement.hex(e.id)) runs past the end of the file or has no size")
                return nil
            }
            pos = dataStart + Int64(size)
        }
        out.note("matroska", "no Segment found")
        return nil
    }
}

extension MatroskaReader {
    /// The segment's top-level elements, in order, until the first `Cluster` [RFC 9559 5.1].
    static func walkSegment(_ reader: BoundedReader, _ segment: Range<Int64>, into walk: inout Walk) throws(ReadFailure) {
        walk.segmentStart = segment.lowerBound
        walk.segmentEnd = segment.upperBound
        var pos = segment.lowerBound
        var count = 0
        while pos < segment.upperBound {
            count += 1
            guard count <= Limits.structureCountMax else {
                walk.out.note("matroska", "more than \(Limits.structureCountMax) elements before the first Cluster; stopped")
                return
            }
            guard let e = try header(reader, at: pos, end: segment.upperBound, what: "Segment element", into: &walk.out)
            else { return }
            let dataStart = pos + Int64(e.headerLength)
            if e.id == ID.cluster {
                // Its frames are not read, but a sized first Cluster that the file cannot hold
                // shows a recording cut short even when the Segment's size is unknown.
                walk.sawCluster = true
                if let size = e.size, size > UInt64(segment.upperBound - dataStart) {
                    if segment.upperBound == reader.size { walk.out.truncated = true }
                    walk.out.note("matroska", "the first Cluster, of \(size) bytes, runs past the Segment")
                }
                return
            }
            guard let size = e.size else {
                walk.out.note(
                    "matroska",
                    "element \(EBMLElement.hex(e.id)) at offset \(pos) has an unknown size, which only a Segment or a Cluster may have; stopped"
                )
                return
            }
            guard size <= UInt64(segment.upperBound - dataStart) else {
                // Past the file: cut short. Past a segment that fits in the file: a size that lies.
                if segment.upperBound == reader.size { walk.out.truncated = true }
                walk.out.note(
                    "matroska", "element \(EBMLElement.hex(e.id)) at offset \(pos) of \(size) bytes runs past the Segment")
                return
            }
            try visit(reader, id: e.id, at: dataStart, size: Int(size), into: &walk)
            pos = dataStart + Int64(size)
        }
    }

    /// Reads `Info`, `Tracks` (the first of each) and the first `SeekHead` whole, within
    /// `Limits.boxPayloadMax`, and walks them in memory.
    static func visit(_ reader: BoundedReader, id: UInt32, at offset: Int64, size: Int, into walk: inout Walk) throws(ReadFailure)
    {
        let wanted =
            (id == ID.info && !walk.sawInfo) || (id == ID.tracks && !walk.sawTracks) || (id == ID.seekHead && walk.seeks.isEmpty)
        guard wanted else { return }
        guard size <= Limits.boxPayloadMax else {
            walk.out.note(
                "matroska", "element \(EBMLElement.hex(id)) of \(size) bytes is over \(Limits.boxPayloadMax) bytes; skipped")
            return
        }
        let data = try reader.read(at: offset, count: size)
        switch id {
        case ID.info:
            walk.sawInfo = true
            MatroskaElements.info(data, into: &walk.out)
        case ID.tracks:
            walk.sawTracks = true
            MatroskaElements.tracks(data, into: &walk.out)
        default:
            walk.seeks = MatroskaElements.seeks(data, wanted: [ID.info, ID.tracks], into: &walk.out)
        }
    }

    /// [RFC 9559 5.1.1] `Info` or `Tracks` not met before the first `Cluster`: read where the
    /// `SeekHead` says (positions count from the segment's data), if it leads to that element.
    static func followSeeks(_ reader: BoundedReader, into walk: inout Walk) throws(ReadFailure) {
        for (id, seen) in [(ID.info, walk.sawInfo), (ID.tracks, walk.sawTracks)] where !seen {
            guard let relative = walk.seeks[id] else { continue }
            let name = id == ID.info ? "Info" : "Tracks"
            guard relative < UInt64(walk.segmentEnd - walk.segmentStart) else {
                walk.out.note("matroska", "the SeekHead places \(name) past the Segment")
                continue
            }
            let pos = walk.segmentStart + Int64(relative)
            guard let e = try header(reader, at: pos, end: walk.segmentEnd, what: name, into: &walk.out) else { continue }
            let dataStart = pos + Int64(e.headerLength)
            guard e.id == id, let size = e.size, size <= UInt64(walk.segmentEnd - dataStart) else {
                walk.out.note("matroska", "the SeekHead entry for \(name) does not lead to a whole \(name) element")
                continue
            }
            try visit(reader, id: id, at: dataStart, size: Int(size), into: &walk)
        }
    }
}
