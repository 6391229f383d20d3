/// Pulls a handful of properties out of an XMP packet [XMP part 1, 7.9] without a full RDF
/// parser: each property may be written as an attribute (`exif:DateTimeOriginal="..."`) or as an
/// element (`<exif:DateTimeOriginal>...</exif:DateTimeOriginal>`, possibly wrapping an
/// `rdf:Alt` / `rdf:li` for language alternatives such as UserComment).
///
/// Works on bytes in linear passes (no `String` searching), so a hostile megabyte of near
/// matches or entities costs milliseconds.
///
/// Properties are found by namespace, not by prefix [XMP part 1, 7.2; XML Namespaces 1.0, 3]:
/// a prefix is only a local name for a URI, and writers differ (old Adobe software binds the
/// basic schema to `xap:`, some tools to `xmpBasic:` or `ns1:`). Every `xmlns:P="URI"` in the
/// packet is collected, and each property is looked up under every prefix bound to its URI,
/// then under the conventional prefix (for fragments whose declarations were cut off).
package enum XMPReader {
    /// The namespaces read, with the prefix conventionally bound to each.
    enum Namespace: String, CaseIterable {
        case exif = "http://ns.adobe.com/exif/1.0/"
        case photoshop = "http://ns.adobe.com/photoshop/1.0/"
        case basic = "http://ns.adobe.com/xap/1.0/"
        case tiff = "http://ns.adobe.com/tiff/1.0/"
        /// Google's camera schema (Motion Photos): `Camera:` in the current specification,
        /// `GCamera:` in older files [Motion Photo format 1.0, "Camera metadata"].
        case googleCamera = "http://ns.google.com/photos/1.0/camera/"
        /// Google's container schema and its items [Motion Photo format 1.0, "Container"].
        case googleContainer = "http://ns.google.com/photos/1.0/container/"
        case googleItem = "http://ns.google.com/photos/1.0/container/item/"
        /// IPTC Extension [IPTC Photo Metadata Standard 2019.1]: only to know where its
        /// `LocationShown` structures lie.
        case iptcExtension = "http://iptc.org/std/Iptc4xmpExt/2008-02-29/"

        var conventionalPrefix: String {
            switch self {
            case .exif: "exif"
            case .photoshop: "photoshop"
            case .basic: "xmp"
            case .tiff: "tiff"
            case .googleCamera: "GCamera"
            case .googleContainer: "Container"
            case .googleItem: "Item"
            case .iptcExtension: "Iptc4xmpExt"
            }
        }
    }

    package static func read(_ packets: [[UInt8]]) -> XMPRecord {
        var record = XMPRecord()
        for packet in packets {
            let bytes = packet.count > Limits.xmpPayloadMax ? Array(packet.prefix(Limits.xmpPayloadMax)) : packet
            let prefixes = prefixesByNamespace(in: bytes)
            func value(_ ns: Namespace, _ property: String) -> String? {
                for prefix in prefixes[ns, default: []] + [ns.conventionalPrefix] {
                    if let v = XMPReader.value(of: prefix + ":" + property, in: bytes) { return v }
                }
                return nil
            }
            record.dateTimeOriginal = record.dateTimeOriginal ?? value(.exif, "DateTimeOriginal")
            record.dateCreated = record.dateCreated ?? value(.photoshop, "DateCreated")
            record.createDate = record.createDate ?? value(.basic, "CreateDate")
            record.gpsTimeStamp = record.gpsTimeStamp ?? value(.exif, "GPSTimeStamp")
            record.userComment = record.userComment ?? value(.exif, "UserComment")
            record.make = record.make ?? value(.tiff, "Make")
            record.model = record.model ?? value(.tiff, "Model")
            // [IPTC Photo Metadata 2019.1, Location Shown] Places the picture shows carry their own
            // exif:GPSLatitude inside Iptc4xmpExt:LocationShown; none of them is where it was taken.
            let shown = (prefixes[.iptcExtension, default: []] + ["Iptc4xmpExt"]).flatMap {
                XMPReader.elementRanges($0 + ":LocationShown", in: bytes)
            }.sorted { $0.lowerBound < $1.lowerBound }
            func position(_ property: String) -> String? {
                for prefix in prefixes[.exif, default: []] + ["exif"] {
                    if let v = XMPReader.value(of: prefix + ":" + property, in: bytes, skipping: shown) { return v }
                }
                return nil
            }
            record.gpsLatitude = record.gpsLatitude ?? position("GPSLatitude")
            record.gpsLongitude = record.gpsLongitude ?? position("GPSLongitude")
            if record.orientation == nil, let o = value(.tiff, "Orientation").flatMap({ Int($0) }), (1...8).contains(o) {
                record.orientation = o
            }
        }
        return record
    }

    /// Every prefix the packet binds to a namespace read here, other than the conventional one
    /// (which is always tried), in the order declared; at most a few per namespace, so a packet
    /// of a million declarations costs one pass and not a million lookups.
    static func prefixesByNamespace(in b: [UInt8]) -> [Namespace: [String]] {
        let declaration = Array("xmlns:".utf8)
        let uris = Namespace.allCases.map { (Array($0.rawValue.utf8), $0) }
        var found: [Namespace: [String]] = [:]
        var from = 0
        while let i = find(declaration, in: b, from: from) {
            from = i + declaration.count
            guard i == 0 || isSpace(b[i - 1]) else { continue }
            var j = from
            while j < b.count, isNameByte(b[j]) { j += 1 }
            guard j > from, j - from <= 64 else { continue }
            let prefix = String(decoding: b[from..<j], as: UTF8.self)
            while j < b.count, isSpace(b[j]) { j += 1 }
            guard j < b.count, b[j] == 0x3D else { continue }
            j += 1
            while j < b.count, isSpace(b[j]) { j += 1 }
            guard j < b.count, b[j] == 0x22 || b[j] == 0x27 else { continue }
            let quote = b[j]
            for (uri, ns) in uris where b.matches(uri, at: j + 1) && j + 1 + uri.count < b.count && b[j + 1 + uri.count] == quote
            {
                if prefix != ns.conventionalPrefix, found[ns, default: []].count < 4, !found[ns, default: []].contains(prefix) {
                    found[ns, default: []].append(prefix)
                }
            }
        }
        return found
    }

    /// An XML name character as prefixes use them (ASCII letters, digits, `-`, `_`, `.`).
    static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F || c == 0x2E
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// The property's text value, entity-decoded and cleaned; nil when absent or empty.
    /// `skipping`: ranges in order (`elementRanges`) whose matches do not count; walked along
    /// with the matches, so a hostile packet of both costs one pass.
    static func value(of name: String, in b: [UInt8], skipping: [Range<Int>] = []) -> String? {
        let n = Array(name.utf8)
        var from = 0
        var k = 0
        while let i = find(n, in: b, from: from) {
            from = i + n.count
            while k < skipping.count, skipping[k].upperBound <= i { k += 1 }
            if k < skipping.count, skipping[k].contains(i) { continue }
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

    /// Where each `<name ...>...</name>` element lies (start tag to end tag; a self-closing one
    /// holds nothing), in one pass.
    static func elementRanges(_ name: String, in b: [UInt8]) -> [Range<Int>] {
        let open = [0x3C] + Array(name.utf8)
        let close = [0x3C, 0x2F] + Array(name.utf8)
        var ranges: [Range<Int>] = []
        var from = 0
        while let i = find(open, in: b, from: from) {
            from = i + open.count
            guard from < b.count, b[from] == 0x3E || isSpace(b[from]),
                let tagEnd = b[from...].firstIndex(of: 0x3E), b[tagEnd - 1] != 0x2F
            else { continue }
            let end = find(close, in: b, from: tagEnd) ?? b.count
            ranges.append(i..<end)
            from = end
        }
        return ranges
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
