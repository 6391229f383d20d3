/// The item boxes of a HEIF `meta` box, each parsed on its own [ISO 14496-12 8.11, ISO 23008-12
/// 9.3]: references, item info, locations, property associations, and an item's bytes.
extension HEIFReader {
    /// [ISO 14496-12 8.11.12] iref (FullBox): boxes of one reference type each, holding
    /// from_item_ID, reference_count and to_item_IDs (16-bit ids in version 0, 32-bit in 1).
    /// Returns the items that are a `thmb` of another item, with the item they describe.
    static func readThumbnailReferences(_ body: [UInt8]) -> [(thumbnail: UInt32, of: UInt32)] {
        var r = ByteReader(body)
        guard let version = r.u8(), r.skip(3) else { return [] }
        var result: [(UInt32, UInt32)] = []
        var boxes = 0
        while let size = r.u32be(), let type = r.fourCC(), size >= 8, boxes < Limits.structureCountMax {
            boxes += 1
            let end = r.offset + Int(size) - 8
            guard end <= body.count else { break }
            if type == "thmb" {
                var e = ByteReader(Array(body[r.offset..<end]))
                let id: () -> UInt32? = { version == 0 ? e.u16be().map(UInt32.init) : e.u32be() }
                if let from = id(), let count = e.u16be() {
                    for _ in 0..<count {
                        guard let to = id() else { break }
                        result.append((from, to))
                    }
                }
            }
            guard r.skip(end - r.offset) else { break }
        }
        return result
    }

    /// [ISO 14496-12 8.11.6] iinf: entry_count then `infe` boxes.
    static func readItemInfo(_ reader: BoundedReader, _ box: BoxHeader, into out: inout ContainerFindings) -> [UInt32: ItemInfo] {
        guard let head = try? reader.read(at: box.dataStart, count: min(8, Int(box.dataLength))) else { return [:] }
        let countSize: Int64 = head.first == 0 ? 2 : 4
        var items: [UInt32: ItemInfo] = [:]
        for infe in BoxWalker.children(reader, from: box.dataStart + 4 + countSize, to: box.end, domain: "heif", into: &out)
        where infe.type == "infe" {
            guard let b = BoxWalker.body(reader, infe, domain: "heif", into: &out) else { continue }
            var r = ByteReader(b)
            guard let version = r.u8(), r.skip(3) else { continue }
            if version >= 2 {
                guard let id = (version == 2 ? r.u16be().map(UInt32.init) : r.u32be()), r.skip(2),
                    let type = r.fourCC()
                else { continue }
                _ = r.cString()  // item_name
                let contentType = type == "mime" ? r.cString() : nil
                items[id] = ItemInfo(type: type, contentType: contentType)
            } else {
                // Versions 0 and 1 carry no item_type; a content_type names the payload.
                guard let id = r.u16be(), r.skip(2) else { continue }
                _ = r.cString()
                let contentType = r.cString()
                items[UInt32(id)] = ItemInfo(type: "mime", contentType: contentType)
            }
        }
        return items
    }

    /// [ISO 14496-12 8.11.3] iloc.
    static func readLocations(_ b: [UInt8], into out: inout ContainerFindings) -> [UInt32: Location] {
        var r = ByteReader(b)
        guard let version = r.u8(), r.skip(3), let sizes1 = r.u8(), let sizes2 = r.u8() else { return [:] }
        let offsetSize = Int(sizes1 >> 4)
        let lengthSize = Int(sizes1 & 0xF)
        let baseOffsetSize = Int(sizes2 >> 4)
        let indexSize = version >= 1 ? Int(sizes2 & 0xF) : 0
        guard let count = (version < 2 ? r.u16be().map(UInt32.init) : r.u32be()) else { return [:] }
        var result: [UInt32: Location] = [:]
        // With 0-byte offset and length fields an extent costs no input bytes: bound the work by
        // a total count of extents, not by the file's size.
        var extentBudget = Limits.structureCountMax
        for _ in 0..<count {
            guard let id = (version < 2 ? r.u16be().map(UInt32.init) : r.u32be()) else { break }
            var method = 0
            if version >= 1 {
                guard let m = r.u16be() else { break }
                method = Int(m & 0xF)
            }
            guard r.skip(2), let base = r.uintBE(size: baseOffsetSize), let extentCount = r.u16be() else {
                out.note("heif", "iloc entry for item \(id) is cut short")
                break
            }
            var extents: [Extent] = []
            guard Int(extentCount) <= extentBudget else {
                out.note("heif", "iloc lists more than \(Limits.structureCountMax) extents; stopped")
                break
            }
            extentBudget -= Int(extentCount)
            for _ in 0..<extentCount {
                if indexSize > 0 { guard r.uintBE(size: indexSize) != nil else { break } }
                guard let off = r.uintBE(size: offsetSize), let len = r.uintBE(size: lengthSize) else { break }
                extents.append(Extent(offset: off, length: len))
            }
            result[id] = Location(constructionMethod: method, baseOffset: base, extents: extents)
        }
        return result
    }

    /// [ISO 23008-12 9.3.2] ipma: for each item, the 1-based indexes of its properties in ipco.
    static func readAssociations(_ b: [UInt8], into map: inout [UInt32: [Int]]) {
        var r = ByteReader(b)
        guard let version = r.u8(), let flags = r.u24be(), let count = r.u32be() else { return }
        for _ in 0..<count {
            guard let id = (version < 1 ? r.u16be().map(UInt32.init) : r.u32be()), let n = r.u8() else { return }
            var list: [Int] = []
            for _ in 0..<n {
                if flags & 1 != 0 {
                    guard let v = r.u16be() else { return }
                    list.append(Int(v & 0x7FFF))
                } else {
                    guard let v = r.u8() else { return }
                    list.append(Int(v & 0x7F))
                }
            }
            map[id, default: []].append(contentsOf: list)
        }
    }

    /// The item's bytes: its extents concatenated, from the file (method 0) or from `idat` (1).
    static func itemData(
        _ reader: BoundedReader, _ loc: Location, idat: BoxHeader?, cap: Int,
        into out: inout ContainerFindings
    ) -> [UInt8]? {
        var data: [UInt8] = []
        for extent in loc.extents {
            var start: Int64
            switch loc.constructionMethod {
            case 0: start = 0
            case 1:
                guard let idat else {
                    out.note("heif", "item stored in 'idat' but the file has none")
                    return nil
                }
                start = idat.dataStart
            default:
                out.note("heif", "item construction method \(loc.constructionMethod) is not supported")
                return nil
            }
            let (o1, ov1) = UInt64(start).addingReportingOverflow(loc.baseOffset)
            let (offset, ov2) = o1.addingReportingOverflow(extent.offset)
            // Length 0 means "to the end of the file" [ISO 14496-12 8.11.3.3].
            let length =
                extent.length == 0 ? UInt64(max(0, reader.size - Int64(min(offset, UInt64(reader.size))))) : extent.length
            guard !ov1, !ov2, offset <= UInt64(reader.size) else {
                out.truncated = true
                out.note("heif", "item extent points past the end of the file")
                return nil
            }
            var take = length
            if length > UInt64(cap - data.count) {
                take = UInt64(cap - data.count)
                out.note("heif", "item of more than \(cap) bytes cut to \(cap)")
            }
            do throws(ReadFailure) {
                data += try reader.read(at: Int64(offset), count: Int(take))
                if data.count >= cap { break }
            } catch {
                out.note("heif", error, while: "reading item data at offset \(offset)")
                return nil
            }
        }
        return data.isEmpty ? nil : data
    }
}
