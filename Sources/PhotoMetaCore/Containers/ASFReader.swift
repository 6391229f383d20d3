/// Walks an Advanced Systems Format file [Microsoft, ASF Specification rev. 01.20.03] (`.wmv`,
/// `.asf`: Windows Movie Maker, older Windows phones and cameras): the Header Object's children
/// [ASF 3.1], of which the File Properties Object [ASF 3.2] gives the creation date and the
/// duration and each Stream Properties Object [ASF 3.3] says whether the file has pictures and,
/// for the first video stream, their size. The Data Object [ASF 5.1], which holds the packets,
/// is never read: its stated size only tells whether the file is all there.
///
/// Objects are a GUID (16 bytes, its first three fields little-endian), a u64 little-endian size
/// that counts the 24-byte header, then data. Every size is checked against the file's.
package enum ASFReader {
    /// [ASF 10.1] The Header Object's GUID, 75B22630-668E-11CF-A6D9-00AA0062CE6C, as stored.
    package static let magic: [UInt8] = [
        0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C,
    ]

    /// Object and stream-type GUIDs, as stored [ASF 10.1, 10.2, 10.4].
    enum GUID {
        /// 75B22636-668E-11CF-A6D9-00AA0062CE6C
        static let data: [UInt8] = [
            0x36, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C,
        ]
        /// 8CABDCA1-A947-11CF-8EE4-00C00C205365
        static let fileProperties: [UInt8] = [
            0xA1, 0xDC, 0xAB, 0x8C, 0x47, 0xA9, 0xCF, 0x11, 0x8E, 0xE4, 0x00, 0xC0, 0x0C, 0x20, 0x53, 0x65,
        ]
        /// B7DC0791-A9B7-11CF-8EE6-00C00C205365
        static let streamProperties: [UInt8] = [
            0x91, 0x07, 0xDC, 0xB7, 0xB7, 0xA9, 0xCF, 0x11, 0x8E, 0xE6, 0x00, 0xC0, 0x0C, 0x20, 0x53, 0x65,
        ]
        /// BC19EFC0-5B4D-11CF-A8FD-00805F5C442B
        static let videoMedia: [UInt8] = [
            0xC0, 0xEF, 0x19, 0xBC, 0x4D, 0x5B, 0xCF, 0x11, 0xA8, 0xFD, 0x00, 0x80, 0x5F, 0x5C, 0x44, 0x2B,
        ]
        /// F8699E40-5B4D-11CF-A8FD-00805F5C442B
        static let audioMedia: [UInt8] = [
            0x40, 0x9E, 0x69, 0xF8, 0x4D, 0x5B, 0xCF, 0x11, 0xA8, 0xFD, 0x00, 0x80, 0x5F, 0x5C, 0x44, 0x2B,
        ]
        /// The index objects that may follow the Data Object [ASF 6, 10.1]: Simple Index
        /// (33000890-E5B1-11CF-89F4-00A0C90349CB), Index (D6E229D3-35DA-11D1-9034-00A0C90349BE),
        /// Media Object Index (FEB103F8-12AD-4C64-840F-2A1D2F7AD48C), Timecode Index
        /// (3CB73FD0-0C4A-4803-953D-EDF7B6228F0C).
        static let indexes: [[UInt8]] = [
            [0x90, 0x08, 0x00, 0x33, 0xB1, 0xE5, 0xCF, 0x11, 0x89, 0xF4, 0x00, 0xA0, 0xC9, 0x03, 0x49, 0xCB],
            [0xD3, 0x29, 0xE2, 0xD6, 0xDA, 0x35, 0xD1, 0x11, 0x90, 0x34, 0x00, 0xA0, 0xC9, 0x03, 0x49, 0xBE],
            [0xF8, 0x03, 0xB1, 0xFE, 0xAD, 0x12, 0x64, 0x4C, 0x84, 0x0F, 0x2A, 0x1D, 0x2F, 0x7A, 0xD4, 0x8C],
            [0xD0, 0x3F, 0xB7, 0x3C, 0x4A, 0x0C, 0x03, 0x48, 0x95, 0x3D, 0xED, 0xF7, 0xB6, 0x22, 0x8F, 0x0C],
        ]
    }

    /// [ASF 5.1] The Data Object's own fields: its header, File ID, Total Data Packets, Reserved.
    static let dataObjectFieldsLength: UInt64 = 50

    /// An object's GUID and size.
    static let objectHeaderLength: Int64 = 24
    /// FILETIME counts 100-nanosecond intervals from 1601-01-01T00:00:00Z; this many seconds
    /// lie between that and 1970-01-01.
    static let fileTimeEpochOffset: Int64 = 11_644_473_600

    /// What the walk of the Header Object keeps between objects.
    struct HeaderWalk {
        var video = 0
        var audio = 0
        var fileProperties = false
        /// The File Properties' Broadcast flag: its sizes are not valid (a live stream, ffmpeg's
        /// output to a pipe).
        var broadcast = false
    }

    package static func read(_ reader: BoundedReader) -> ContainerFindings {
        var out = ContainerFindings(format: .asf)
        let header: [UInt8]
        do throws(ReadFailure) {
            header = try reader.read(at: 0, count: 30)
        } catch {
            out.note("asf", error, while: "reading the Header Object")
            return out
        }
        // [ASF 3.1] The Header Object: GUID, size, the number of objects it holds, two reserved bytes.
        var h = ByteReader(header, offset: 16)
        guard let headerSize = u64le(&h), headerSize >= 30, headerSize <= UInt64(Int64.max) else {
            out.note("asf", "the Header Object's size is smaller than its own fields")
            return out
        }
        let headerEnd = Int64(headerSize)
        if headerEnd > reader.size {
            out.truncated = true
            out.note("asf", "the Header Object (\(headerEnd) bytes) runs past the end of the file")
        }
        var walk = HeaderWalk()
        var pos: Int64 = 30
        var objects = 0
        while pos + objectHeaderLength <= min(headerEnd, reader.size) {
            objects += 1
            guard objects <= Limits.structureCountMax, let o = try? reader.read(at: pos, count: 24) else { break }
            var r = ByteReader(o, offset: 16)
            guard let size = u64le(&r), size >= UInt64(objectHeaderLength), size <= UInt64(headerEnd - pos) else {
                out.note("asf", "an object at offset \(pos) has a size outside its Header Object; stopped")
                break
            }
            let guid = Array(o[0..<16])
            if guid == GUID.fileProperties, !walk.fileProperties {
                // One per file [ASF 3.2]; a second is not another date.
                walk.fileProperties = true
                walk.broadcast = readFileProperties(reader, at: pos, size: Int64(size), into: &out)
            } else if guid == GUID.streamProperties {
                readStreamProperties(reader, at: pos, size: Int64(size), walk: &walk, into: &out)
            }
            pos += Int64(size)
        }
        out.audioOnly = walk.audio > 0 && walk.video == 0
        checkData(reader, at: headerEnd, broadcast: walk.broadcast, into: &out)
        return out
    }

    /// [ASF 3.2] File ID (16), File Size, Creation Date, Data Packets Count, Play Duration, Send
    /// Duration (u64 each), Preroll (u64, milliseconds), Flags (u32). With the Broadcast flag
    /// (bit 0) set, the sizes, the date and the durations are not valid: true then.
    static func readFileProperties(_ reader: BoundedReader, at offset: Int64, size: Int64, into out: inout ContainerFindings)
        -> Bool
    {
        guard size >= 24 + 68 else {
            out.note("asf", "a File Properties Object of \(size) bytes is too short")
            return false
        }
        guard let b = read(reader, at: offset + 24, count: 68, what: "the File Properties Object", into: &out) else {
            return false
        }
        var r = ByteReader(b, offset: 24)
        guard let created = u64le(&r), r.skip(8), let play = u64le(&r), r.skip(8), let preroll = u64le(&r),
            let flags = r.u32le()
        else { return false }
        guard flags & 1 == 0 else { return true }
        // Zero, or the FILETIME of 1970-01-01T00:00:00Z (ffmpeg's when it was not told the
        // creation time), means unset.
        if created > 0, created != UInt64(fileTimeEpochOffset) * 10_000_000 {
            out.dates.append(DateClue(.asfCreationDate, instant(fileTime: created)))
        }
        // The play duration counts the preroll, which is not played [ASF 3.2, Preroll]; both
        // in 100-nanosecond units, subtracted as integers (no 2.0420000000000003).
        let (prerollTicks, overflow) = preroll.multipliedReportingOverflow(by: 10_000)
        if !overflow, play > prerollTicks, play - prerollTicks < 10_000_000 * 1_000_000_000 {
            out.evidence[.asfFileProperties, default: FieldEvidence()].durationSeconds =
                Double(play - prerollTicks) / 10_000_000
        }
        return false
    }

    /// [ASF 3.3] Stream Type (GUID), Error Correction Type (GUID), Time Offset (u64),
    /// Type-Specific Data Length and Error Correction Data Length (u32 each), Flags (u16),
    /// Reserved (u32), then the type-specific data; a video stream's starts with its Encoded
    /// Image Width and Height (u32 each) [ASF 9.2].
    static func readStreamProperties(
        _ reader: BoundedReader, at offset: Int64, size: Int64, walk: inout HeaderWalk, into out: inout ContainerFindings
    ) {
        guard size >= 24 + 54 else {
            out.note("asf", "a Stream Properties Object of \(size) bytes is too short")
            return
        }
        guard
            let b = read(
                reader, at: offset + 24, count: Int(min(size - 24, 54 + 8)), what: "a Stream Properties Object", into: &out)
        else { return }
        let type = Array(b[0..<16])
        if type == GUID.audioMedia { walk.audio += 1 }
        guard type == GUID.videoMedia else { return }
        walk.video += 1
        guard walk.video == 1, b.count >= 62 else { return }
        var r = ByteReader(b, offset: 54)
        if let w = r.u32le(), let h = r.u32le(), w > 0, h > 0, w <= 1 << 20, h <= 1 << 20 {
            out.width = Int(w)
            out.height = Int(h)
        }
    }

    /// [ASF 5.1] The Data Object follows the Header Object: a stated size that runs past the end
    /// means the file is cut short. A broadcast's size is not valid, and is not judged; a writer
    /// that could seek back leaves its own fields' 50 bytes there until it finishes, so that
    /// size with packets after it is a recording not finished (0: not known).
    static func checkData(_ reader: BoundedReader, at offset: Int64, broadcast: Bool, into out: inout ContainerFindings) {
        guard offset < reader.size else {
            if offset == reader.size {
                out.truncated = true
                out.note("asf", "the file ends after its Header Object, before its Data Object")
            }
            return
        }
        guard let o = try? reader.readAvailable(at: offset, count: 24), o.count == 24 else {
            out.truncated = true
            out.note("asf", "the file ends inside the Data Object's header")
            return
        }
        guard Array(o[0..<16]) == GUID.data else {
            out.note("asf", "no Data Object after the Header Object")
            return
        }
        var r = ByteReader(o, offset: 16)
        guard !broadcast, let size = u64le(&r), size > 0 else { return }
        guard size >= dataObjectFieldsLength else {
            out.note("asf", "the Data Object's size (\(size) bytes) is smaller than its own fields")
            return
        }
        if size == dataObjectFieldsLength, offset + Int64(size) < reader.size, !startsIndex(reader, at: offset + Int64(size)) {
            out.truncated = true
            out.note("asf", "the Data Object's size was never written: a recording not finished")
            return
        }
        if size > UInt64(reader.size - offset) {
            out.truncated = true
            out.note("asf", "the Data Object (\(size) bytes) runs past the end of the file")
            return
        }
        checkIndexes(reader, at: offset + Int64(size), into: &out)
    }

    /// [ASF 6] The index objects after the Data Object (a Simple Index Object for each video
    /// stream, an Index Object): one that runs past the end means the file was cut there.
    static func checkIndexes(_ reader: BoundedReader, at start: Int64, into out: inout ContainerFindings) {
        var pos = start
        for _ in 0..<8 {
            guard pos < reader.size else { return }
            guard let o = try? reader.readAvailable(at: pos, count: 24), o.count == 24 else {
                out.truncated = true
                out.note("asf", "the file ends inside the header of the object at offset \(pos)")
                return
            }
            // Something else after the data (a writer's own object, padding) is not judged.
            guard GUID.indexes.contains(Array(o[0..<16])) else { return }
            var r = ByteReader(o, offset: 16)
            guard let size = u64le(&r), size >= UInt64(objectHeaderLength) else { return }
            guard size <= UInt64(reader.size - pos) else {
                out.truncated = true
                out.note("asf", "the object at offset \(pos) (\(size) bytes) runs past the end of the file")
                return
            }
            pos += Int64(size)
        }
    }

    /// Whether an index object starts at `offset`.
    static func startsIndex(_ reader: BoundedReader, at offset: Int64) -> Bool {
        guard let g = try? reader.readAvailable(at: offset, count: 16), g.count == 16 else { return false }
        return GUID.indexes.contains(g)
    }

    /// [ASF 3.2, Creation Date] A FILETIME: 100-nanosecond intervals since 1601 (UTC).
    static func instant(fileTime: UInt64) -> DateClue.Value {
        let (seconds, rest) = fileTime.quotientAndRemainder(dividingBy: 10_000_000)
        let unix = Int64(seconds) - fileTimeEpochOffset
        guard unix >= 0 else { return .unusable(reason: "asf.CreationDate is before 1970; skipped") }
        let nano = Int(rest) * 100
        guard
            let utc = LocalDateTime(
                secondsAsIfUTC: unix, nanosecond: nano, fractionDigits: LocalDateTime.fractionDigits(nanosecond: nano))
        else { return .unusable(reason: "asf.CreationDate is out of range; skipped") }
        return .instant(utc: utc, caveat: nil)
    }

    /// `count` bytes at `offset`, or nil with the failure noted (a cut file is `truncated`).
    static func read(
        _ reader: BoundedReader, at offset: Int64, count: Int, what: String, into out: inout ContainerFindings
    ) -> [UInt8]? {
        do throws(ReadFailure) {
            return try reader.read(at: offset, count: count)
        } catch {
            out.note("asf", error, while: "reading \(what)")
            return nil
        }
    }

    /// A u64 little-endian, as two u32s (ByteReader reads u64 big-endian only).
    static func u64le(_ r: inout ByteReader) -> UInt64? {
        guard let low = r.u32le(), let high = r.u32le() else { return nil }
        return UInt64(high) << 32 | UInt64(low)
    }
}
