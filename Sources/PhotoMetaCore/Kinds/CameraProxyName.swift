/// A camera's stand-in for a clip, written beside it: its cover, the small JPEG with the
/// extension `.THM` that Canon, GoPro, Sony and other DCF cameras write under the clip's name
/// (the DCF thumbnail file, whose EXIF InteroperabilityIndex says "THM" [EXIF 2.32 4.6.7, DCF
/// 2.0]) or that Sony's XAVC cameras keep in `PRIVATE/M4ROOT/THMBNL` (`C0001T01.JPG`); or its
/// low-resolution copy for previews on a phone: GoPro's and Insta360's `.LRV`, DJI's `.LRF` (an
/// MP4 under another name), Insta360's `LRV_` files beside the `VID_` ones (`.insv`, `.mp4`),
/// Sony's proxies in `PRIVATE/M4ROOT/SUB` (`C0001S03.MP4`). `inspect`
/// reports each as the file it is; none is a picture or a video the user took but the clip's,
/// so nothing offers it and `recent` does not list it (`MediaRule`): in a camera's folder it
/// would stand beside its clip as a second, smaller copy of the same moment.
package enum CameraProxyName {
    package enum Proxy: Sendable, Equatable {
        /// `.THM`, or a JPEG in `M4ROOT/THMBNL`: a cover.
        case thumbnail
        /// `.LRV`, `.LRF`, `LRV_…`, or a movie in `M4ROOT/SUB`: a low-resolution movie.
        case lowResolutionCopy

        /// Why the file is not offered (`MediaRule`'s reason).
        package var reason: String {
            switch self {
            case .thumbnail: return "a camera's thumbnail of a movie (.THM, M4ROOT/THMBNL)"
            case .lowResolutionCopy: return "a camera's low-resolution copy of a movie (.LRV, .LRF, LRV_, M4ROOT/SUB)"
            }
        }
    }

    /// What `path` (a path or a name) stands in for, by its extension or its folders, in any
    /// case; nil for anything else. Byte compares only: it is asked of every candidate.
    package static func proxy(_ path: String) -> Proxy? {
        let u = path.utf8
        guard let dot = u.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let ext = u[u.index(after: dot)...]
        if equalsFolded(ext, "thm") { return .thumbnail }
        if equalsFolded(ext, "lrv") || equalsFolded(ext, "lrf") { return .lowResolutionCopy }
        // Insta360's helper files: `LRV_20220110_121609_11_657.insv` beside `VID_…`.
        let slash = u[..<dot].lastIndex(of: UInt8(ascii: "/"))
        let nameStart = slash.map { u.index(after: $0) } ?? u.startIndex
        if let prefixEnd = u.index(nameStart, offsetBy: 4, limitedBy: dot), equalsFolded(u[nameStart..<prefixEnd], "lrv_") {
            return .lowResolutionCopy
        }
        // Sony's XAVC layout: the clip's folder's siblings under PRIVATE/M4ROOT.
        guard let slash else { return nil }
        let folderEnd = slash
        let folderStart = u[..<folderEnd].lastIndex(of: UInt8(ascii: "/")).map { u.index(after: $0) } ?? u.startIndex
        guard folderStart > u.startIndex else { return nil }
        let parentEnd = u.index(before: folderStart)
        let parentStart = u[..<parentEnd].lastIndex(of: UInt8(ascii: "/")).map { u.index(after: $0) } ?? u.startIndex
        guard equalsFolded(u[parentStart..<parentEnd], "m4root") else { return nil }
        let folder = u[folderStart..<folderEnd]
        if equalsFolded(folder, "thmbnl") { return .thumbnail }
        if equalsFolded(folder, "sub") { return .lowResolutionCopy }
        return nil
    }

    /// Whether `bytes`, ASCII letters folded to lower case, are `lower`.
    static func equalsFolded(_ bytes: Substring.UTF8View.SubSequence, _ lower: StaticString) -> Bool {
        guard bytes.count == lower.utf8CodeUnitCount else { return false }
        return lower.withUTF8Buffer { l in
            zip(bytes, l).allSatisfy { b, e in (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) == e }
        }
    }
}
