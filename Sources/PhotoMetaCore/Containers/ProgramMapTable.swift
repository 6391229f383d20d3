/// The streams a transport stream's programs carry [ISO/IEC 13818-1 2.4.4]: the program
/// association table on PID 0 names each program's map PID (2.4.4.3), and a program map table
/// lists its elementary streams' types and PIDs (2.4.4.8). The picture size is read from a
/// stream the table calls H.264 or MPEG video, never guessed from bytes that look alike (an
/// MPEG-2 slice's start code `00 00 01 67` is an H.264 SPS's too).
enum ProgramMapTable {
    /// [2.4.4.9, Table 2-34] `stream_type` values.
    static let mpeg1Video: UInt8 = 0x01
    static let mpeg2Video: UInt8 = 0x02
    static let avcVideo: UInt8 = 0x1B

    /// PID → `stream_type` of every elementary stream the first PAT's programs list, from the
    /// payloads of PID 0 and of the map PIDs it names; empty when they are not there.
    static func streamTypes(_ payloads: [Int: [UInt8]]) -> [Int: UInt8] {
        guard let pat = section(payloads[0] ?? [], tableID: 0x00) else { return [:] }
        var types: [Int: UInt8] = [:]
        // After the 8-byte header: 4-byte entries up to the CRC.
        var i = 8
        while i + 4 <= pat.count - 4 {
            let program = Int(pat[i]) << 8 | Int(pat[i + 1])
            let pid = Int(pat[i + 2] & 0x1F) << 8 | Int(pat[i + 3])
            i += 4
            guard program != 0, let pmt = section(payloads[pid] ?? [], tableID: 0x02), pmt.count >= 12 else { continue }
            // After the 12-byte header and the program's descriptors: 5-byte entries, each
            // followed by its own descriptors, up to the CRC.
            var j = 12 + (Int(pmt[10] & 0x0F) << 8 | Int(pmt[11]))
            while j + 5 <= pmt.count - 4 {
                types[Int(pmt[j + 1] & 0x1F) << 8 | Int(pmt[j + 2])] = pmt[j]
                j += 5 + (Int(pmt[j + 3] & 0x0F) << 8 | Int(pmt[j + 4]))
            }
        }
        return types
    }

    /// The section a PSI payload starts with, after its pointer field [2.4.4.2]: `table_id`,
    /// a 12-bit `section_length`, then that many bytes (the CRC last); nil when another table
    /// starts there or the bytes end first.
    static func section(_ payload: [UInt8], tableID: UInt8) -> [UInt8]? {
        guard let pointer = payload.first else { return nil }
        let start = 1 + Int(pointer)
        guard start + 3 <= payload.count, payload[start] == tableID else { return nil }
        let end = start + 3 + (Int(payload[start + 1] & 0x0F) << 8 | Int(payload[start + 2]))
        guard end <= payload.count, end - start >= 12 else { return nil }
        return Array(payload[start..<end])
    }
}
