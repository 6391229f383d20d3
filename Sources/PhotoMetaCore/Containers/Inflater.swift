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

    /// Output grows in steps of this size, so a stream that ends early costs what it produced,
    /// not its limit.
    static let step = 64 << 10

    static func inflate(_ input: ArraySlice<UInt8>, limit: Int) -> Outcome {
        guard !input.isEmpty, limit > 0 else { return .corrupt }
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return .corrupt }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(step, limit + 1))
        let input = Array(input)
        return input.withUnsafeBufferPointer { inBuf -> Outcome in
            guard let inBase = inBuf.baseAddress else { return .corrupt }
            stream.next_in = UnsafeMutablePointer(mutating: inBase)
            stream.avail_in = UInt32(inBuf.count)
            while true {
                let rc = chunk.withUnsafeMutableBufferPointer { outBuf -> Int32 in
                    guard let outBase = outBuf.baseAddress else { return Z_MEM_ERROR }
                    stream.next_out = outBase
                    stream.avail_out = UInt32(outBuf.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                // Checked before appending: the output never holds more than limit + 1 step.
                guard output.count + produced <= limit else { return .tooLarge }
                output.append(contentsOf: chunk[0..<produced])
                switch rc {
                case Z_STREAM_END: return .complete(output)
                case Z_OK: continue
                case Z_BUF_ERROR:
                    // No progress possible: the input ended before the stream did.
                    if stream.avail_in == 0 || produced == 0 { return .corrupt }
                default: return .corrupt
                }
            }
        }
    }
}
