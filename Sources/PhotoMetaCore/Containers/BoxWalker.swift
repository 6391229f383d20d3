/// One ISO BMFF box header [ISO 14496-12 4.2].
package struct BoxHeader: Sendable, Equatable {
    package let type: String
    /// The type as a big-endian number: ilst items are numbered, udta atoms start with ©.
    package let rawType: UInt32
    /// Offset of the box's first byte (its size field).
    package let start: Int64
    /// Offset of the first byte after the header (after `largesize` and `usertype` if present).
    package let dataStart: Int64
    /// Offset one past the last byte, clamped to the parent.
    package let end: Int64

    package var dataLength: Int64 { end - dataStart }
}

/// Lists the boxes inside a byte range. Shared by the HEIF and QuickTime readers; it never
/// reads box bodies, only headers, so a multi-gigabyte `mdat` costs 16 bytes.
enum BoxWalker {
    /// The child boxes of `[start, end)`. A box that claims more than its parent holds is
    /// clamped and noted; a size below the header length stops the walk ("box size too small").
    static func children(
        _ reader: BoundedReader, from start: Int64, to end: Int64, domain: String,
        into out: inout ContainerFindings
    ) -> [BoxHeader] {
        var boxes: [BoxHeader] = []
        var pos = start
        let end = min(end, reader.size)
        while pos + 8 <= end {
            if boxes.count >= Limits.structureCountMax {
                out.note(domain, "more than \(Limits.structureCountMax) boxes; stopped")
                break
            }
            let head: [UInt8]
            do throws(ReadFailure) {
                head = try reader.readAvailable(at: pos, count: 16)
            } catch {
                out.note(domain, error, while: "reading box header at offset \(pos)")
                break
            }
            var r = ByteReader(head)
            guard let size32 = r.u32be(), let rawType = r.u32be() else { break }
            let type = FourCC.string(Array(head[4..<8]))
            var headerLength: Int64 = 8
            var size = Int64(size32)
            if size32 == 1 {
                // 64-bit largesize follows the type.
                guard let large = r.u64be(), large <= UInt64(Int64.max) else {
                    out.truncated = true
                    out.note(domain, "box '\(type)' at offset \(pos) lacks its 64-bit size")
                    break
                }
                size = Int64(large)
                headerLength = 16
            } else if size32 == 0 {
                // Extends to the end of the enclosing container (only legal last).
                size = end - pos
            }
            if type == "uuid" { headerLength += 16 }
            guard size >= headerLength else {
                out.note(domain, "box '\(type)' at offset \(pos) has size \(size), smaller than its header; stopped")
                break
            }
            // Compared before adding: a 64-bit size near Int64.max must not overflow.
            var boxEnd = size > end - pos ? end + 1 : pos + size
            if boxEnd > end {
                if end == reader.size { out.truncated = true }
                out.note(
                    domain,
                    "box '\(type)' at offset \(pos) claims \(size) bytes, past the end of its \(end == reader.size ? "file" : "parent")"
                )
                boxEnd = end
            }
            boxes.append(
                BoxHeader(type: type, rawType: rawType, start: pos, dataStart: min(pos + headerLength, boxEnd), end: boxEnd))
            pos = boxEnd
        }
        return boxes
    }

    /// Reads a box's body when it is small enough to hold whole.
    static func body(
        _ reader: BoundedReader, _ box: BoxHeader, domain: String,
        into out: inout ContainerFindings
    ) -> [UInt8]? {
        guard box.dataLength <= Int64(Limits.boxPayloadMax) else {
            out.note(domain, "box '\(box.type)' of \(box.dataLength) bytes exceeds \(Limits.boxPayloadMax); skipped")
            return nil
        }
        do throws(ReadFailure) {
            return try reader.read(at: box.dataStart, count: Int(box.dataLength))
        } catch {
            out.note(domain, error, while: "reading box '\(box.type)'")
            return nil
        }
    }
}
