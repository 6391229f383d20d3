internal import CZlib

/// The only file that talks to zlib: inflates a zlib stream [RFC 1950] into at most `limit`
/// bytes, so a small compressed chunk cannot expand into unbounded memory (a "zip bomb" stops at
/// the limit).
enum Inflater {
    enum Outcome: Equatable {
        case complete([UInt8])
        /// The output would exceed the limit; inflating stopped there.
        case tooLarge
        /// Not a valid zlib stream (or cut short).
        case corrupt
    }

    static func inflate(_ input: ArraySlice<UInt8>, limit: Int) -> Outcome {
        guard !input.isEmpty, limit > 0 else { return .corrupt }
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return .corrupt }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: limit + 1)
        let input = Array(input)
        return input.withUnsafeBufferPointer { inBuf -> Outcome in
            output.withUnsafeMutableBufferPointer { outBuf -> Outcome in
                guard let inBase = inBuf.baseAddress, let outBase = outBuf.baseAddress else { return .corrupt }
                stream.next_in = UnsafeMutablePointer(mutating: inBase)
                stream.avail_in = UInt32(inBuf.count)
                stream.next_out = outBase
                stream.avail_out = UInt32(outBuf.count)
                let rc = CZlib.inflate(&stream, Z_FINISH)
                let produced = outBuf.count - Int(stream.avail_out)
                if rc == Z_STREAM_END {
                    return produced > limit ? .tooLarge : .complete(Array(outBuf[0..<produced]))
                }
                // Output full before the end: larger than allowed.
                if stream.avail_out == 0 { return .tooLarge }
                return .corrupt
            }
        }
    }
}
