/// Pulls a handful of properties out of an XMP packet [XMP part 1, 7.9] without a full RDF
/// parser: each property may be written as an attribute (`exif:DateTimeOriginal="..."`) or as an
/// element (`<exif:DateTimeOriginal>...</exif:DateTimeOriginal>`, possibly wrapping an
/// `rdf:Alt` / `rdf:li` for language alternatives such as UserComment).
///
/// Works on bytes in linear passes (no `String` searching), so a hostile megabyte of near
/// matches or entities costs milliseconds. Prefixes are matched as conventionally spelled
/// (exif, photoshop, xmp, tiff); packets that bind these namespaces to other prefixes are rare
/// and are not recognised.
package enum XMPReader {
    package static func read(_ packets: [[UInt8]]) -> XMPRecord {
        var record = XMPRecord()
        for packet in packets {
            let bytes = packet.count > Limits.xmpPayloadMax ? Array(packet.prefix(Limits.xmpPayloadMax)) : packet
            record.dateTimeOriginal = record.dateTimeOriginal ?? value(of: "exif:DateTimeOriginal", in: bytes)
            record.dateCreated = record.dateCreated ?? value(of: "photoshop:DateCreated", in: bytes)
            record.createDate = record.createDate ?? value(of: "xmp:CreateDate", in: bytes)
            record.userComment = record.userComment ?? value(of: "exif:UserComment", in: bytes)
            record.make = record.make ?? value(of: "tiff:Make", in: bytes)
            record.model = record.model ?? value(of: "tiff:Model", in: bytes)
            if record.orientation == nil, let o = value(of: "tiff:Orientation", in: bytes).flatMap({ Int($0) }),
                (1...8).contains(o)
            {
                record.orientation = o
            }
        }
        return record
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// The property's text value, entity-decoded and cleaned; nil when absent or empty.
    static func value(of name: String, in b: [UInt8]) -> String? {
        let n = Array(name.utf8)
        var from = 0
        while let i = find(n, in: b, from: from) {
            from = i + n.count
            let before: UInt8 = i > 0 ? b[i - 1] : 0x20
            var j = i + n.count
            if before == 0x3C {  // "<": element form <name ...>content</name>
                guard j < b.count, b[j] == 0x3E || isSpace(b[j]) else { continue }
                guard let close = b[j...].firstIndex(of: 0x3E) else { return nil }
                if b[close - 1] == 0x2F { continue }  // <name/>: empty, look for another
                guard let end = find([0x3C, 0x2F] + n, in: b, from: close + 1) else { return nil }
                return finish(stripTags(b[(close + 1)..<end]))
            }
            guard isSpace(before) else { continue }
            // Attribute form: name = "value" or 'value'.
            while j < b.count, isSpace(b[j]) { j += 1 }
            guard j < b.count, b[j] == 0x3D else { continue }
            j += 1
            while j < b.count, isSpace(b[j]) { j += 1 }
            guard j < b.count, b[j] == 0x22 || b[j] == 0x27 else { continue }
            let quote = b[j]
            guard let endQuote = b[(j + 1)...].firstIndex(of: quote) else { return nil }
            return finish(Array(b[(j + 1)..<endQuote]))
        }
        return nil
    }

    static func finish(_ bytes: [UInt8]) -> String? {
        let v = Text.clean(String(decoding: decodeEntities(bytes), as: UTF8.self))
        return v.isEmpty ? nil : v
    }

    /// Text content with nested tags (rdf:Alt, rdf:li) removed.
    static func stripTags(_ s: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var inTag = false
        for c in s {
            if c == 0x3C { inTag = true } else if c == 0x3E { inTag = false } else if !inTag { out.append(c) }
        }
        return out
    }

    static let entities: [([UInt8], UInt8)] = [
        (Array("&lt;".utf8), 0x3C), (Array("&gt;".utf8), 0x3E), (Array("&quot;".utf8), 0x22),
        (Array("&apos;".utf8), 0x27), (Array("&amp;".utf8), 0x26),
    ]

    /// The five predefined XML entities, in one pass; anything else is kept as written.
    static func decodeEntities(_ s: [UInt8]) -> [UInt8] {
        guard s.contains(0x26) else { return s }
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = 0
        outer: while i < s.count {
            if s[i] == 0x26 {
                for (entity, char) in entities where s.matches(entity, at: i) {
                    out.append(char)
                    i += entity.count
                    continue outer
                }
            }
            out.append(s[i])
            i += 1
        }
        return out
    }

    /// Where an XMP packet ends inside a larger window: after `<?xpacket end=...?>`, else after
    /// `</x:xmpmeta>`.
    package static func packetEnd(in bytes: [UInt8]) -> Int? {
        if let i = find(Array("<?xpacket end".utf8), in: bytes), let close = find(Array("?>".utf8), in: bytes, from: i) {
            return close + 2
        }
        if let i = find(Array("</x:xmpmeta>".utf8), in: bytes) { return i + 12 }
        return nil
    }

    static func find(_ needle: [UInt8], in hay: [UInt8], from: Int = 0) -> Int? {
        guard let first = needle.first, hay.count >= needle.count, from >= 0, from <= hay.count - needle.count else { return nil }
        var i = from
        let last = hay.count - needle.count
        while i <= last {
            if hay[i] == first, hay.matches(needle, at: i) { return i }
            i += 1
        }
        return nil
    }
}
