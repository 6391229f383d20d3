import Foundation
import PhotoMetaCore
import PhotoMetaSystem

/// The freedesktop thumbnail cache (Thumbnail Managing Standard 0.9.0), shared with file
/// managers: `$XDG_CACHE_HOME/thumbnails/{normal,large,x-large,xx-large}/MD5.png`, where MD5
/// is of the file's `file://` URI (built by GLib, as file managers build it), and the PNG
/// carries `Thumb::URI`, `Thumb::MTime` (whole seconds) and `Thumb::Size`. An entry is valid
/// while URI and MTime match the file. Failures are recorded under `fail/photometa-VERSION/`
/// and not retried until the file changes. Folders are 0700, files 0600, written to a
/// temporary file and renamed.
public struct ThumbnailCache: Sendable, Equatable {
    /// The four sizes of the standard: a thumbnail fits a square of this side.
    public enum Bucket: Int, Sendable, CaseIterable, Comparable {
        case normal = 128
        case large = 256
        case xLarge = 512
        case xxLarge = 1024

        /// The folder name.
        public var folder: String {
            switch self {
            case .normal: return "normal"
            case .large: return "large"
            case .xLarge: return "x-large"
            case .xxLarge: return "xx-large"
            }
        }

        /// The smallest bucket whose square holds `side` pixels; nil past 1024.
        public static func holding(_ side: Int) -> Bucket? { allCases.first { $0.rawValue >= side } }

        /// Smaller side first.
        public static func < (a: Bucket, b: Bucket) -> Bool { a.rawValue < b.rawValue }
    }

    /// The `thumbnails` folder.
    public var root: String
    /// Written into `fail/photometa-VERSION/` (the standard's per-program failure folder).
    public var program: String

    /// A cache at `root`.
    public init(root: String, program: String = "photometa-\(PhotoMetaThumbnails.version)") {
        self.root = root
        self.program = program
    }

    /// `$XDG_CACHE_HOME/thumbnails` (an absolute XDG_CACHE_HOME), else `~/.cache/thumbnails`.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ThumbnailCache {
        if let x = environment["XDG_CACHE_HOME"], x.hasPrefix("/") { return ThumbnailCache(root: x + "/thumbnails") }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return ThumbnailCache(root: home + "/.cache/thumbnails")
    }

    /// What names and validates one file's entries.
    struct Key: Sendable {
        var uri: String
        var hash: String
        var mtime: Int64
        var size: Int64
    }

    static func key(canonicalPath: String, facts: FileFacts) -> Key? {
        guard let uri = VipsCodec.fileURI(canonicalPath) else { return nil }
        return Key(uri: uri, hash: VipsCodec.md5(uri), mtime: facts.modification.seconds, size: facts.size)
    }

    func entryPath(_ key: Key, _ bucket: Bucket) -> String { root + "/" + bucket.folder + "/" + key.hash + ".png" }
    func failurePath(_ key: Key) -> String { root + "/fail/" + program + "/" + key.hash + ".png" }

    /// The text chunks photometa writes into an entry.
    static func chunks(_ key: Key) -> [(String, String)] {
        [
            ("Thumb::URI", key.uri), ("Thumb::MTime", String(key.mtime)), ("Thumb::Size", String(key.size)),
            ("Software", "photometa \(PhotoMetaThumbnails.version)"),
        ]
    }

    /// The entry's bytes when it is valid for `key`: a PNG whose URI and MTime match (and Size,
    /// when it has one). A missing, foreign, stale or unreadable entry gives nil.
    func validEntry(at path: String, for key: Key) -> [UInt8]? {
        guard let facts = try? FileFacts.of(path, followLinks: false), facts.type == .regular,
            facts.size <= Int64(PNGText.entryMax), let source = try? FileByteSource(path: path),
            let bytes = try? source.read(at: 0, count: Int(facts.size)), bytes.count == Int(facts.size)
        else { return nil }
        let text = PNGText.chunks(bytes)
        guard text["Thumb::URI"] == key.uri, text["Thumb::MTime"] == String(key.mtime) else { return nil }
        if let size = text["Thumb::Size"], size != String(key.size) { return nil }
        return bytes
    }

    /// Stores `bytes` at `path`, making the folders (0700) on the way.
    func store(_ bytes: [UInt8], at path: String) throws(ThumbnailError) {
        do throws(PrivateFiles.Problem) {
            try PrivateFiles.ensureFolder(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]))
            try PrivateFiles.replaceAtomically(path, with: bytes)
        } catch {
            throw .cannotWrite(error.description)
        }
    }
}

/// PNG text chunks, read the way a thumbnail cache needs them: `tEXt` keyword/value pairs
/// before the image data [PNG 1.2 4.2.3.1]. Only structure is walked (length, type); the CRCs
/// are not checked (a damaged entry merely fails to match and is replaced).
enum PNGText {
    /// An entry larger than this is not a thumbnail photometa would use.
    static let entryMax = 16 << 20

    static func chunks(_ png: [UInt8]) -> [String: String] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.count >= 8, Array(png[0..<8]) == signature else { return [:] }
        var result: [String: String] = [:]
        var at = 8
        var seen = 0
        while at + 8 <= png.count, seen < 256 {
            seen += 1
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            let start = at + 8
            guard length <= png.count - start else { break }
            if type == "IDAT" || type == "IEND" { break }
            if type == "tEXt" {
                let data = png[start..<(start + length)]
                if let nul = data.firstIndex(of: 0) {
                    // tEXt is Latin-1; the keys photometa reads hold ASCII only.
                    let key = String(decoding: data[data.startIndex..<nul], as: UTF8.self)
                    let value = String(decoding: data[(nul + 1)...], as: UTF8.self)
                    if result[key] == nil { result[key] = value }
                }
            }
            at = start + length + 4
        }
        return result
    }
}
