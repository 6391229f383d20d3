import PhotoMetaCore

/// The live library's folders and their candidates, with what lets an answer pass over most
/// of them: each folder's capture span, the folders newest first, and counts per served root.
/// Candidates are kept with their paths cut to what follows the folder (and so are Live Photo
/// partners, which are in the same folder): most names fit in a string's inline bytes, a full
/// path does not, and a million-file library is held in memory (docs/service.md).
struct LibraryFolders {
    /// The served roots (canonical), for the counts per root.
    let roots: [String]
    /// Canonical folder path → its candidates, paired, paths cut to the name. Keyed by the
    /// path's bytes (`PathKey`): two folders whose names differ only in Unicode normalization
    /// are two folders on Linux, though Swift's `String` calls them equal.
    private var lists: [PathKey: [SuggestionCandidate]] = [:]
    /// Canonical folder path → the earliest and latest capture of its files
    /// (`RecencyRule.span(of:)`); absent for a folder without dated files.
    private var spans: [PathKey: ClosedRange<Double>] = [:]
    /// The keys in byte order, kept until the set of folders changes.
    private var ordered: [PathKey]?
    /// The dated folders, latest capture first, kept until a span changes.
    private var newest: [(latest: Double, folder: PathKey)]?
    /// Served root → how many candidates lie in it (below it, nested roots included).
    private var perRoot: [PathKey: Int] = [:]
    /// How many candidates are held.
    private(set) var fileCount = 0

    init(roots: [String]) { self.roots = roots }

    var keys: Dictionary<PathKey, [SuggestionCandidate]>.Keys { lists.keys }

    func contains(_ folder: String) -> Bool { lists[PathKey(folder)] != nil }

    /// How many candidates `folder` holds.
    func count(in folder: PathKey) -> Int { lists[folder]?.count ?? 0 }

    /// How many candidates `folder` and the folders below it hold.
    func count(within folder: String) -> Int {
        lists.reduce(0) { $0 + ($1.key.isWithin(folder) ? $1.value.count : 0) }
    }

    /// How many candidates the served root `root` holds.
    func count(inRoot root: String) -> Int { perRoot[PathKey(root)] ?? 0 }

    mutating func removeAll() { self = LibraryFolders(roots: roots) }

    /// Sets `folder`'s candidates (their paths below it, as a scan gives them).
    /// The list is taken, not copied: its paths are cut in place (a folder of 50,000 files
    /// moved in is held once, not twice).
    mutating func store(_ folder: String, _ list: consuming [SuggestionCandidate]) {
        let key = PathKey(folder)
        let cut = folder.utf8.count + (folder == "/" ? 0 : 1)
        func name(_ path: String) -> String {
            String(decoding: path.utf8.dropFirst(path.utf8.count > cut ? cut : 0), as: UTF8.self)
        }
        let count = list.count
        let span = RecencyRule.span(of: list)
        var kept = consume list
        for i in kept.indices {
            kept[i].path = name(kept[i].path)
            kept[i].livePhotoPair = kept[i].livePhotoPair.map(name)
        }
        if let before = lists.updateValue(kept, forKey: key) {
            add(-before.count, in: folder)
        } else {
            ordered = nil
        }
        add(count, in: folder)
        if span != spans[key] { newest = nil }
        spans[key] = span
    }

    /// `folder`'s candidates as held: paths cut to their names, in the listing's order.
    func list(in folder: PathKey) -> [SuggestionCandidate]? { lists[folder] }

