internal import CBrotli

/// The only file that talks to libbrotli: decompresses a Brotli stream [RFC 7932] into at most
/// `limit` bytes, so a small `brob` box cannot expand into unbounded memory (the output stops
/// at the limit, and what was decoded up to it is handed back).
enum BrotliDecoder {
    enum Outcome: Equatable {
        case complete([UInt8])
        /// The output reached the limit: these are its first `limit` bytes.
        case tooLarge([UInt8])
        /// Not a valid Brotli stream (or cut short).
        case corrupt
    }

    /// Output grows in steps of this size, so a stream that ends early costs what it produced,
    /// not its limit.
    static let step = 64 << 10

    static func decompress(_ input: [UInt8], limit: Int) -> Outcome {
        guard !input.isEmpty, limit > 0, let state = BrotliDecoderCreateInstance(nil, nil, nil) else { return .corrupt }
        defer { BrotliDecoderDestroyInstance(state) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(step, limit))
        return input.withUnsafeBufferPointer { inBuf -> Outcome in
            var availableIn = inBuf.count
            var nextIn = inBuf.baseAddress
            while true {
                var availableOut = chunk.count
                let rc = chunk.withUnsafeMutableBufferPointer { outBuf -> BrotliDecoderResult in
                    var nextOut = outBuf.baseAddress
                    return BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                }
                let produced = chunk.count - availableOut
                // Checked before appending: the output never holds more than `limit` bytes.
                if output.count + produced >= limit, rc != BROTLI_DECODER_RESULT_SUCCESS || output.count + produced > limit {
                    output.append(contentsOf: chunk[0..<(limit - output.count)])
                    return .tooLarge(output)
                }
                output.append(contentsOf: chunk[0..<produced])
                switch rc {
                case BROTLI_DECODER_RESULT_SUCCESS: return .complete(output)
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                default: return .corrupt  // NEEDS_MORE_INPUT: the input ended first; ERROR
                }
            }
        }
    }
}
