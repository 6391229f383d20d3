/// The one Live Photo pairing rule, used by `inspect` (on a file and the files beside it) and
/// by `suggest` and `watch` (on a folder's files). Pure: paths, kinds and identifiers in, pairs
/// out. docs/kinds.md states the rule:
///
/// - A *still* is a HEIC, HEIF or JPEG file (by extension, any case) whose kind is photo or
///   screenshot; a *movie* is a `.mov` file (any case) whose kind is video.
/// - A still and a movie can pair only when they are in the same folder with the same base name
///   (`IMG_0001.HEIC` + `IMG_0001.MOV`).
/// - Among those, content identifiers decide first: a movie pairs with the still that carries
///   its identifier. Otherwise it pairs with the first still (in path byte order) whose
///   identifier does not contradict it (one of the two has none). Two different identifiers
///   never pair. Each file has at most one partner.
///
/// Because pairs never cross base names, looking at the files that share a base name gives the
/// same answer as looking at the whole folder: that is what lets `inspect` pair one file
/// without reading its folder, and agree with `suggest`.
package enum LivePhotoPairing {
    package static let movieExtensions: Set<String> = ["mov"]
    package static let stillExtensions: Set<String> = ["heic", "heif", "jpg", "jpeg"]

    /// What the rule needs to know about one file.
    package struct Member: Sendable, Equatable {
        package var path: String
        package var kind: MediaKind
        package var contentIdentifier: String?

        package init(path: String, kind: MediaKind, contentIdentifier: String?) {
            self.path = path
            self.kind = kind
            self.contentIdentifier = contentIdentifier
        }
    }

    /// The pairs among `members` (indices into it). Members may come from several folders and
    /// in any order.
    package static func pairs(_ members: [Member]) -> [(still: Int, movie: Int)] {
        var groups: [String: (stills: [Int], movies: [Int])] = [:]
        for (i, m) in members.enumerated() {
            guard let (key, role) = role(of: m) else { continue }
            switch role {
            case .still: groups[key, default: ([], [])].stills.append(i)
            case .movie: groups[key, default: ([], [])].movies.append(i)
            }
        }
        var result: [(still: Int, movie: Int)] = []
        let byPath: (Int, Int) -> Bool = { members[$0].path.utf8.lexicographicallyPrecedes(members[$1].path.utf8) }
        for key in groups.keys.sorted() {
            guard let g = groups[key], !g.stills.isEmpty, !g.movies.isEmpty else { continue }
            var free = g.stills.sorted(by: byPath)
            for movie in g.movies.sorted(by: byPath) {
                let id = members[movie].contentIdentifier
                let pick =
                    free.firstIndex { id != nil && members[$0].contentIdentifier == id }
                    ?? free.firstIndex { members[$0].contentIdentifier == nil || id == nil }
                guard let k = pick else { continue }
                result.append((free[k], movie))
                free.remove(at: k)
            }
        }
        return result.sorted { $0.still < $1.still }
    }

    /// The base-name key ("dir/IMG_0001") of the names that may pair with `path`, or nil when
    /// its extension is not one of the rule's.
    package static func stem(of path: String) -> String? {
        let (dir, base, ext) = split(path)
        let e = ext.lowercased()
        guard !base.isEmpty, stillExtensions.contains(e) || movieExtensions.contains(e) else { return nil }
        return String(dir) + String(base)
    }

    private enum Role { case still, movie }

    private static func role(of m: Member) -> (String, Role)? {
        let (dir, base, ext) = split(m.path)
        let e = ext.lowercased()
        let key = String(dir) + String(base)
        switch m.kind {
        case .photo, .screenshot, .livePhoto: return stillExtensions.contains(e) ? (key, .still) : nil
        case .video: return movieExtensions.contains(e) ? (key, .movie) : nil
        case .gif, .unknown: return nil
        }
    }

    /// ("dir/", "IMG_0001", "HEIC") for "dir/IMG_0001.HEIC".
    package static func split(_ path: String) -> (dir: Substring, base: Substring, ext: Substring) {
        var dir = Substring("")
        var name = Substring(path)
        if let slash = path.lastIndex(of: "/") {
            dir = path[...slash]
            name = path[path.index(after: slash)...]
        }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (dir, name, "") }
        return (dir, name[..<dot], name[name.index(after: dot)...])
    }
}
