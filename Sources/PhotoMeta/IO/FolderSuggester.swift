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
    public func run(folder displayFolder: String) throws(Failure) -> Outcome {
        let realNow = Date().timeIntervalSince1970
        let now = options.now ?? realNow
        let listing: FolderScanner.Listing
        do throws(FolderScanner.Unreadable) {
            listing = try FolderScanner().scan(displayFolder)
        } catch {
            throw .unreadableFolder(error)
        }
        // The memory is opened (and checked) before any work, so a bad state file is reported
        // at once; it is written only at the end.
        let memory: SuggestionMemory
        do throws(StateFile.Failure) {
            memory = try SuggestionMemory(path: options.statePath)
        } catch {
            throw .state(error)
        }
        var notes: [String] = []
        var index: AssetIndex?
        var cached: [String: (AssetIndex.Key, SuggestionCandidate)] = [:]
        if let indexPath = options.indexPath {
            do throws(StateFile.Failure) {
                let i = try AssetIndex(path: indexPath)
                cached = try i.load(folder: listing.folder)
                index = i
            } catch {
                notes.append("index not used (\(error)); every file is parsed")
            }
        }

        // Reuse unchanged rows; inspect the rest in parallel.
        var candidates = [SuggestionCandidate?](repeating: nil, count: listing.files.count)
        var toParse: [Int] = []
        for (i, entry) in listing.files.enumerated() {
            // Taken out of `cached` as it is used: what remains are rows of files that are gone.
            if let (key, c) = cached.removeValue(forKey: entry.path), key == AssetIndex.Key(entry.facts) {
                candidates[i] = c
            } else {
                toParse.append(i)
            }
        }
        let parseList = toParse
        let parsed = ParallelMap.run(parseList.count) { j -> SuggestionCandidate in
            let entry = listing.files[parseList[j]]
            let asset = MediaFileInspector.inspect(path: entry.path, pairLivePhotos: false)
            // The same arithmetic as the index's, so warm and cold runs agree to the bit.
            return SuggestionCandidate(asset, modified: Double(AssetIndex.Key(entry.facts).mtimeNanoseconds) / 1e9)
        }
        var newRows: [(path: String, key: AssetIndex.Key, candidate: SuggestionCandidate)] = []
        for (j, i) in toParse.enumerated() {
            candidates[i] = parsed[j]
            newRows.append((listing.files[i].path, AssetIndex.Key(listing.files[i].facts), parsed[j]))
        }
        if let index {
            do throws(StateFile.Failure) {
                try index.update(newRows, removing: Array(cached.keys))
            } catch {
                notes.append("index not updated (\(error))")
            }
        }

        // Report paths as the user named the folder.
        let prefix = displayFolder.hasSuffix("/") ? displayFolder : displayFolder + "/"
        var list: [SuggestionCandidate] = []
        list.reserveCapacity(candidates.count)
        for (i, c) in candidates.enumerated() {
            guard var c else { continue }
            c.path = prefix + listing.files[i].relative
            list.append(c)
        }
        LivePhotoPairing.pair(&list)

        let remembered: Double?
        do throws(StateFile.Failure) {
            remembered = try memory.remembered(folder: listing.folder)
        } catch {
            throw .state(error)
        }
        let context = SuggestionContext(now: now, realNow: realNow, remembered: remembered, settings: options.settings)
        let decision = SuggestionEngine().decide(list, context: context)
        var recorded = false
        if options.record, let s = decision.suggestion, let t = decision.instant {
            do throws(StateFile.Failure) {
                try memory.advance(folder: listing.folder, to: t, offered: s.path, now: realNow)
                recorded = true
            } catch {
                throw .state(error)
            }
        }
        return Outcome(folder: listing.folder, decision: decision, ageSeconds: decision.instant.map { now - $0 },
                       skipped: listing.skipped, parsed: toParse.count, notes: notes, recorded: recorded)
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
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDir), isDir.boolValue else {
            throw Unreadable(path: folder, reason: "not a folder")
        }
        return Listing(folder: root)
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
