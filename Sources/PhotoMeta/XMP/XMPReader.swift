import Foundation

/// Pulls a handful of properties out of an XMP packet [XMP part 1, 7.9] without a full RDF
/// parser: each property may be written as an attribute (`exif:DateTimeOriginal="..."`) or as an
/// element (`<exif:DateTimeOriginal>...</exif:DateTimeOriginal>`, possibly wrapping an
/// `rdf:Alt` / `rdf:li` for language alternatives such as UserComment).
///
/// Prefixes are matched as conventionally spelled (exif, photoshop, xmp, tiff); packets that
/// bind these namespaces to other prefixes are rare and are not recognised.
public enum XMPReader {
    public static func read(_ packets: [[UInt8]]) -> XMPRecord {
        var record = XMPRecord()
        for bytes in packets {
            let text = String(decoding: bytes.prefix(Limits.xmpPayloadMax), as: UTF8.self)
            record.dateTimeOriginal = record.dateTimeOriginal ?? value(of: "exif:DateTimeOriginal", in: text)
            record.dateCreated = record.dateCreated ?? value(of: "photoshop:DateCreated", in: text)
            record.createDate = record.createDate ?? value(of: "xmp:CreateDate", in: text)
            record.userComment = record.userComment ?? value(of: "exif:UserComment", in: text)
            record.make = record.make ?? value(of: "tiff:Make", in: text)
            record.model = record.model ?? value(of: "tiff:Model", in: text)
            if record.orientation == nil, let o = value(of: "tiff:Orientation", in: text).flatMap({ Int($0) }),
               (1...8).contains(o) {
                record.orientation = o
            }
        }
        return record
    }

    /// The property's text value, entity-decoded and cleaned; nil when absent or empty.
    static func value(of name: String, in text: String) -> String? {
        // Attribute form: name="value" or name='value'.
        var search = text[...]
        while let r = search.range(of: name) {
            let before = r.lowerBound > text.startIndex ? text[text.index(before: r.lowerBound)] : " "
            var rest = text[r.upperBound...]
            search = rest
            if before == "<" {
                // Element form: <name ...>content</name>
                guard let close = rest.firstIndex(of: ">") else { return nil }
                if text[text.index(before: close)] == "/" { continue }
                rest = text[text.index(after: close)...]
                guard let endTag = rest.range(of: "</" + name) else { return nil }
                let inner = stripTags(String(rest[..<endTag.lowerBound]))
                let v = Text.clean(decodeEntities(inner))
                return v.isEmpty ? nil : v
            }
            guard before.isWhitespace else { continue }
            rest = rest.drop(while: { $0.isWhitespace })
            guard rest.first == "=" else { continue }
            rest = rest.dropFirst().drop(while: { $0.isWhitespace })
            guard let quote = rest.first, quote == "\"" || quote == "'" else { continue }
            rest = rest.dropFirst()
            guard let endQuote = rest.firstIndex(of: quote) else { return nil }
            let v = Text.clean(decodeEntities(String(rest[..<endQuote])))
            return v.isEmpty ? nil : v
        }
        return nil
    }

    /// Text content with nested tags (rdf:Alt, rdf:li) removed.
    static func stripTags(_ s: String) -> String {
        var out = ""
        var inTag = false
        for c in s {
            if c == "<" { inTag = true } else if c == ">" { inTag = false } else if !inTag { out.append(c) }
        }
        return out
    }

    static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        return s.replacingAll("&lt;", "<").replacingAll("&gt;", ">").replacingAll("&quot;", "\"")
            .replacingAll("&apos;", "'").replacingAll("&amp;", "&")
    }

    /// Where an XMP packet ends inside a larger window: after `<?xpacket end=...?>`, else after
    /// `</x:xmpmeta>`.
    public static func packetEnd(in bytes: [UInt8]) -> Int? {
        if let i = find(Array("<?xpacket end".utf8), in: bytes), let close = find(Array("?>".utf8), in: bytes, from: i) {
            return close + 2
        }
        if let i = find(Array("</x:xmpmeta>".utf8), in: bytes) { return i + 12 }
        return nil
    }

    static func find(_ needle: [UInt8], in hay: [UInt8], from: Int = 0) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count, from <= hay.count - needle.count else { return nil }
        var i = from
        while i <= hay.count - needle.count {
            if hay[i] == needle[0], hay.matches(needle, at: i) { return i }
            i += 1
        }
        return nil
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        guard contains(target) else { return self }
        var out = ""
        var rest = self[...]
        while let r = rest.range(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        out += rest
        return out
    }
}
