/// What a Google Motion Photo's XMP says [Motion Photo format 1.0; the older "MicroVideo"
/// properties of Google Camera before it]: whether the file is one, and where its video lies,
/// as the container directory's items (each appended after the primary image, in order) or as
/// the older `MicroVideoOffset` (the video's length, counted back from the end of the file).
package struct MotionPhotoXMP: Sendable, Equatable {
    /// One `Container:Directory` item: its `Item:Semantic` (`Primary`, `MotionPhoto`,
    /// `GainMap`...), `Item:Mime`, `Item:Length` and `Item:Padding` (bytes after it).
    package struct Item: Sendable, Equatable {
        package var semantic: String?
        package var mime: String?
        package var length: Int64?
        package var padding: Int64?
    }

    /// `Camera:MotionPhoto` (or `GCamera:MotionPhoto`): 1 for a Motion Photo.
    package var motionPhoto: Int64?
    /// `GCamera:MicroVideo`: 1 for the older form, with `GCamera:MicroVideoOffset`.
    package var microVideo: Int64?
    package var microVideoOffset: Int64?
    package var items: [Item] = []

    /// Most directory items read (phones write two or three).
    static let itemsMax = 16

    /// The first packet that says anything of the above; nil when none does.
    package static func read(_ packets: [[UInt8]]) -> MotionPhotoXMP? {
        for packet in packets {
            let bytes = packet.count > Limits.xmpPayloadMax ? Array(packet.prefix(Limits.xmpPayloadMax)) : packet
            let prefixes = XMPReader.prefixesByNamespace(in: bytes)
            func names(_ ns: XMPReader.Namespace) -> [String] {
                prefixes[ns, default: []] + [ns.conventionalPrefix] + (ns == .googleCamera ? ["Camera"] : [])
            }
            func number(_ ns: XMPReader.Namespace, _ property: String, in b: [UInt8]) -> Int64? {
                for p in names(ns) {
                    if let v = XMPReader.value(of: p + ":" + property, in: b) { return Int64(v) }
                }
                return nil
            }
            var found = MotionPhotoXMP()
            found.motionPhoto = number(.googleCamera, "MotionPhoto", in: bytes)
            found.microVideo = number(.googleCamera, "MicroVideo", in: bytes)
            found.microVideoOffset = number(.googleCamera, "MicroVideoOffset", in: bytes)
            for span in itemSpans(bytes, prefixes: names(.googleContainer)) {
                func text(_ property: String) -> String? {
                    names(.googleItem).lazy.compactMap { XMPReader.value(of: $0 + ":" + property, in: span) }.first
                }
                found.items.append(
                    Item(
                        semantic: text("Semantic"), mime: text("Mime"), length: text("Length").flatMap { Int64($0) },
                        padding: text("Padding").flatMap { Int64($0) }))
            }
            if found != MotionPhotoXMP() { return found }
        }
        return nil
    }

    /// The bytes of each `<P:Item .../>` or `<P:Item ...>...</P:Item>` element, in order, for
    /// the first container prefix that has any.
    static func itemSpans(_ b: [UInt8], prefixes: [String]) -> [[UInt8]] {
        for prefix in prefixes {
            let open = Array(("<" + prefix + ":Item").utf8)
            let close = Array(("</" + prefix + ":Item>").utf8)
            var spans: [[UInt8]] = []
            var from = 0
            while spans.count < itemsMax, let i = XMPReader.find(open, in: b, from: from) {
                from = i + open.count
                guard from < b.count, XMPReader.isSpace(b[from]) || b[from] == 0x2F || b[from] == 0x3E else { continue }
                guard let tagEnd = b[from...].firstIndex(of: 0x3E) else { break }
                var end = tagEnd + 1
                if b[tagEnd - 1] != 0x2F, let c = XMPReader.find(close, in: b, from: tagEnd) { end = c + close.count }
                // A leading space, so the first attribute is found as `value(of:)` expects.
                spans.append([0x20] + Array(b[from..<end]))
                from = end
            }
            if !spans.isEmpty { return spans }
        }
        return []
    }
}
