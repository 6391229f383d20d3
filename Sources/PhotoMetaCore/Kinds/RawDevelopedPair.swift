/// A camera's raw original and the picture it developed in the same shot, written side by side
/// under one base name: `IMG_0001.CR3` and `IMG_0001.JPG` (Canon's RAW+JPEG), `DSC_0001.NEF` and
/// `DSC_0001.JPG`, `20240101_120000.dng` and `20240101_120000.jpg` (Samsung's Pro mode), a
/// Pixel's `PXL_….RAW-02.ORIGINAL.dng` and `PXL_….RAW-01.COVER.jpg` (the `.RAW-` tail is not
/// part of the shot's name). The developed picture is the one a chat sends and a picker shows
/// first; the raw of such a pair is not offered nor listed by `recent` (`MediaRule`). A raw
/// alone (an iPhone's ProRAW, a camera set to raw only) is a picture like any other.
///
/// Judged by names alone, within one folder: the listing says it before anything is parsed.
package enum RawDevelopedPair {
    /// Raw originals' extensions (lowercase): DNG and the cameras' own.
    static let rawExtensions: Set<String> = [
        "dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "raf", "orf", "rw2", "pef", "srw", "mrw",
        "x3f", "3fr", "iiq", "rwl", "erf", "kdc", "dcr", "mos", "gpr", "fff",
    ]
    /// What a camera or phone develops beside the raw (lowercase).
    static let developedExtensions: Set<String> = ["jpg", "jpeg", "heic", "heif", "hif"]

    /// The shot's key of a raw original's name (a path or a name): its base name, lowercased,
    /// a Pixel's `.RAW-` tail cut; nil for any other name.
    package static func rawKey(_ path: String) -> String? { key(path, codes: rawCodes) }

    /// Whether `path`'s extension is a raw original's: a few byte compares, nothing made.
    package static func isRawName(_ path: String) -> Bool {
        let u = path.utf8
        guard let dot = u.lastIndex(of: UInt8(ascii: ".")), let code = extensionCode(u[u.index(after: dot)...]) else {
            return false
        }
        return rawCodes.contains(code)
    }

    /// The shot's key of a developed picture's name; nil for any other name.
    package static func developedKey(_ path: String) -> String? { key(path, codes: developedCodes) }

    /// The extension sets as codes (`extensionCode`), so a name is judged by a few byte
    /// compares and nothing is made for the names that are neither (every scan asks it of
    /// every file).
    static let rawCodes = Set(rawExtensions.compactMap { extensionCode($0.utf8) })
    static let developedCodes = Set(developedExtensions.compactMap { extensionCode($0.utf8) })

    /// An extension of 1 to 5 bytes, lowercased, packed into an integer; nil for a longer one.
    static func extensionCode<C: Collection>(_ bytes: C) -> UInt64? where C.Element == UInt8 {
        guard !bytes.isEmpty, bytes.count <= 5 else { return nil }
        var code: UInt64 = 0
        for b in bytes { code = code << 8 | UInt64(b >= 0x41 && b <= 0x5A ? b | 0x20 : b) }
        return code
    }

    static func key(_ path: String, codes: Set<UInt64>) -> String? {
        let u = path.utf8
        guard let dot = u.lastIndex(of: UInt8(ascii: ".")), let code = extensionCode(u[u.index(after: dot)...]),
            codes.contains(code)
        else { return nil }
        let slash = u[..<dot].lastIndex(of: UInt8(ascii: "/")).map { u.index(after: $0) } ?? u.startIndex
        guard slash < dot else { return nil }
        var stem = u[slash..<dot].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        // A Pixel's RAW+JPEG: "PXL_20240101_120000123.RAW-02.ORIGINAL" and
        // "PXL_20240101_120000123.RAW-01.MP.COVER" are one shot.
        let marker = Array(".raw-".utf8)
        if stem.count > marker.count,
            let cut = (0...(stem.count - marker.count)).first(where: { stem[$0..<$0 + marker.count].elementsEqual(marker) })
        {
            stem.removeSubrange(cut...)
        }
        return String(decoding: stem, as: UTF8.self)
    }
}
