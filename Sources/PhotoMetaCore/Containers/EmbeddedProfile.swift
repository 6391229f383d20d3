/// The ICC profile a JPEG carries in its APP2 `ICC_PROFILE` segments [ICC.1:2010 B.4], put back
/// together: what an embedded preview cut from the file is in (a preview carries no profile
/// of its own; an iPhone JPEG's is Display P3 like the photo).
package enum EmbeddedProfile {
    /// At most this many bytes (a profile is a few KiB; the largest in use, with lookup
    /// tables, a few hundred KiB).
    static let profileMax = 4 << 20

    /// The profile of `segments` (`PreviewHints.iccSegments`) read from `source`: every
    /// sequence number from 1 to the count, once, all saying the same count, joined in order.
    /// Nil when there is none, or the segments do not make one profile (a part missing or
    /// doubled, a count that disagrees, more than `profileMax` bytes, a read that fails).
    package static func profile(_ source: some ByteSource, _ segments: [ICCSegment]) -> [UInt8]? {
        guard let count = segments.first?.count, count > 0, segments.count == Int(count),
            segments.allSatisfy({ $0.count == count }),
            Set(segments.map(\.sequence)) == Set((1...count).map { UInt8($0) })
        else { return nil }
        let total = segments.reduce(0) { $0 + $1.length }
        guard total > 0, total <= profileMax else { return nil }
        var bytes: [UInt8] = []
        for s in segments.sorted(by: { $0.sequence < $1.sequence }) {
            guard let part = try? source.read(at: s.offset, count: s.length), part.count == s.length else { return nil }
            bytes += part
        }
        return bytes
    }
}
