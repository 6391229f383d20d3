/// Reads the AMF0 values of an FLV script tag [AMF0, Action Message Format 0; FLV 10.1 E.4.4]:
/// the tag holds a name (a string, `onMetaData`) and a value (an ECMA array or an object) whose
/// properties a reader wants. Only the properties one level down are kept, and only as the
/// scalar values a date, a size or a name can be (numbers, booleans, strings, dates); nested
/// objects and arrays (an `onMetaData`'s `keyframes` index) are walked over, not kept.
///
/// Everything is read from bytes already in memory with `ByteReader` (nil instead of a trap);
/// nesting stops at `depthMax`, and every value takes at least its marker's byte, so the walk
/// takes at most one step a byte: a hostile tag costs at most its own bytes once (a long
/// `keyframes` index, some 18 bytes a keyframe, is walked over whole).
package enum ActionMessageFormat {
    /// A property's value, as far as a metadata reader cares.
    package enum Value: Sendable, Equatable {
        /// [AMF0 2.2] An IEEE 754 double, big-endian.
        case number(Double)
        /// [AMF0 2.3]
        case boolean(Bool)
        /// [AMF0 2.4, 2.14] UTF-8 text (a string or a long string).
        case string(String)
        /// [AMF0 2.13] Milliseconds since 1970-01-01T00:00:00Z (its time-zone field is reserved
        /// and ignored).
        case date(milliseconds: Double)
        /// Anything else: null, undefined, a nested object or array, XML, a reference.
        case other
    }

    /// How deep objects and arrays may nest before the value is given up.
    static let depthMax = 16

    /// The script tag's name and the properties of the value that follows it; nil when the tag
    /// does not start with a string name followed by an ECMA array or an object. A tag cut short
    /// gives the properties read before the cut.
    package static func properties(_ bytes: [UInt8]) -> (name: String, properties: [String: Value])? {
        var r = ByteReader(bytes)
        var budget = bytes.count
        guard r.u8() == Marker.string, var name = shortString(&r) else { return nil }
        var properties: [String: Value] = [:]
        var marker = r.u8()
        // A stream recorded from RTMP keeps the publisher's call: `@setDataFrame`, then the
        // name the player sees (`onMetaData`), then the value.
        if name == "@setDataFrame", marker == Marker.string, let inner = shortString(&r) {
            name = inner
            marker = r.u8()
        }
        switch marker {
        case Marker.ecmaArray:
            // [AMF0 2.10] The count is a hint only: the pairs run to the object-end marker.
            guard r.skip(4) else { return (name, properties) }
        case Marker.object:
            break
        default:
            return nil
        }
        _ = pairs(&r, depth: 1, budget: &budget) { key, value in
            if properties[key] == nil { properties[key] = value }
        }
        return (name, properties)
    }

    /// Type markers [AMF0 2.1].
    enum Marker {
        static let number: UInt8 = 0x00
        static let boolean: UInt8 = 0x01
        static let string: UInt8 = 0x02
        static let object: UInt8 = 0x03
        static let movieClip: UInt8 = 0x04
        static let null: UInt8 = 0x05
        static let undefined: UInt8 = 0x06
        static let reference: UInt8 = 0x07
        static let ecmaArray: UInt8 = 0x08
        static let objectEnd: UInt8 = 0x09
        static let strictArray: UInt8 = 0x0A
        static let date: UInt8 = 0x0B
        static let longString: UInt8 = 0x0C
        static let unsupported: UInt8 = 0x0D
        static let xmlDocument: UInt8 = 0x0F
        static let typedObject: UInt8 = 0x10
    }

    /// [AMF0 2.5, 2.10] Name-value pairs up to the empty name and the object-end marker; false
    /// when the bytes end, a value cannot be read, or the budget runs out first.
    static func pairs(
        _ r: inout ByteReader, depth: Int, budget: inout Int, _ each: (String, Value) -> Void
    ) -> Bool {
        while budget > 0 {
            budget -= 1
            guard let key = shortString(&r) else { return false }
            if key.isEmpty {
                // [AMF0 2.11] An empty name then the object-end marker closes the object.
                return r.u8() == Marker.objectEnd
            }
            guard let value = value(&r, depth: depth, budget: &budget) else { return false }
            each(key, value)
        }
        return false
    }

    /// One value after its marker; nil when it cannot be read whole.
    static func value(_ r: inout ByteReader, depth: Int, budget: inout Int) -> Value? {
        guard let marker = r.u8() else { return nil }
        switch marker {
        case Marker.number:
            return r.u64be().map { .number(Double(bitPattern: $0)) }
        case Marker.boolean:
            return r.u8().map { .boolean($0 != 0) }
        case Marker.string:
            return shortString(&r).map { .string($0) }
        case Marker.longString, Marker.xmlDocument:
            guard let n = r.u32be(), let b = r.bytes(Int(n)) else { return nil }
            return marker == Marker.longString ? .string(String(decoding: b, as: UTF8.self)) : .other
        case Marker.date:
            guard let ms = r.u64be(), r.skip(2) else { return nil }
            return .date(milliseconds: Double(bitPattern: ms))
        case Marker.null, Marker.undefined, Marker.unsupported, Marker.movieClip:
            return .other
        case Marker.reference:
            return r.skip(2) ? .other : nil
        case Marker.object, Marker.ecmaArray, Marker.typedObject:
            guard depth < depthMax else { return nil }
            if marker == Marker.ecmaArray, !r.skip(4) { return nil }
            if marker == Marker.typedObject, shortString(&r) == nil { return nil }
            return pairs(&r, depth: depth + 1, budget: &budget) { _, _ in } ? .other : nil
        case Marker.strictArray:
            // [AMF0 2.12] A count, then that many values: each is read, so a count larger than
            // the bytes ends at the bytes, and nothing is allocated by it.
            guard depth < depthMax, let n = r.u32be() else { return nil }
            var left = n
            while left > 0 {
                guard budget > 0 else { return nil }
                budget -= 1
                guard value(&r, depth: depth + 1, budget: &budget) != nil else { return nil }
                left -= 1
            }
            return .other
        default:
            return nil
        }
    }

    /// [AMF0 1.3 UTF-8] A u16 length, then that many bytes of UTF-8 (a property's name, a string).
    static func shortString(_ r: inout ByteReader) -> String? {
        guard let n = r.u16be(), let b = r.bytes(Int(n)) else { return nil }
        return String(decoding: b, as: UTF8.self)
    }
}
