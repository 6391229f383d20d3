/// A JPEG's APP13 segment: Photoshop's image resource blocks, and in resource 0x0404 the IPTC
/// IIM record whose DateCreated (2:55) and TimeCreated (2:60) are a picture's capture date as
/// news agencies, Photoshop before XMP, and many cataloguing tools wrote it.
///
/// Structure only: the blocks and datasets are walked to find the two values, which are
/// handed on as text (`DateClue`, form `.iptc`); the date stage parses them.
enum PhotoshopResources {
    /// "Photoshop 3.0\0", the APP13 identifier [Photoshop File Formats, Image resources].
    static let identifier = Array("Photoshop 3.0\0".utf8)
    /// Resource 0x0404: the IPTC-NAA record [Photoshop File Formats, Image resource IDs].
    static let iptcResource: UInt16 = 0x0404

    /// The IPTC date clue of an APP13 payload, if it holds DateCreated.
    static func iptcDate(app13 payload: [UInt8]) -> DateClue? {
        guard let iptc = iptcRecord(payload) else { return nil }
        let (date, time) = iimDate(iptc)
        guard let date else { return nil }
        return DateClue(.iptcDateCreated, .text(time.map { date + " " + $0 } ?? date, .iptc))
    }

    /// The data of resource 0x0404, walking the blocks [Photoshop File Formats, Image resource
    /// blocks]: signature "8BIM", a 2-byte ID, a Pascal name padded to an even length, a 4-byte
    /// size, the data padded to an even length. Any block that does not fit ends the walk.
    static func iptcRecord(_ payload: [UInt8]) -> [UInt8]? {
        guard payload.starts(with: identifier) else { return nil }
        var r = ByteReader(payload)
        guard r.skip(identifier.count) else { return nil }
        while r.remaining >= 12 {
            guard let signature = r.bytes(4), signature == Array("8BIM".utf8), let id = r.u16be(), let nameLength = r.u8()
            else { return nil }
            // The name's length byte and its characters make an even count.
            let name = Int(nameLength) + (Int(nameLength) % 2 == 0 ? 1 : 0)
            guard r.skip(name), let size32 = r.u32be() else { return nil }
            let size = Int(size32)
            guard size <= r.remaining else { return nil }
            if id == iptcResource { return r.bytes(size) }
            guard r.skip(size) else { return nil }
            if size % 2 == 1 { _ = r.skip(1) }  // the data's pad byte
        }
        return nil
    }

    /// DateCreated and TimeCreated of the IIM application record [IIM 4.1, 1.5.1 standard
    /// datasets; 2:55 `CCYYMMDD`, 2:60 `HHMMSS±HHMM`]: each dataset is 0x1C, its record and
    /// dataset numbers, a 2-byte length and its data. An extended length (its top bit set) is
    /// not one a date needs: the walk stops there.
    static func iimDate(_ record: [UInt8]) -> (date: String?, time: String?) {
        var r = ByteReader(record)
        var date: String?
        var time: String?
        while r.remaining >= 5, date == nil || time == nil {
            guard r.u8() == 0x1C, let recordNumber = r.u8(), let dataset = r.u8(), let length = r.u16be(),
                length & 0x8000 == 0, let data = r.bytes(Int(length))
            else { break }
            guard recordNumber == 2, data.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { continue }
            if dataset == 55, date == nil { date = String(decoding: data, as: UTF8.self) }
            if dataset == 60, time == nil { time = String(decoding: data, as: UTF8.self) }
        }
        return (date, time)
    }
}
