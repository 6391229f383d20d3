/// A camera's stand-in for a clip, written beside it under the clip's name: its cover, the small
/// JPEG with the extension `.THM` that Canon, GoPro, Sony and other DCF cameras write (the DCF
/// thumbnail file, whose EXIF InteroperabilityIndex says "THM" [EXIF 2.32 4.6.7, DCF 2.0]), or
/// its low-resolution copy for previews on a phone: GoPro's and Insta360's `.LRV`, DJI's `.LRF`
/// (an MP4 under another name). `inspect` reports each as the file it is; neither is a picture
/// or a video the user took but the clip's, so nothing offers it and `recent` does not list it
/// (`MediaRule`): in a camera's folder it would stand beside its clip as a second, smaller copy
/// of the same moment.
package enum CameraProxyName {
    package enum Proxy: Sendable, Equatable {
        /// `.THM`: a JPEG cover.
        case thumbnail
        /// `.LRV`, `.LRF`: a low-resolution movie.
        case lowResolutionCopy

        /// Why the file is not offered (`MediaRule`'s reason).
        package var reason: String {
            switch self {
            case .thumbnail: return "a camera's thumbnail of a movie (.THM)"
            case .lowResolutionCopy: return "a camera's low-resolution copy of a movie (.LRV, .LRF)"
            }
        }
    }

    /// What `path` (a path or a name) stands in for, by its extension in any case; nil for
    /// anything else.
    package static func proxy(_ path: String) -> Proxy? {
        let u = path.utf8
        guard u.count >= 4 else { return nil }
        var tail: [UInt8] = []
        for b in u.suffix(4) { tail.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b) }
        switch tail {
        case Array(".thm".utf8): return .thumbnail
        case Array(".lrv".utf8), Array(".lrf".utf8): return .lowResolutionCopy
        default: return nil
        }
    }
}
