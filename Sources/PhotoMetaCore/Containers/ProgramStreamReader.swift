/// Reads an MPEG program stream [ISO/IEC 13818-1 2.5.3; ISO/IEC 11172-1 2.4.3]: packs, each
/// starting with the pack start code `00 00 01 BA`, holding PES packets. The `.MPG` of older
/// cameras and camcorders, a DVD's `.VOB`, JVC's `.MOD`. It states no date; the picture size
/// comes from the first MPEG video sequence header [ISO/IEC 13818-2 6.2.2.1:
/// `horizontal_size_value`, `vertical_size_value`, 12 bits each], else from an H.264 sequence
/// parameter set (`AVCSequenceParameterSet`), in the first `scanBytes`.
package enum ProgramStreamReader {
    static let packStartCode: [UInt8] = [0x00, 0x00, 0x01, 0xBA]
    static let sequenceHeaderCode: [UInt8] = [0x00, 0x00, 0x01, 0xB3]
    /// The sequence header comes before the first picture.
    static let scanBytes = 64 << 10

    /// A program stream starts with a pack header: MPEG-2's (`01` after the code) or MPEG-1's
    /// (`0010`).
    package static func starts(_ head: [UInt8]) -> Bool {
        head.count > 4 && head.prefix(4).elementsEqual(packStartCode) && (head[4] >> 6 == 0b01 || head[4] >> 4 == 0b0010)
    }

    package static func read(_ reader: BoundedReader) -> ContainerFindings {
        var out = ContainerFindings(format: .mpeg)
        let bytes: [UInt8]
        do throws(ReadFailure) {
            bytes = try reader.readAvailable(at: 0, count: scanBytes)
        } catch {
            out.note("mpeg", error, while: "reading the first packs")
            return out
        }
        if let size = sequenceHeaderSize(bytes) ?? AVCSequenceParameterSet.firstPictureSize(in: bytes, from: 0) {
            (out.width, out.height) = (size.width, size.height)
        }
        return out
    }

    /// The size in the first MPEG-1/2 video sequence header; nil when there is none, or it
    /// states zero.
    static func sequenceHeaderSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard let at = ByteSearch.first(sequenceHeaderCode, in: bytes, from: 0), at + 7 <= bytes.count else {
            return nil
        }
        let width = Int(bytes[at + 4]) << 4 | Int(bytes[at + 5] >> 4)
        let height = Int(bytes[at + 5] & 0x0F) << 8 | Int(bytes[at + 6])
        return width > 0 && height > 0 ? (width, height) : nil
    }
}
