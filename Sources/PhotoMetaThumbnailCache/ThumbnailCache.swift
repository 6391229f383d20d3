internal import CGLibNames
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
    /// photometa's version, written into entries (`Software`) and naming the failure folder.
    public static let version = "0.1.0"

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
    public init(root: String, program: String = "photometa-\(ThumbnailCache.version)") {
        self.root = root
        self.program = program
    }

    /// `$XDG_CACHE_HOME/thumbnails` (an absolute XDG_CACHE_HOME), else `~/.cache/thumbnails`.
    public static func standard(environment: [String: String] = ProcessEnvironment.current) -> ThumbnailCache {
        if let x = HomeFolder.base("XDG_CACHE_HOME", environment) { return ThumbnailCache(root: x + "/thumbnails") }
        let home = HomeFolder.path(environment)
        return ThumbnailCache(root: home + "/.cache/thumbnails")
    }

    /// What names and validates one file's entries.
    package struct Key: Sendable {
        package var uri: String
        package var hash: String
        package var mtime: Int64
        package var size: Int64
    }

    /// The key of the file at `path`, named as given (`pathAsGiven`), with its facts (links
    /// followed, as a file manager's file info).
    package static func key(path: String, facts: FileFacts) -> Key? {
        guard let named = pathAsGiven(path, facts: facts), let uri = fileURI(named) else { return nil }
        return Key(uri: uri, hash: md5(uri), mtime: facts.modification.seconds, size: facts.size)
    }

    package func entryPath(_ key: Key, _ bucket: Bucket) -> String { root + "/" + bucket.folder + "/" + key.hash + ".png" }
    package func failurePath(_ key: Key) -> String { root + "/fail/" + program + "/" + key.hash + ".png" }

    /// The text chunks photometa writes into an entry; the picture's own size when known
    /// (`Thumb::Image::Width` and `Height` [Thumbnail Managing Standard 0.9, "Additional
    /// keys"], as GNOME writes them): what tells a small picture's whole entry from one made
    /// too small (`isLargeEnough`).
    package static func chunks(_ key: Key, picture: (width: Int, height: Int)? = nil) -> [(String, String)] {
        var text = [("Thumb::URI", key.uri), ("Thumb::MTime", String(key.mtime)), ("Thumb::Size", String(key.size))]
        if let picture { text += [("Thumb::Image::Width", "\(picture.width)"), ("Thumb::Image::Height", "\(picture.height)")] }
        return text + [("Software", "photometa \(version)")]
    }

    /// An entry of `width` x `height` holds what a box of `side` needs: its long side reaches
    /// the side, or the picture itself is no larger (its size from `picture`, else from the
    /// entry's `Thumb::Image::` keys; a pixel of rounding allowed), or photometa made it.
    /// Another tool may store a smaller picture (an embedded preview) with valid keys: used, it
    /// would answer a 256 px request with 60 px.
    package static func isLargeEnough(
        _ width: Int, _ height: Int, side: Int, text: [String: String], picture: (width: Int, height: Int)? = nil
    ) -> Bool {
        let long = max(width, height)
        // photometa's own entries are the best it could make (a raw whose only preview is 160
        // px): made again, they would come out the same, on every request.
        if long >= side || text["Software"]?.hasPrefix("photometa ") == true { return true }
        let keyed = Int(text["Thumb::Image::Width"] ?? "").flatMap { w in Int(text["Thumb::Image::Height"] ?? "").map { (w, $0) }
        }
        guard let original = picture ?? keyed, original.0 > 0, original.1 > 0 else { return false }
        return long >= min(side, max(original.0, original.1)) - 1
    }

    /// The `file://` URI of an absolute path, as GLib (and so file managers) write it.
    package static func fileURI(_ absolutePath: String) -> String? {
        // The exact bytes: GLib escapes a byte that is not UTF-8 as %XX, as file managers do.
        var out = [CChar](repeating: 0, count: absolutePath.utf8.count * 3 + 16)
        guard PathBytes.withCPath(absolutePath, { pm_file_uri($0, &out, out.count) }) == 0 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The absolute path a file manager names the file at `path` by: made absolute against the
    /// current folder, `.` and `..` removed by name, symbolic links kept (GLib's
    /// `g_canonicalize_filename`, as `g_file_new_for_path`). Nautilus browsing `~/Pictures`, a
    /// link to `/data/Pictures`, names its thumbnails by `file:///home/u/Pictures/...`, not by
    /// the link's target. When that name leads to another file than the one read (`facts`: a
    /// link before a `..`, `a/link/../x.jpg`), the canonical path names it instead: an entry
    /// never holds another file's picture.
    package static func pathAsGiven(_ path: String, facts: FileFacts) -> String? {
        // The current folder (PATH_MAX at most) may come before the path.
        var out = [CChar](repeating: 0, count: path.utf8.count + Int(PATH_MAX) + 2)
        if PathBytes.withCPath(path, { pm_path_as_given($0, &out, out.count) }) == 0 {
            let named = PathBytes.decode(out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
            if let f = try? FileFacts.of(named), f.device == facts.device, f.inode == facts.inode { return named }
        }
        return try? FileSystem.canonicalPath(path)
    }

    /// Lowercase hex MD5, the cache's file name.
    package static func md5(_ text: String) -> String {
        var out = [CChar](repeating: 0, count: 33)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { pm_md5_hex($0.baseAddress, $0.count, &out, out.count) }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The valid entry of the bucket holding `side` for the file at `path` as it is now: its
    /// path and size. What `photometa` checks before it starts the thumbnailer.
    package func validEntry(for path: String, side: Int) -> (path: String, width: Int, height: Int)? {
        guard let bucket = Bucket.holding(side), let facts = try? FileFacts.of(path), facts.type == .regular,
            let key = ThumbnailCache.key(path: path, facts: facts)
        else { return nil }
        let at = entryPath(key, bucket)
        guard let entry = validEntry(at: at, for: key), let size = PNGText.size(entry),
            ThumbnailCache.isLargeEnough(size.width, size.height, side: bucket.rawValue, text: PNGText.chunks(entry))
        else { return nil }
        return (at, size.width, size.height)
    }

    /// The entry's bytes when it is valid for `key`: a whole PNG (`PNGText.isWhole`) whose URI
    /// and MTime match (and Size, when it has one). A missing, foreign, stale, cut or unreadable
    /// entry gives nil, and is made again.
    package func validEntry(at path: String, for key: Key) -> [UInt8]? {
        guard let facts = try? FileFacts.of(path, followLinks: false), facts.type == .regular,
            facts.size <= Int64(PNGText.entryMax), let source = try? FileByteSource(path: path),
            let bytes = try? source.read(at: 0, count: Int(facts.size)), bytes.count == Int(facts.size)
        else { return nil }
        let text = PNGText.chunks(bytes)
        guard text["Thumb::URI"] == key.uri, text["Thumb::MTime"] == String(key.mtime) else { return nil }
        if let size = text["Thumb::Size"], size != String(key.size) { return nil }
        return PNGText.isWhole(bytes) ? bytes : nil
    }

    /// Stores `bytes` at `path`, making the folders (0700) on the way.
    package func store(_ bytes: [UInt8], at path: String) throws(PrivateFiles.Problem) {
        try PrivateFiles.ensureFolder(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]))
        try PrivateFiles.replaceAtomically(path, with: bytes)
    }

    /// Why nothing can be stored in `bucket`'s folder (a file where a folder should be, a
    /// folder others may write, no permission), for a message that says what to fix; nil when
    /// its folders pass the checks `store` makes.
    package func storeRefusal(_ bucket: Bucket) -> String? {
        for folder in [root, root + "/" + bucket.folder] where FileSystem.exists(folder) {
            do throws(PrivateFiles.Problem) {
                try PrivateFiles.checkFolder(folder)
            } catch {
                return error.description
            }
            if let e = FileSystem.writeRefusal(folder) { return "\(folder): \(e)" }
        }
        return nil
    }
}