    /// Replaces `folder`'s candidates named `names` with `new` (what those names hold now,
    /// canonical paths, in the listing's order, none paired), in place: the list stays in the
    /// listing's order (the names' bytes) and is not copied (`NamedLook`).
    mutating func replace(in folder: String, names: Set<PathKey>, with new: [SuggestionCandidate]) {
        let key = PathKey(folder)
        guard var list = lists.removeValue(forKey: key) else { return }
        let before = list.count
        let gone = names.compactMap { n in
            LibraryFolders.place(of: n.path, in: list).flatMap { PathKey(list[$0].path) == n ? $0 : nil }
        }
        if let first = gone.min() {
            let drop = Set(gone)
            var w = first
            for i in first..<list.count where !drop.contains(i) {
                if w != i { list.swapAt(w, i) }
                w += 1
            }
            list.removeLast(list.count - w)
        }
        let cut = folder.utf8.count + (folder == "/" ? 0 : 1)
        let added = new.map { c in
            var c = c
            c.path = String(decoding: c.path.utf8.dropFirst(c.path.utf8.count > cut ? cut : 0), as: UTF8.self)
            return c
        }
        // Each new candidate's place among the old ones, then one pass from the end.
        let places = added.map { LibraryFolders.place(of: $0.path, in: list) ?? list.count }
        var i = list.count - 1
        // Room by an eighth, not by doubling: a folder filling a few names at a time is moved
        // now and then, and never held at twice its size.
        if list.capacity < list.count + added.count { list.reserveCapacity(list.count + max(added.count, list.count / 8)) }
        list += added
        var w = list.count - 1
        for j in added.indices.reversed() {
            while i >= places[j] {
                list.swapAt(w, i)
                (w, i) = (w - 1, i - 1)
            }
            list[w] = added[j]
            w -= 1
        }
        add(list.count - before, in: folder)
        let span = RecencyRule.span(of: list)
        if span != spans[key] { newest = nil }
        spans[key] = span
        lists[key] = list
    }

    /// True when `list` (a folder's, names in byte order) holds `name`.
    static func holds(_ name: String, in list: [SuggestionCandidate]) -> Bool {
        place(of: name, in: list).map { PathKey(list[$0].path) == PathKey(name) } ?? false
    }

    /// The first place in `list` (names in byte order) whose name is not before `name`; nil
    /// past the end.
    private static func place(of name: String, in list: [SuggestionCandidate]) -> Int? {
        var (low, high) = (0, list.count)
        while low < high {
            let mid = low + (high - low) / 2
            if bytesPrecede(list[mid].path, name) { low = mid + 1 } else { high = mid }
        }
        return low < list.count ? low : nil
    }

    /// Byte order of names, as the walker lists them (a name that is not UTF-8 by its exact bytes).
    static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        // 0xF4 begins a stand-in for a byte that is not UTF-8 (`PathBytes`); without one, the
        // string's UTF-8 is the name's bytes.
        guard a.utf8.contains(0xF4) || b.utf8.contains(0xF4) else { return PathKey(a).precedes(PathKey(b)) }
        return PathBytes.encode(a).lexicographicallyPrecedes(PathBytes.encode(b))
    }

    /// A digest of `folder`'s candidates (their names, sizes and times; for this process only);
    /// nil when the folder is not held.
    func digest(_ folder: String) -> Int? {
        guard let list = lists[PathKey(folder)] else { return nil }
        var h = Hasher()
        for c in list {
            h.combine(c.path)
            h.combine(c.size)
            h.combine(c.modified)
        }
        return h.finalize()
    }

    /// Forgets `folder`.
    mutating func drop(_ folder: PathKey) {
        guard let before = lists.removeValue(forKey: folder) else { return }
        add(-before.count, in: folder.path)
        spans.removeValue(forKey: folder)
        ordered = nil
        newest = nil
    }

    /// `folder`'s candidates with their full canonical paths again.
    func candidates(in folder: PathKey) -> [SuggestionCandidate] {
        let prefix = folder.path == "/" ? "/" : folder.path + "/"
        return (lists[folder] ?? []).map { c in
            var full = c
            full.path = prefix + c.path
            full.livePhotoPair = c.livePhotoPair.map { prefix + $0 }
            return full
        }
    }

    /// The folders in byte order.
    mutating func inOrder() -> [PathKey] {
        if let ordered { return ordered }
        let sorted = lists.keys.sorted { $0.precedes($1) }
        ordered = sorted
        return sorted
    }

    /// The dated folders, latest capture first.
    mutating func datedNewestFirst() -> [(latest: Double, folder: PathKey)] {
        if let newest { return newest }
        let sorted = spans.map { (latest: $0.value.upperBound, folder: $0.key) }.sorted { $0.latest > $1.latest }
        newest = sorted
        return sorted
    }

    /// True when recency certainly turns down every file of `folder` (`RecencyRule`'s bounds,
    /// widened by the widest zone offset, on its span): no file needs a decision.
    func certainlyRejected(_ folder: PathKey, _ context: SuggestionContext) -> Bool {
        RecencyRule.certainlyRejects(span: spans[folder], in: context)
    }

    private mutating func add(_ n: Int, in folder: String) {
        fileCount += n
        // Every root it lies in (a root inside another served one is in both trees).
        for root in roots where PathKey(folder).isWithin(root) { perRoot[PathKey(root), default: 0] += n }
    }
}
