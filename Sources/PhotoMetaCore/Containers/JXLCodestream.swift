/// The start of a JPEG XL codestream [ISO/IEC 18181-1, codestream signature and SizeHeader]: the signature `FF 0A`, then
/// the `SizeHeader` bundle, read bit by bit (least significant bit of each byte first) without
/// decoding anything else.
package enum JXLCodestream {
    /// [ISO/IEC 18181-1] The codestream signature.
    package static let signature: [UInt8] = [0xFF, 0x0A]

    /// Bytes enough for the signature, the largest `SizeHeader` (1 + 2 + 30 + 3 + 2 + 30 bits)
    /// and the start of `ImageMetadata` up to its orientation (1 + 1 + 3 bits).
    static let headLength = 12

    /// The picture's size from the codestream's first bytes; nil when they do not start with
    /// the signature or end inside the header.
    package static func size(_ head: [UInt8]) -> (width: Int, height: Int)? {
        var bits = BitReader(head, from: 2)
        return size(head, &bits)
    }

    /// [ISO/IEC 18181-1, ImageMetadata] The orientation (1-8, as EXIF numbers them) that
    /// follows the size header: `all_default` (1 bit: then 1), else `extra_fields` (1 bit),
    /// and when set, `orientation` - 1 in 3 bits; nil when the bytes end first. The codestream's
    /// orientation is the picture's: decoders ignore an Exif box's [ISO/IEC 18181-2, Exif box].
    package static func orientation(_ head: [UInt8]) -> Int? {
        var bits = BitReader(head, from: 2)
        guard size(head, &bits) != nil, let allDefault = bits.take(1) else { return nil }
        if allDefault == 1 { return 1 }
        guard let extraFields = bits.take(1) else { return nil }
        if extraFields == 0 { return 1 }
        return bits.take(3).map { Int($0) + 1 }
    }

    static func size(_ head: [UInt8], _ bits: inout BitReader) -> (width: Int, height: Int)? {
        guard head.hasPrefix(signature) else { return nil }
        guard let small = bits.take(1) else { return nil }
        let height: UInt64
        if small == 1 {
            guard let h = bits.take(5) else { return nil }
            height = (h + 1) * 8
        } else {
            guard let h = bits.u32PlusOne() else { return nil }
            height = h
        }
        guard let ratio = bits.take(3) else { return nil }
        let width: UInt64
        switch ratio {
        case 0:
            if small == 1 {
                guard let w = bits.take(5) else { return nil }
                width = (w + 1) * 8
            } else {
                guard let w = bits.u32PlusOne() else { return nil }
                width = w
            }
        default:
            // [ISO/IEC 18181-1, SizeHeader] Fixed aspect ratios: 1:1, 12:10, 4:3, 3:2, 16:9, 5:4, 2:1.
            let (num, den): (UInt64, UInt64) = [(1, 1), (12, 10), (4, 3), (3, 2), (16, 9), (5, 4), (2, 1)][Int(ratio) - 1]
            width = height * num / den
        }
        guard width > 0, height > 0, width <= 1 << 30, height <= 1 << 30 else { return nil }
        return (Int(width), Int(height))
    }

    /// Reads bits least significant first [ISO/IEC 18181-1; libjxl's BitReader].
    struct BitReader {
        let bytes: [UInt8]
        var bit: Int

        init(_ bytes: [UInt8], from byte: Int) {
            self.bytes = bytes
            self.bit = 8 * byte
        }

        mutating func take(_ n: Int) -> UInt64? {
            guard n >= 0, n <= 32, bit + n <= 8 * bytes.count else { return nil }
            var v: UInt64 = 0
            for i in 0..<n {
                let b = bytes[(bit + i) / 8] >> UInt8((bit + i) % 8) & 1
                v |= UInt64(b) << UInt64(i)
            }
            bit += n
            return v
        }

        /// [ISO/IEC 18181-1, SizeHeader] `U32(BitsOffset(9, 1), BitsOffset(13, 1), BitsOffset(18, 1), BitsOffset(30, 1))`:
        /// a 2-bit selector, then that many bits, plus one.
        mutating func u32PlusOne() -> UInt64? {
            guard let selector = take(2), let v = take([9, 13, 18, 30][Int(selector)]) else { return nil }
            return v + 1
        }
    }
}
