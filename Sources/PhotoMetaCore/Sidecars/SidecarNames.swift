/// Which files beside a picture may be its sidecars, by name alone: the files the edge tries to
/// open, most specific first. Pure: names in, names out.
///
/// - XMP [XMP Part 3 2.3, "sidecar" files]: darktable writes `NAME.EXT.xmp` (so `IMG_1.CR3` and
///   `IMG_1.JPG` keep apart); digiKam, Lightroom, RawTherapee and exiftool `NAME.xmp` (or
///   `.XMP`). The first is tried first.
/// - Google Takeout: `NAME.EXT.json`, since 2024 `NAME.EXT.supplemental-metadata.json`; the
///   name before `.json` cut to 46 characters when longer (`…supplemental-me.json`; Ente's
///   importer calls it MAX_FILE_NAME_LENGTH_GOOGLE_EXPORT); a duplicate `NAME(1).EXT` pairs with
///   `NAME.EXT(1).json` (the counter after the cut); an edited copy `NAME-edited.EXT` has no
///   JSON of its own and takes the original's. A cut name could belong to another picture with
///   the same first 46 characters: `TakeoutSidecar` checks the JSON's `title` before trusting it.
package enum SidecarNames {
    /// The kinds of sidecar read.
    package enum Kind: String, Sendable {
        case xmp = "sidecar.xmp"
        case takeout = "sidecar.takeout"
    }

    /// How long Takeout lets the part of a JSON name before `(n).json` be.
    package static let takeoutStemMax = 46

    /// The candidate sidecar names of the file named `name` (no folder), in the order tried.
    package static func candidates(for name: String) -> [(kind: Kind, name: String)] {
        guard !name.isEmpty, !isSidecar(name) else { return [] }
        var out: [(Kind, String)] = []
        let stem = stemOf(name)
        for n in [name + ".xmp", name + ".XMP"] + (stem == name ? [] : [stem + ".xmp", stem + ".XMP"]) {
            out.append((.xmp, n))
        }
        let (original, counter) = takeoutOriginal(of: name)
        for full in [original + ".supplemental-metadata", original] {
            let cut = String(full.prefix(takeoutStemMax))
            let json = cut + counter + ".json"
            if !out.contains(where: { $0.1 == json }) { out.append((.takeout, json)) }
        }
        return out.map { (kind: $0.0, name: $0.1) }
    }

    /// The name Takeout gave the picture's JSON is built on (`NAME.EXT`), and the duplicate
    /// counter (`(1)`) to put after it, for a picture named `name`.
    package static func takeoutOriginal(of name: String) -> (original: String, counter: String) {
        let stem = stemOf(name)
        let ext = stem == name ? "" : String(name.dropFirst(stem.count))
        if stem.hasSuffix("-edited"), stem.count > "-edited".count {
            return (String(stem.dropLast("-edited".count)) + ext, "")
        }
        // `NAME(n)`: a counter of 1 to 3 digits in parentheses ends the stem.
        if stem.hasSuffix(")"), let open = stem.lastIndex(of: "("), open != stem.startIndex {
            let digits = stem[stem.index(after: open)..<stem.index(before: stem.endIndex)]
            if (1...3).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
                return (String(stem[..<open]) + ext, "(" + digits + ")")
            }
        }
        return (name, "")
    }

    /// The titles a Takeout JSON may carry for the picture named `name`: its own, or the
    /// original's for an edited copy or a duplicate.
    package static func acceptedTitles(for name: String) -> [String] {
        let original = takeoutOriginal(of: name).original
        return original == name ? [name] : [name, original]
    }

    /// A name that is a sidecar (ends in `.xmp` or `.json`, any case): never media, never given
    /// sidecars of its own.
    package static func isSidecar(_ name: String) -> Bool {
        let lower = name.suffix(5).lowercased()
        return lower.hasSuffix(".xmp") || lower == ".json"
    }

    /// The name without its last extension (`IMG_1.CR3` → `IMG_1`); a leading dot is kept.
    static func stemOf(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
