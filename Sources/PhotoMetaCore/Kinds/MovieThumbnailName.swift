/// A camera's thumbnail of a movie: the small JPEG that Canon, GoPro, Sony and other DCF
/// cameras write beside each clip under the clip's name with the extension `.THM` (the DCF
/// thumbnail file, whose EXIF InteroperabilityIndex says "THM" [EXIF 2.32 4.6.7, DCF 2.0]).
/// `inspect` reports it as the JPEG it is; it is no picture the user took but the clip's cover,
/// so nothing offers it and `recent` does not list it (`MediaRule`): in a camera's folder it
/// would stand beside its clip as a second, tiny copy of the same moment.
package enum MovieThumbnailName {
    /// True when `path` (a path or a name) ends in `.thm`, in any case.
    package static func matches(_ path: String) -> Bool {
        let u = path.utf8
        guard u.count >= 4 else { return false }
        let tail = u.suffix(4)
        let expected: [UInt8] = [0x2E, 0x74, 0x68, 0x6D]  // ".thm"
        return zip(tail, expected).allSatisfy { b, e in (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) == e }
    }
}
