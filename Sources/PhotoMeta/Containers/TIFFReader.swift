/// TIFF, DNG and TIFF-based raw files: the file itself is the EXIF payload [TIFF 6.0 2].
/// Only the first `Limits.exifPayloadMax` bytes are read, since libexif ignores anything past
/// 64 KiB anyway; raw files whose IFDs lie further in lose those tags (noted).
public enum TIFFReader: ContainerReader {
    public static func read(_ reader: BoundedReader) -> ContainerPayloads {
        var out = ContainerPayloads(format: .tiff)
        do throws(ReadFailure) {
            let bytes = try reader.readAvailable(at: 0, count: Limits.exifPayloadMax)
            if bytes.hasPrefix([0x49, 0x49, 0x2A, 0x00]) || bytes.hasPrefix([0x4D, 0x4D, 0x00, 0x2A]) {
                out.setExif(bytes, domain: "tiff")
            } else {
                out.note("tiff", "TIFF variant with a vendor magic number; EXIF not decoded")
            }
            if reader.size > Int64(ExifDecoder.libexifInputMax) {
                out.note("tiff", "only the first 64 KiB are decoded (libexif's limit); tags stored beyond are not seen")
            }
        } catch {
            out.note("tiff", error, while: "reading header")
        }
        return out
    }
}
