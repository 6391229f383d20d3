/// The one Live Photo pairing rule, used by `inspect` (on a file and the files it may pair
/// with) and by `suggest` and `watch` (on a folder's files). Pure: paths, kinds, identifiers,
/// dates and durations in, pairs out. docs/kinds.md states the rule:
///
/// - A *still* is a HEIC, HEIF or JPEG file (by extension, any case) whose kind is photo or
///   screenshot; a *movie* is a `.mov` file (any case) whose kind is video. A still and a movie
///   pair only within one folder.
/// - Three passes, each over the files the earlier ones left free, movies in path byte order:
///   1. *identifier, same base name*: a movie pairs with the first still of its base name
///      that carries its content identifier;
///   2. *identifier*: then with the first still of the folder that carries it (an export or an
///      AirDrop renames one half; the identifier still says they belong together);
///   3. *base name and time*: then with the first still of its base name whose identifier does
///      not contradict it (one of the two has none), and only when the movie is a short clip
///      (`maximumMovieSeconds`) whose capture time is within `maximumCaptureGap` of the
///      still's. Two unrelated `fixture.jpg` and `fixture.mov` do not pair.
///   Two different identifiers never pair. Each file has at most one partner.
///
/// Passes 1 and 3 look only at one base name, pass 2 only at one identifier: the answer for a
/// file follows from its base-name group and the files sharing the group's identifiers. That is
/// what lets `inspect` pair one file without reading every file of its folder, and agree with
/// `suggest` (`neededIdentifiers(for:)` says when it must look further).
package enum LivePhotoPairing {
    package static let movieExtensions: Set<String> = ["mov"]
    package static let stillExtensions: Set<String> = ["heic", "heif", "jpg", "jpeg"]
    /// The spellings of those extensions cameras, phones and copies write (`.HEIC`, `.heic`,
    /// `.Heic`, `.MOV`, `.Mov`...): a partner is looked up by name with these when the folder is
    /// not listed, or not listed again. (Pairing itself takes any case; a mixed case beyond
    /// these, `.hEiC`, is found only where the folder is listed.)
    package static let extensionSpellings = [
        "HEIC", "heic", "Heic", "HEIF", "heif", "Heif", "JPG", "jpg", "Jpg", "JPEG", "jpeg", "Jpeg", "MOV", "mov", "Mov",
    ]
    /// A Live Photo movie is about 3 s (1.5 s either side of the still); edited ones are
    /// shorter. A longer clip with the same name is a video of its own.
    package static let maximumMovieSeconds = 6.0
    /// The movie starts about 1.5 s before the still; clocks written by different code paths
    /// (EXIF in whole seconds, QuickTime dates) round differently.
    package static let maximumCaptureGap = 5.0

    /// What the rule needs to know about one file.
    package struct Member: Sendable, Equatable {
        package var path: String
        package var kind: MediaKind
        package var contentIdentifier: String?
        package var captured: CaptureDate?
        package var durationSeconds: Double?

        package init(
            path: String, kind: MediaKind, contentIdentifier: String?, captured: CaptureDate? = nil,
            durationSeconds: Double? = nil
        ) {
            self.path = path
            self.kind = kind
            self.contentIdentifier = contentIdentifier
            self.captured = captured
            self.durationSeconds = durationSeconds
        }
    }

    /// One pair: indices into the members, and the pass that paired them.
    package struct Pair: Sendable, Equatable {
        package var still: Int
        package var movie: Int
        package var evidence: LivePhotoEvidence
    }

    /// The pairs among `members`. Members may come from several folders and in any order.
    package static func pairs(_ members: [Member]) -> [Pair] {
        var stillsByStem: [String: [Int]] = [:]
        var stillsByID: [String: [String: [Int]]] = [:]  // folder -> identifier -> stills
        var movies: [Int] = []
        // By member: a member's place is its index, no dictionary needed.
        var stemOf = [String?](repeating: nil, count: members.count)
        var folderOf = [String?](repeating: nil, count: members.count)
        stillsByStem.reserveCapacity(members.count)
        for (i, m) in members.enumerated() {
            guard let (dir, key, r) = role(of: m) else { continue }
            stemOf[i] = key
            folderOf[i] = dir
            switch r {
            case .still:
                stillsByStem[key, default: []].append(i)
                if let id = m.contentIdentifier { stillsByID[dir, default: [:]][id, default: []].append(i) }
            case .movie: movies.append(i)
            }
        }
        let byPath: (Int, Int) -> Bool = { members[$0].path.utf8.lexicographicallyPrecedes(members[$1].path.utf8) }
        movies.sort(by: byPath)
        for k in stillsByStem.keys { stillsByStem[k]?.sort(by: byPath) }
        for d in stillsByID.keys { for id in stillsByID[d, default: [:]].keys { stillsByID[d]?[id]?.sort(by: byPath) } }

        var taken = Set<Int>()
        var result: [Pair] = []
        func take(_ still: Int, _ movie: Int, _ e: LivePhotoEvidence) {
            taken.insert(still)
            taken.insert(movie)
            result.append(Pair(still: still, movie: movie, evidence: e))
        }
        // 1. Identifier within the base name.
        for movie in movies {
            guard let id = members[movie].contentIdentifier, let stem = stemOf[movie] else { continue }
            if let s = stillsByStem[stem]?.first(where: { !taken.contains($0) && members[$0].contentIdentifier == id }) {
                take(s, movie, .contentIdentifier)
            }
        }
        // 2. Identifier across the folder.
        for movie in movies where !taken.contains(movie) {
            guard let id = members[movie].contentIdentifier, let dir = folderOf[movie] else { continue }
            if let s = stillsByID[dir]?[id]?.first(where: { !taken.contains($0) }) {
                take(s, movie, .contentIdentifier)
            }
        }
        // 3. Base name, guarded by the clip's length and the capture times.
        for movie in movies where !taken.contains(movie) {
            guard let stem = stemOf[movie], isShortClip(members[movie]) else { continue }
            let id = members[movie].contentIdentifier
            let pick = stillsByStem[stem]?.first { s in
                !taken.contains(s) && (members[s].contentIdentifier == nil || id == nil)
                    && capturedTogether(members[s].captured, members[movie].captured)
            }
            if let s = pick { take(s, movie, .baseNameAndTime) }
        }
        return result.sorted { $0.still < $1.still }
    }

    /// The identifiers whose files `inspect` must also see to pair the member at `index` as a
    /// whole folder would: none when passes 1 settle it or nothing in its base-name group is
    /// left with an identifier. `members` holds the file and its base-name group.
    package static func neededIdentifiers(for index: Int, in members: [Member]) -> Set<String> {
        let settled = pairs(members)
        var taken = Set<Int>()
        for p in settled
        where p.evidence == .contentIdentifier && stem(of: members[p.still].path) == stem(of: members[p.movie].path) {
            taken.insert(p.still)
            taken.insert(p.movie)
        }
        guard !taken.contains(index) else { return [] }
        var ids = Set<String>()
        for (i, m) in members.enumerated() where !taken.contains(i) && role(of: m) != nil {
            if let id = m.contentIdentifier { ids.insert(id) }
        }
        return ids
    }

    /// Pass 3's condition on the movie.
    static func isShortClip(_ m: Member) -> Bool {
        guard let d = m.durationSeconds else { return false }
        return d >= 0 && d <= maximumMovieSeconds
    }

    /// Pass 3's condition on the two capture times. When both are exact (an offset or an
    /// instant) they must be within the gap. When neither says its zone they are compared as
    /// written (one camera, one clock). When only one does, the other's unknown zone can shift
    /// it by a whole quarter hour (zones are multiples of 15 minutes, within ±14 h): the gap is
    /// measured to the nearest such shift.
    static func capturedTogether(_ a: CaptureDate?, _ b: CaptureDate?) -> Bool {
        guard let a, let b, a.hasTime, b.hasTime else { return false }
        let delta = abs(a.secondsIgnoringUnknownZone - b.secondsIgnoringUnknownZone)
        guard delta.isFinite else { return false }
        if a.isExact == b.isExact { return delta <= maximumCaptureGap }
        let quarter = 900.0
        guard delta <= 14 * 3600 + maximumCaptureGap else { return false }
        let shift = (delta / quarter).rounded() * quarter
        return abs(delta - shift) <= maximumCaptureGap
    }

    /// The base-name key ("dir/IMG_0001") of the names that may pair with `path`, or nil when
    /// its extension is not one of the rule's.
    package static func stem(of path: String) -> String? {
        let (dir, base, ext) = split(path)
        guard !base.isEmpty, isPairable(ext) else { return nil }
        // dir and base lie side by side in the path: one copy, not two and a concatenation.
        return String(path[dir.startIndex..<base.endIndex])
    }

    /// `ext`, in any case, is one of `stillExtensions` or `movieExtensions`: compared as its
    /// lowercased bytes packed in a number, not as a lowercased string hashed into a set (every
    /// file of a folder asks, when its first file is parsed).
    static func isPairable(_ ext: Substring) -> Bool {
        guard let code = extensionCode(ext.utf8) else { return false }
        return pairableExtensionCodes.contains(code)
    }

    /// An extension of 1-4 ASCII bytes, lowercased and packed; nil for any other.
    private static func extensionCode<C: Collection>(_ bytes: C) -> UInt32? where C.Element == UInt8 {
        var code: UInt32 = 0
        var n = 0
        for b in bytes {
            guard n < 4, b < 0x80 else { return nil }
            code = code << 8 | UInt32(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)
            n += 1
        }
        return n > 0 ? code : nil
    }

    private static let stillExtensionCodes: [UInt32] = stillExtensions.compactMap { extensionCode($0.utf8) }
    private static let movieExtensionCodes: [UInt32] = movieExtensions.compactMap { extensionCode($0.utf8) }
    private static let pairableExtensionCodes = stillExtensionCodes + movieExtensionCodes

    /// True for a name the rule may pair (by extension alone; the kind decides the rest).
    package static func canPair(_ path: String) -> Bool { stem(of: path) != nil }

    /// True for a name a movie half may have (`movieExtensions`, any case): a folder without
    /// one has no pair, whatever its files hold.
    package static func isMovieName(_ path: String) -> Bool {
        let (_, base, ext) = split(path)
        guard !base.isEmpty, let code = extensionCode(ext.utf8) else { return false }
        return movieExtensionCodes.contains(code)
    }

    private enum Role { case still, movie }

    private static func role(of m: Member) -> (dir: String, key: String, role: Role)? {
        let (dir, base, ext) = split(m.path)
        guard !base.isEmpty, let code = extensionCode(ext.utf8) else { return nil }
        let role: Role
        switch m.kind {
        case .photo, .screenshot, .livePhoto:
            guard stillExtensionCodes.contains(code) else { return nil }
            role = .still
        case .video:
            guard movieExtensionCodes.contains(code) else { return nil }
            role = .movie
        case .gif, .unknown: return nil
        }
        // dir and base lie side by side in the path: the key is one slice of it.
        return (String(dir), String(m.path[dir.startIndex..<base.endIndex]), role)
    }

    /// ("dir/", "IMG_0001", "HEIC") for "dir/IMG_0001.HEIC". Searches the UTF-8 bytes: "/" and
    /// "." are ASCII, so their positions are character boundaries, and a byte search costs a
    /// fraction of a Character search (this runs for every file of every folder `suggest`
    /// reads: 12 % of a warm run, perf).
    package static func split(_ path: String) -> (dir: Substring, base: Substring, ext: Substring) {
        let bytes = path.utf8
        var nameStart = path.startIndex
        if let slash = path.lastIndex(ofASCII: UInt8(ascii: "/")) { nameStart = bytes.index(after: slash) }
        let dir = path[..<nameStart]
        let name = path[nameStart...]
        guard let dot = name.lastIndex(ofASCII: UInt8(ascii: ".")), dot != name.startIndex else { return (dir, name, "") }
        return (dir, name[..<dot], name[name.utf8.index(after: dot)...])
    }
}

/// Which rule paired a Live Photo's still and movie (`livePhotoEvidence` in reports).
public enum LivePhotoEvidence: String, Sendable, Equatable, Codable {
    /// Both carry the same Apple content identifier.
    case contentIdentifier
    /// Same base name, neither identifier contradicts, the movie is a short clip and the two
    /// were captured within seconds of each other.
    case baseNameAndTime
    /// Not a pair: a Google Motion Photo, its video inside the still's file (the XMP
    /// container directory, or the older MicroVideo properties).
    case motionPhotoGoogle = "motionPhoto.google"
    /// Not a pair: a Samsung Motion Photo, its video in the trailer after the JPEG.
    case motionPhotoSamsung = "motionPhoto.samsung"

    /// The file states it itself (a Motion Photo), not a pairing of two files.
    public var isMotionPhoto: Bool { self == .motionPhotoGoogle || self == .motionPhotoSamsung }

    /// How text output says it ("same content identifier").
    package var phrase: String {
        switch self {
        case .contentIdentifier: return "same content identifier"
        case .baseNameAndTime: return "same name, captured together"
        case .motionPhotoGoogle: return "Google Motion Photo"
        case .motionPhotoSamsung: return "Samsung Motion Photo"
        }
    }
}