/// PNG text chunks, read the way a thumbnail cache needs them: `tEXt` keyword/value pairs
/// before the image data [PNG 1.2 4.2.3.1]. Only structure is walked (length, type); the CRCs
/// are not checked (a damaged entry merely fails to match and is replaced).
package enum PNGText {
    /// An entry larger than this is not a thumbnail photometa would use.
    static let entryMax = 16 << 20

    /// Width and height from the IHDR chunk, which comes first [PNG 1.2 4.1.1, 11.2.2].
    package static func size(_ png: [UInt8]) -> (width: Int, height: Int)? {
        let reader = BoundedReader(MemoryByteSource(png))
        var size: (Int, Int)?
        _ = try? PNGChunks.walk(reader, limit: 1) { chunk in
            guard chunk.type == "IHDR", chunk.dataStart + 8 <= reader.size else { return false }
            var r = ByteReader(Array(png[Int(chunk.dataStart)..<Int(chunk.dataStart + 8)]))
            if let w = r.u32be(), let h = r.u32be(), w > 0, h > 0 { size = (Int(w), Int(h)) }
            return false
        }
        return size
    }

    /// The entry is a whole PNG: its chunks, each within the file, reach `IEND` after at least
    /// one `IDAT`. An entry cut while written (a full disk, a writer killed) keeps its keys and
    /// loses its end: it would fail every decode, and never be replaced.
    package static func isWhole(_ png: [UInt8]) -> Bool {
        guard png.starts(with: PNGChunks.signature) else { return false }
        var sawData = false
        var ended = false
        _ = try? PNGChunks.walk(BoundedReader(MemoryByteSource(png)), limit: 1 << 16) { chunk in
            guard chunk.next <= Int64(png.count) else { return false }
            if chunk.type == "IDAT" { sawData = true }
            ended = chunk.type == "IEND"
            return !ended
        }
        return sawData && ended
    }

    /// The `tEXt` keyword/value pairs before the image data (the first value of a key kept).
    package static func chunks(_ png: [UInt8]) -> [String: String] {
        guard png.starts(with: PNGChunks.signature) else { return [:] }
        var result: [String: String] = [:]
        _ = try? PNGChunks.walk(BoundedReader(MemoryByteSource(png)), limit: 256) { chunk in
            guard chunk.next - 4 <= Int64(png.count), chunk.type != "IDAT", chunk.type != "IEND" else { return false }
            guard chunk.type == "tEXt" else { return true }
            let data = png[Int(chunk.dataStart)..<Int(chunk.dataStart) + chunk.length]
            if let nul = data.firstIndex(of: 0) {
                // tEXt is Latin-1; the keys photometa reads hold ASCII only.
                let key = String(decoding: data[data.startIndex..<nul], as: UTF8.self)
                let value = String(decoding: data[(nul + 1)...], as: UTF8.self)
                if result[key] == nil { result[key] = value }
            }
            return true
        }
        return result
    }
}
