/// A movie track's transformation matrix [ISO 14496-12 8.3.2, 6.2.2], as far as photometa
/// needs it: whether it turns the picture, and by how much.
enum TrackMatrix {
    /// [ISO 14496-12 8.3.2, 6.2.2] The rotation a track's matrix {a, b, u, c, d, v, x, y, w}
    /// applies, as HEIF's `irot` counts it (degrees anticlockwise: 0, 90, 180, 270); nil for
    /// a matrix that is no quarter turn (a flip, a skew). A phone recording upright stores
    /// the frames landscape with a = 0, b = 1, c = −1, d = 0: a quarter turn clockwise
    /// (exiftool's Rotation 90), 270 here.
    static func rotation(_ b: [UInt8], at offset: Int) -> Int? {
        var r = ByteReader(b, offset: offset)
        guard offset >= 0, let a = r.u32be(), let bb = r.u32be(), r.skip(4), let c = r.u32be(), let d = r.u32be()
        else { return nil }
        // 16.16 fixed point: exactly 1, 0 or −1 in each place for a quarter turn.
        func unit(_ v: UInt32) -> Int? {
            switch Int32(bitPattern: v) {
            case 0: return 0
            case 0x1_0000: return 1
            case -0x1_0000: return -1
            default: return nil
            }
        }
        switch (unit(a), unit(bb), unit(c), unit(d)) {
        case (1, 0, 0, 1): return 0
        case (0, 1, -1, 0): return 270
        case (-1, 0, 0, -1): return 180
        case (0, -1, 1, 0): return 90
        default: return nil
        }
    }
}
