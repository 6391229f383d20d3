import Foundation

/// `suggest` for one folder, at the I/O edge: scan, reuse the index for unchanged files, inspect
/// the rest on all cores, pair Live Photos, ask the pure `SuggestionEngine`, and record the
/// offer in the memory.
public struct FolderSuggester {
    public struct Options: Sendable {
        public var settings = SuggestionSettings()
        /// `--now`; nil means the real clock.
        public var now: Double?
        /// Where the memory lives (`--state`).
        public var statePath = SuggestionMemory.defaultPath()
        /// Where the index lives; nil runs without one (every file parsed).
        public var indexPath: String? = AssetIndex.defaultPath()
        /// False with `--peek`: decide, but record nothing.
        public var record = true
        /// Keep every rejection for `--explain` (memory then grows with the folder).
        public var explain = true

        public init() {}
    }

    public enum Failure: Error, CustomStringConvertible {
        case unreadableFolder(FolderScanner.Unreadable)
        case state(StateFile.Failure)

        public var description: String {
            switch self {
            case .unreadableFolder(let u): return u.description
            case .state(let s): return s.description
            }
        }
    }

    public struct Outcome: Sendable {
        public var folder: String
        public var decision: SuggestionEngine.Decision
        /// Age of the suggestion in seconds at `now`.
        public var ageSeconds: Double?
        /// Entries not considered at all (hidden files are not listed), with the reason.
        public var skipped: [(path: String, reason: String)]
        /// Files parsed in this run (the rest came from the index).
        public var parsed: Int
        /// Warnings for people (e.g. the index could not be used).
        public var notes: [String]
        /// The memory was updated.
        public var recorded: Bool
    }

    public var options: Options

    public init(options: Options) { self.options = options }

    /// `displayFolder` is the folder as the user wrote it; reported paths start with it.
    ///
    /// Works folder by folder: each folder's files are listed, matched with their index rows,
    /// parsed when new or changed, paired (Live Photos live in one folder) and folded into the
    /// decision, so memory is bounded by the largest folder (plus the explanations when
    /// `explain` is set), not by the library.
    public func run(folder displayFolder: String) throws(Failure) -> Outcome {
        let realNow = Date().timeIntervalSince1970
        let now = options.now ?? realNow
        // The folder is checked before anything is opened, so an unreadable folder writes no state.
        let root: String
        do throws(FolderScanner.Unreadable) {
            root = try FolderScanner().scanRootOnly(displayFolder).folder
        } catch {
            throw .unreadableFolder(error)
        }
        // The memory is opened (and checked) before any work, so a bad state file is reported
        // at once; it is written only at the end.
        let memory: SuggestionMemory
        let remembered: Double?
        do throws(StateFile.Failure) {
            memory = try SuggestionMemory(path: options.statePath)
            remembered = try memory.remembered(folder: root)
        } catch {
            throw .state(error)
        }
        var notes: [String] = []
        var index: AssetIndex?
        // Index rows are written on a second connection, on its own thread, while parsing goes
        // on (WAL lets the reads of the next folders proceed meanwhile).
        var writer: IndexWriter?
        if let indexPath = options.indexPath {
            do throws(StateFile.Failure) {
                index = try AssetIndex(path: indexPath)
                writer = IndexWriter(try AssetIndex(path: indexPath))
            } catch {
                notes.append("index not used (\(error)); every file is parsed")
                index = nil
            }
        }
        let context = SuggestionContext(now: now, realNow: realNow, remembered: remembered, settings: options.settings)
        var builder = SuggestionEngine.DecisionBuilder(context: context, explain: options.explain)
        var parsedCount = 0
        var walked: [String] = []
        var pendingRows: [(path: String, folder: String, key: AssetIndex.Key, candidate: SuggestionCandidate)] = []
        var pendingGone: [(folder: String, path: String)] = []
        // Report paths as the user named the folder.
        let prefix = displayFolder.hasSuffix("/") ? displayFolder : displayFolder + "/"

        func flushIndex() {
            guard let writer, !pendingRows.isEmpty || !pendingGone.isEmpty else { return }
            writer.update(pendingRows, removing: pendingGone)
            pendingRows.removeAll(keepingCapacity: true)
            pendingGone.removeAll(keepingCapacity: true)
        }

        let listing: FolderScanner.Listing
        do throws(FolderScanner.Unreadable) {
            listing = try FolderScanner().scan(root) { directory, files in
                walked.append(directory)
                var cached: [String: (AssetIndex.Key, SuggestionCandidate)] = [:]
                if let i = index {
                    do throws(StateFile.Failure) {
                        cached = try i.load(directory: directory)
                    } catch {
                        notes.append("index not used (\(error)); every file is parsed")
                        index = nil
                    }
                }
                var candidates = [SuggestionCandidate?](repeating: nil, count: files.count)
                var toParse: [Int] = []
                for (k, entry) in files.enumerated() {
                    // Taken out of `cached` as it is used: what remains are rows of files that are gone.
                    if let (key, c) = cached.removeValue(forKey: entry.path), key == AssetIndex.Key(entry.facts) {
                        candidates[k] = c
                    } else {
                        toParse.append(k)
                    }
                }
                let parseList = toParse
                let parsed = ParallelMap.run(parseList.count) { j -> SuggestionCandidate in
                    let entry = files[parseList[j]]
                    let asset = MediaFileInspector.inspect(path: entry.path, pairLivePhotos: false, facts: entry.facts)
                    // The same arithmetic as the index's, so warm and cold runs agree to the bit.
                    return SuggestionCandidate(asset, modified: Double(AssetIndex.Key(entry.facts).mtimeNanoseconds) / 1e9)
                }
                for (j, k) in toParse.enumerated() {
                    candidates[k] = parsed[j]
                    if writer != nil { pendingRows.append((files[k].path, directory, AssetIndex.Key(files[k].facts), parsed[j])) }
                }
                parsedCount += toParse.count
                if writer != nil { pendingGone += cached.keys.map { (directory, $0) } }
                if pendingRows.count >= 2_000 { flushIndex() }

                var list: [SuggestionCandidate] = []
                list.reserveCapacity(candidates.count)
                for (k, c) in candidates.enumerated() {
                    guard var c else { continue }
                    c.path = prefix + files[k].relative
                    list.append(c)
                }
                LivePhotoPairing.pair(&list)
                for c in list { builder.add(c) }
            }
        } catch {
            throw .unreadableFolder(error)
        }
        flushIndex()
        if let writer {
            writer.removeRows(under: root, outside: walked)
            notes += writer.finish()
        }

        let decision = builder.decision
        var recorded = false
        if options.record, let s = decision.suggestion, let t = decision.instant {
            do throws(StateFile.Failure) {
                try memory.advance(folder: root, to: t, offered: s.path, now: realNow)
                recorded = true
            } catch {
                throw .state(error)
            }
        }
        return Outcome(folder: root, decision: decision, ageSeconds: decision.instant.map { now - $0 },
                       skipped: listing.skipped, parsed: parsedCount, notes: notes, recorded: recorded)
    }

