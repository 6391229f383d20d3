/// A transport stream's length from its program clock references [ISO/IEC 13818-1 2.4.3.5,
/// `program_clock_reference_base`: 33 bits at 90 kHz]: the first PCR in the first packets and
/// the last one of the same PID in the last `tailBytes`, their difference (modulo 2^33, as
/// the counter wraps every 26.5 hours). A stream states no duration of its own.
enum TransportStreamClock {
    /// The end of a stream read for its last PCR (encoders send one at least every 100 ms
    /// [ISO/IEC 13818-1 2.7.2]; 256 KiB is seconds of a camcorder's 24 Mbit/s).
    static let tailBytes = 256 << 10
    static let ticksPerSecond = 90_000.0
    static let wrap: Int64 = 1 << 33

    /// The duration in seconds, or nil when either end has no PCR of the first PCR's PID, or
    /// the difference is none.
    static func duration(_ reader: BoundedReader, head: [UInt8], layout: (size: Int, sync: Int)) -> Double? {
        guard let first = pcrs(in: head, layout).first else { return nil }
        let size = Int64(layout.size)
        // Packets are counted from the start of the file, so the tail starts on one.
        let from = max(0, (reader.size - Int64(tailBytes)) / size * size)
        guard let tail = try? reader.readAvailable(at: from, count: tailBytes),
            let last = pcrs(in: tail, layout).last(where: { $0.pid == first.pid })
        else { return nil }
        let ticks = ((last.base - first.base) % wrap + wrap) % wrap
        return ticks > 0 ? Double(ticks) / ticksPerSecond : nil
    }

    /// Each packet's PCR, in order: an adaptation field of at least 7 bytes whose PCR flag
    /// (0x10) is set; the base is the first 33 bits after the flags.
    static func pcrs(in bytes: [UInt8], _ layout: (size: Int, sync: Int)) -> [(pid: Int, base: Int64)] {
        var found: [(pid: Int, base: Int64)] = []
        var packet = 0
        while packet + layout.size <= bytes.count {
            let p = packet + layout.sync
            packet += layout.size
            guard bytes[p] == 0x47, bytes[p + 3] & 0x20 != 0, bytes[p + 4] >= 7, bytes[p + 5] & 0x10 != 0 else { continue }
            let pid = Int(bytes[p + 1] & 0x1F) << 8 | Int(bytes[p + 2])
            var base: Int64 = 0
            for i in 6..<10 { base = base << 8 | Int64(bytes[p + i]) }
            base = base << 1 | Int64(bytes[p + 10] >> 7)
            found.append((pid, base))
        }
        return found
    }
}
