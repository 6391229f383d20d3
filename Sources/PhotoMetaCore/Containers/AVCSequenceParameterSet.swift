/// The picture size an H.264 sequence parameter set states [ITU-T H.264 7.3.2.1.1 syntax,
/// 7.4.2.1.1 semantics]: the frame in macroblocks (16 luma samples), doubled for field
/// coding, less the cropping rectangle in chroma units. A transport stream states no size of
/// its own (`TransportStreamReader`).
package enum AVCSequenceParameterSet {
    /// The profiles whose SPS carries chroma format, bit depths and scaling lists
    /// [H.264 7.3.2.1.1, the `profile_idc` condition].
    static let highProfiles: Set<Int> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]
    /// Larger than any level allows (level 6.2: 139,264 macroblocks a frame).
    static let macroblocksMax = 1 << 14

    /// Width and height in luma samples of the SPS `nal` (the NAL unit from its header byte,
    /// emulation prevention bytes removed); nil when it is not one, or ends or lies first.
    package static func pictureSize(_ nal: [UInt8]) -> (width: Int, height: Int)? {
        guard let header = nal.first, header & 0x9F == 0x07 else { return nil }  // forbidden bit 0, type 7
        var r = ExpGolomb(nal, from: 1)
        guard let profile = r.bits(8), r.bits(16) != nil, r.ue() != nil else { return nil }
        var chroma = 1  // 4:2:0 when the profile says nothing
        var separatePlanes = false
        if highProfiles.contains(profile) {
            guard let format = r.ue(), format <= 3 else { return nil }
            chroma = format
            if format == 3 {
                guard let separate = r.bits(1) else { return nil }
                separatePlanes = separate == 1
            }
            guard r.ue() != nil, r.ue() != nil, r.bits(1) != nil, let scaling = r.bits(1) else { return nil }
            if scaling == 1 {
                for i in 0..<(format != 3 ? 8 : 12) {
                    guard let present = r.bits(1) else { return nil }
                    if present == 1, !r.skipScalingList(i < 6 ? 16 : 64) { return nil }
                }
            }
        }
        guard r.ue() != nil, let pocType = r.ue() else { return nil }
        switch pocType {
        case 0: guard r.ue() != nil else { return nil }
        case 1:
            guard r.bits(1) != nil, r.se() != nil, r.se() != nil, let cycle = r.ue(), cycle <= 255 else { return nil }
            for _ in 0..<cycle { guard r.se() != nil else { return nil } }
        case 2: break
        default: return nil
        }
        guard r.ue() != nil, r.bits(1) != nil, let widthMBs = r.ue(), let heightUnits = r.ue(), let frameOnly = r.bits(1),
            widthMBs < macroblocksMax, heightUnits < macroblocksMax
        else { return nil }
        if frameOnly == 0 { guard r.bits(1) != nil else { return nil } }
        guard r.bits(1) != nil, let cropping = r.bits(1) else { return nil }
        var crop = [0, 0, 0, 0]  // left, right, top, bottom
        if cropping == 1 {
            for i in 0..<4 {
                guard let v = r.ue(), v < macroblocksMax * 16 else { return nil }
                crop[i] = v
            }
        }
        // [H.264 6.2, Table 6-1] SubWidthC and SubHeightC; monochrome and separate planes crop
        // in luma samples.
        let (subWidth, subHeight) = chroma == 0 || separatePlanes ? (1, 1) : chroma == 1 ? (2, 2) : chroma == 2 ? (2, 1) : (1, 1)
        let fields = 2 - frameOnly
        let width = (widthMBs + 1) * 16 - subWidth * (crop[0] + crop[1])
        let height = fields * (heightUnits + 1) * 16 - subHeight * fields * (crop[2] + crop[3])
        guard width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// [H.264 B.1.1] The prefix of every NAL unit in a byte stream.
    static let startCode: [UInt8] = [0, 0, 1]
    /// How many sequence parameter sets are tried before giving up.
    static let attemptsMax = 64

    /// The picture size of the first sequence parameter set that states one among the NAL
    /// units of the byte stream `bytes`, from `from` (each NAL after a start code, up to the
    /// next, at most 512 bytes of it).
    static func firstPictureSize(in bytes: [UInt8], from start: Int) -> (width: Int, height: Int)? {
        var from = start
        var tried = 0
        while tried < attemptsMax, let at = ByteSearch.first(startCode, in: bytes, from: from) {
            from = at + startCode.count
            guard from < bytes.count, bytes[from] & 0x9F == 0x07 else { continue }
            tried += 1
            let end = ByteSearch.first(startCode, in: bytes, from: from) ?? bytes.count
            if let size = pictureSize(unescaped(bytes[from..<min(end, from + 512)])) { return size }
        }
        return nil
    }

    /// The bytes without the emulation prevention bytes an encoder puts after two zeros
    /// [H.264 7.4.1: 0x000003]: an SPS's or an SEI's payload as written.
    static func unescaped(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var zeros = 0
        for b in bytes {
            if zeros >= 2, b == 0x03 {
                zeros = 0
                continue
            }
            zeros = b == 0 ? zeros + 1 : 0
            out.append(b)
        }
        return out
    }

    /// Reads an RBSP most significant bit first, with Exp-Golomb codes [H.264 9.1].
    struct ExpGolomb {
        let bytes: [UInt8]
        var bit: Int

        init(_ bytes: [UInt8], from byte: Int) {
            self.bytes = bytes
            bit = byte * 8
        }

        /// `n` bits (at most 32) as a number; nil past the end.
        mutating func bits(_ n: Int) -> Int? {
            guard n <= 32, bit + n <= bytes.count * 8 else { return nil }
            var v = 0
            for _ in 0..<n {
                v = v << 1 | Int(bytes[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
                bit += 1
            }
            return v
        }

        /// ue(v): leading zeros, a one, then as many bits; at most 31 zeros (32-bit values).
        mutating func ue() -> Int? {
            var zeros = 0
            while true {
                guard let b = bits(1) else { return nil }
                if b == 1 { break }
                zeros += 1
                if zeros > 31 { return nil }
            }
            guard let rest = bits(zeros) else { return nil }
            return (1 << zeros) - 1 + rest
        }

        /// se(v): ue(v) mapped to 0, 1, -1, 2, -2...
        mutating func se() -> Int? {
            guard let k = ue() else { return nil }
            return k & 1 == 1 ? (k + 1) / 2 : -(k / 2)
        }

        /// Skips a scaling list of `size` deltas [H.264 7.3.2.1.1.1]; false when it ends first.
        mutating func skipScalingList(_ size: Int) -> Bool {
            var last = 8
            var next = 8
            for _ in 0..<size {
                if next != 0 {
                    guard let delta = se() else { return false }
                    next = ((last + delta) % 256 + 256) % 256
                }
                last = next == 0 ? last : next
            }
            return true
        }
    }
}
