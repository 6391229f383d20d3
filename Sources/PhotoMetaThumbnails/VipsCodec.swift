internal import CVips
import Foundation
import PhotoMetaCore
import Synchronization

/// The one file that calls libvips and libffmpegthumbnailer (through the CVips shim, whose
/// functions have fixed signatures: libvips' varargs API cannot be called from Swift).
///
/// libvips starts once per process with only its HEIF loader module loaded, untrusted loaders
/// blocked (`vips_block_untrusted_set`: only the fuzzed JPEG, PNG, GIF, WebP, HEIF/AVIF and TIFF
/// loaders remain), no operation cache
/// and one worker thread per call (photometa runs one call per core instead). Its own stderr
/// messages and FFmpeg's are silenced: every failure comes back as a value.
enum VipsCodec {
    /// What the shim reports about a picture without decoding it.
    struct Header {
        var width: Int
        var height: Int
        var pages: Int
        var orientation: Int
        var loader: String
        /// Bytes of one decoded sample: 1 for 8 bits, 2 for 10 to 16.
        var sampleBytes = 1
    }

    /// One encode's options (`pm_thumb_options`).
    struct Options {
        var width: Int
        var height: Int
        var crop = false
        /// 0: the file's own EXIF orientation; 1...8: this one (a preview inherits its parent's).
        var orientation = 0
        var maxPixels: Int
        var format: ThumbnailFormat
        var quality: Int
        var text: [(String, String)] = []
    }

    /// An encoded picture.
    struct Encoded {
        var bytes: [UInt8]
        var width: Int
        var height: Int
    }

    /// A shim failure: its code and libvips' (or FFmpeg's) message.
    struct Failure: Error {
        var code: Int32
        var message: String

        var reason: ThumbnailError {
            switch code {
            case PM_ERR_NOT_FILE: return .notARegularFile
            case PM_ERR_UNSUPPORTED: return .unsupported(message)
            case PM_ERR_TOO_LARGE: return .tooManyPixels(message)
            case PM_ERR_VIDEO: return .noVideoFrame(message)
            default: return .cannotDecode(message)
            }
        }
    }

    private static let started: Int32 = {
        let rc = pm_vips_init("photometa")
        pm_vips_set_quiet(1)
        return rc
    }()

    /// Gives each failed call its own message (libvips' error buffer is one per process).
    private static let gate = VipsErrorGate { pm_vips_error_clear() }

    static var version: String { String(cString: pm_vips_version()) }

    /// Starts libvips now (its loader modules are read from disk here): what a process that
    /// confines itself calls first. False when libvips could not start.
    static func start() -> Bool { started == PM_OK }

    private static func ready() throws(Failure) {
        guard started == PM_OK else { throw Failure(code: PM_ERR_INIT, message: "libvips could not start") }
    }

    static func header(path: String) throws(Failure) -> Header {
        try ready()
        var h = pm_header()
        var err = [CChar](repeating: 0, count: 512)
        // Paths go to C as their exact bytes (a name that is not UTF-8 carries stand-ins).
        let rc = gate.run { PathBytes.withCPath(path) { pm_vips_header($0, &h, &err, err.count) } }
        guard rc == PM_OK else { throw Failure(code: rc, message: text(err)) }
        return header(h)
    }

    static func thumbnail(path: String, _ o: Options) throws(Failure) -> Encoded {
        try ready()
        return try encode(o) { opts, out, err in
            PathBytes.withCPath(path) { pm_vips_thumbnail($0, opts, out, err, 512) }
        }
    }

    static func thumbnail(bytes: [UInt8], _ o: Options) throws(Failure) -> Encoded {
        try ready()
        return try encode(o) { opts, out, err in
            bytes.withUnsafeBytes { pm_vips_thumbnail_buffer($0.baseAddress, $0.count, opts, out, err, 512) }
        }
    }

    /// A frame `percent` into the video at `path`, scaled like a picture.
    static func videoFrame(path: String, percent: Int, _ o: Options) throws(Failure) -> Encoded {
        try ready()
        return try encode(o) { opts, out, err in
            PathBytes.withCPath(path) { pm_video_frame($0, Int32(percent), opts, out, err, 512) }
        }
    }

    /// Runs one shim call with `o` laid out as `pm_thumb_options` (the text chunks' C strings
    /// live for the call).
    private static func encode(
        _ o: Options,
        _ call: (UnsafePointer<pm_thumb_options>, UnsafeMutablePointer<pm_image>, UnsafeMutablePointer<CChar>) -> Int32
    ) throws(Failure) -> Encoded {
        let keys = o.text.map { strdup($0.0) }
        let values = o.text.map { strdup($0.1) }
        defer {
            for k in keys { free(k) }
            for v in values { free(v) }
        }
        var err = [CChar](repeating: 0, count: 512)
        var image = pm_image()
        let rc: Int32 = keys.map { UnsafePointer($0) }.withUnsafeBufferPointer { k in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { v in
                var opts = pm_thumb_options()
                opts.width = Int32(clamping: o.width)
                opts.height = Int32(clamping: o.height)
                opts.crop = o.crop ? PM_CROP_CENTRE : PM_CROP_NONE
                opts.orientation = Int32(clamping: o.orientation)
                opts.fail_on = PM_FAIL_TRUNCATED
                opts.max_pixels = UInt64(max(1, o.maxPixels))
                opts.format =
                    switch o.format {
                    case .png: PM_FORMAT_PNG
                    case .jpeg: PM_FORMAT_JPEG
                    case .webp: PM_FORMAT_WEBP
                    }
                opts.quality = Int32(clamping: o.quality)
                opts.text_keys = k.baseAddress
                opts.text_values = v.baseAddress
                opts.text_count = o.text.count
                return err.withUnsafeMutableBufferPointer { e in
                    guard let e = e.baseAddress else { return PM_ERR_ARGUMENT }
                    return gate.run { call(&opts, &image, e) }
                }
            }
        }
        guard rc == PM_OK, let data = image.data else {
            throw Failure(code: rc == PM_OK ? PM_ERR_ENCODE : rc, message: text(err))
        }
        defer { pm_free(data) }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: image.len))
        return Encoded(bytes: bytes, width: Int(image.width), height: Int(image.height))
    }

    private static func header(_ h: pm_header) -> Header {
        var loader = h.loader
        let name = withUnsafeBytes(of: &loader) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return Header(
            width: Int(h.width), height: Int(h.height), pages: Int(h.pages), orientation: Int(h.orientation), loader: name,
            sampleBytes: max(1, Int(h.sample_bytes)))
    }

    private static func text(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let s = String(decoding: bytes, as: UTF8.self)
        return s.isEmpty ? "libvips gave no reason" : s
    }

    /// The bands of pixel (x, y) of an encoded picture (tests check where a corner went).
    static func pixel(_ bytes: [UInt8], x: Int, y: Int) -> [Double]? {
        guard started == PM_OK else { return nil }
        var out = [Double](repeating: 0, count: 4)
        var bands: Int32 = 0
        let rc = gate.run {
            bytes.withUnsafeBytes { pm_vips_pixel($0.baseAddress, $0.count, Int32(x), Int32(y), &out, 4, &bands) }
        }
        return rc == 0 ? Array(out.prefix(Int(bands))) : nil
    }
}