    /// `dismiss`: everything up to `until` (default now) counts as seen in `folder`.
    public static func dismiss(folder: String, until: Double?, statePath: String) throws(Failure) -> Double {
        let listing: FolderScanner.Listing
        do throws(FolderScanner.Unreadable) {
            listing = try FolderScanner().scanRootOnly(folder)
        } catch {
            throw .unreadableFolder(error)
        }
        let now = Date().timeIntervalSince1970
        do throws(StateFile.Failure) {
            return try SuggestionMemory(path: statePath).advance(folder: listing.folder, to: until ?? now, offered: nil, now: now)
        } catch {
            throw .state(error)
        }
    }

    /// `forget`: clears the folder's memory. True when there was something to forget.
    public static func forget(folder: String, statePath: String) throws(Failure) -> Bool {
        let listing: FolderScanner.Listing
        do throws(FolderScanner.Unreadable) {
            listing = try FolderScanner().scanRootOnly(folder)
        } catch {
            throw .unreadableFolder(error)
        }
        do throws(StateFile.Failure) {
            return try SuggestionMemory(path: statePath).forget(folder: listing.folder)
        } catch {
            throw .state(error)
        }
    }
}

extension FolderScanner {
    /// Resolves and checks the folder without listing it (for `dismiss` and `forget`).
    public func scanRootOnly(_ folder: String) throws(Unreadable) -> Listing {
        guard let resolved = realpath(folder, nil) else {
            throw Unreadable(path: folder, reason: SystemError.message(errno))
        }
        let root = String(cString: resolved)
        free(resolved)
        // Opening it proves it is a folder that may be listed.
        do throws(SystemError) {
            _ = try DirectoryHandle(path: root)
        } catch {
            throw Unreadable(path: folder, reason: error.errno == ENOTDIR ? "not a folder" : error.description)
        }
        return Listing(folder: root)
    }
}

/// Writes index rows on a serial background queue with its own connection; failures become
/// notes (the index is a cache: a failed write costs a re-parse next time, nothing else).
final class IndexWriter: @unchecked Sendable {
    private let index: AssetIndex
    private let queue = DispatchQueue(label: "photometa.index-writer")
    private let lock = NSLock()
    private var notes: [String] = []

    init(_ index: AssetIndex) { self.index = index }

    func update(_ rows: [(path: String, folder: String, key: AssetIndex.Key, candidate: SuggestionCandidate)],
                removing gone: [(folder: String, path: String)]) {
        queue.async {
            do throws(StateFile.Failure) {
                try self.index.update(rows, removing: gone)
            } catch {
                self.note("index not updated (\(error))")
            }
        }
    }

    func removeRows(under root: String, outside walked: [String]) {
        queue.async {
            do throws(StateFile.Failure) {
                try self.index.removeRows(under: root, outside: walked)
            } catch {
                self.note("index not cleaned (\(error))")
            }
        }
    }

    /// Waits for every queued write; returns the problems met.
    func finish() -> [String] {
        queue.sync {}
        lock.lock()
        defer { lock.unlock() }
        return Array(Set(notes)).sorted()
    }

    private func note(_ n: String) {
        lock.lock()
        notes.append(n)
        lock.unlock()
    }
}

/// Runs `body(i)` for i in 0..<count on all cores and returns the results in order.
enum ParallelMap {
    static func run<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let box = ResultBox<T>(count: count)
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let i = box.next() { box.set(i, body(i)) }
        }
        return box.values()
    }

    private final class ResultBox<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [T?]
        private var cursor = 0
        init(count: Int) { storage = Array(repeating: nil, count: count) }
        func next() -> Int? {
            lock.lock(); defer { lock.unlock() }
            guard cursor < storage.count else { return nil }
            cursor += 1
            return cursor - 1
        }
        func set(_ i: Int, _ v: T) { lock.lock(); storage[i] = v; lock.unlock() }
        func values() -> [T] { storage.compactMap { $0 } }
    }
}
