/// Pairs Live Photo stills with their movies among the files of one scan (pure: names and
/// identifiers in, pairs out). A still and a movie pair when they share a folder and a base
/// name (`IMG_0001.HEIC` + `IMG_0001.MOV`) and their content identifiers do not disagree, or
/// when their content identifiers are equal whatever their names.
public enum LivePhotoPairing {
    static let movieExtensions: Set<String> = ["mov"]
    static let stillExtensions: Set<String> = ["heic", "jpg", "jpeg"]

    /// ("dir/", "IMG_0001", "HEIC") for "dir/IMG_0001.HEIC".
    static func split(_ path: String) -> (dir: Substring, base: Substring, ext: Substring) {
        var dir = Substring("")
        var name = Substring(path)
        if let slash = path.lastIndex(of: "/") {
            dir = path[...slash]
            name = path[path.index(after: slash)...]
        }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (dir, name, "") }
        return (dir, name[..<dot], name[name.index(after: dot)...])
    }

    /// Sets `livePhotoPair` on both halves and turns paired stills into `livePhoto`.
    public static func pair(_ candidates: inout [SuggestionCandidate]) {
        var moviesByName: [String: Int] = [:]
        var moviesByID: [String: Int] = [:]
        for (i, c) in candidates.enumerated() where c.kind == .video {
            let (dir, base, ext) = split(c.path)
            guard movieExtensions.contains(ext.lowercased()) else { continue }
            moviesByName[String(dir) + String(base)] = i
            if let id = c.contentIdentifier { moviesByID[id] = i }
        }
        guard !moviesByName.isEmpty else { return }
        for i in candidates.indices {
            let c = candidates[i]
            guard c.kind == .photo || c.kind == .screenshot || c.kind == .livePhoto else { continue }
            let (dir, base, ext) = split(c.path)
            guard stillExtensions.contains(ext.lowercased()) else { continue }
            var partner: Int?
            if let id = c.contentIdentifier, let m = moviesByID[id] {
                partner = m
            } else if let m = moviesByName[String(dir) + String(base)] {
                let theirs = candidates[m].contentIdentifier
                if c.contentIdentifier == nil || theirs == nil || theirs == c.contentIdentifier { partner = m }
            }
            guard let m = partner, candidates[m].livePhotoPair == nil || candidates[m].livePhotoPair == c.path else { continue }
            candidates[i].livePhotoPair = candidates[m].path
            candidates[i].kind = .livePhoto
            candidates[m].livePhotoPair = c.path
        }
    }
}
