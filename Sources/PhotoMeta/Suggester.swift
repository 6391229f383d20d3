import Foundation
import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

/// The suggest use case: which photo the user probably wants to send now, from one folder, with
/// the memory of what was offered or dismissed (`suggest`, `dismiss`, `forget`).
///
/// Works folder by folder: each folder's files are listed, matched with their index rows,
/// parsed when new or changed (on all cores), paired (`LivePhotoPairing`) and folded into the
/// pure `SuggestionEngine`, so memory is bounded by the largest folder (plus the explanations
/// when `explain` is set), not by the library. The offer is recorded in the memory.
public struct Suggester: Sendable {
    /// What to decide and where the state lives.
    public struct Options: Sendable {
        /// The rules' settings (recency, screenshots, videos, zone).
        public var settings: SuggestionSettings
        /// Decide as if it were this instant (`--now`); nil means the clock. Whether a file is
        /// still being written is judged on the clock either way.
        public var now: Date?
        /// Where the memory lives (`--state`).
        public var statePath: String
        /// Paths below each folder to leave out (`--exclude`): `*`, `?` and `**` patterns; a
        /// pattern without `/` also matches a file or folder name at any depth.
        public var exclude: [String] = []
        /// Whose memory (`--profile`): one remembered instant per profile, for all folders.
        public var profile = Suggester.defaultProfile
        /// Where the index lives; nil runs without one (every file parsed).
        public var indexPath: String?
        /// False with `--peek`: decide, but record nothing.
        public var record = true
        /// Keep every rejection for `--explain` (memory then grows with the folder).
        public var explain = true
        /// How long `run` may wait for a file that is still being written (the decision's
        /// `pending`) to settle before it decides: what a chat app asks when `+` is pressed.
        /// Zero (the default) decides at once.
        public var wait: Duration = .zero
        /// Called after each folder with the number of files looked at so far (a progress
        /// display for long cold runs), from the calling thread.
        public var progress: (@Sendable (_ considered: Int) -> Void)?
        /// The time `now`, completeness and `wait` read (tests move their own).
        package var clock: any WallClock = SystemClock()
        /// Ask a running `photometa serve` first (false with `--no-service`); where to find it
        /// (`XDG_RUNTIME_DIR`).
        package var useService = true
        package var environment = ProcessEnvironment.current

        /// The defaults: memory at `defaultStatePath`, index at `defaultIndexPath`.
        public init(settings: SuggestionSettings) {
            self.settings = settings
            statePath = Suggester.defaultStatePath()
            indexPath = Suggester.defaultIndexPath()
        }
    }

    /// An entry of the folder that was not considered, and why.
    public struct SkippedEntry: Sendable, Equatable, Codable {
        /// The folder as given joined with the path below it.
        public var path: String
        /// Why it was not considered.
        public var reason: String
    }

    /// What `run(folder:)` decided, and what it met on the way.
    public struct Outcome: Sendable {
        /// The folders' canonical paths, in the order given.
        public var folders: [String]
        /// The suggestion (if any) and, with `explain`, why every other file was turned down.
        public var decision: SuggestionDecision
        /// Age of the suggestion at `now` (negative: captured slightly in the future).
        public var age: Duration?
        /// Entries not considered at all (hidden files are not listed), with the reason.
        public var skipped: [SkippedEntry]
        /// Files parsed in this run (the rest came from the index).
        public var parsed: Int
        /// Warnings for people (e.g. the index could not be used).
        public var notes: [String]
        /// The memory was updated.
        public var recorded: Bool
        /// The pid of the `photometa serve` that answered; nil when the folders were scanned.
        package var servicePid: Int32?
        /// Why the service that serves these folders did not answer (gone, silent, refused),
        /// for `--explain`; nil when none serves them.
        package var serviceAbsence: String?
    }

    /// The options every run uses.
    public var options: Options

    /// A suggester with `options`.
    public init(options: Options) { self.options = options }

    /// `$XDG_STATE_HOME/photometa/state.sqlite3`, else `~/.local/state/photometa/state.sqlite3`.
    public static func defaultStatePath(environment: [String: String] = ProcessEnvironment.current) -> String {
        SuggestionMemory.defaultPath(environment: environment)
    }

    /// `$XDG_CACHE_HOME/photometa/index.sqlite3`, else `~/.cache/photometa/index.sqlite3`.
    public static func defaultIndexPath(environment: [String: String] = ProcessEnvironment.current) -> String {
        AssetIndex.defaultPath(environment: environment)
    }

    /// The profile used when none is named.
    public static let defaultProfile = SuggestionMemory.defaultProfile

    /// Decides for one folder; see `run(folders:)`.
    public func run(folder: String) throws(SuggestError) -> Outcome {
        try run(folders: [folder])
    }

    /// Decides for `folders` together: one decision, one memory (the profile's). Reported paths
    /// are each folder as written joined with the path below it. A folder inside another given
    /// one is walked once. With `wait`, a pending file is looked at again (the index makes that
    /// cheap) until it is complete or the time is up.
    public func run(folders: [String]) throws(SuggestError) -> Outcome {
        let clock = options.clock
        let deadline = clock.now() + options.wait.seconds
        while true {
            let outcome = try decide(folders: folders)
            guard let p = outcome.decision.pending else { return outcome }
            let left = deadline - clock.now()
            guard left > 0 else { return outcome }
            clock.sleep(seconds: min(left, Double(p.retryAfterMilliseconds) / 1000))
        }
    }

    /// One decision, at once, in steps: check the folders, read the memory (`Offering`), scan
    /// (`FolderScan`) into the engine, record.
    func decide(folders displayFolders: [String]) throws(SuggestError) -> Outcome {
        let realNow = options.clock.now()
        let now = options.now?.timeIntervalSince1970 ?? realNow
        // The folders are checked before anything is opened, so an unreadable folder writes no state.
        var roots: [FolderScan.Root] = []
        for f in displayFolders { roots.append(FolderScan.Root(path: try Suggester.checkedFolder(f), display: f)) }
        // The memory is opened (and checked) before any work, so a bad state file is reported at
        // once; it is written only at the end. Without recording (--peek, or a caller that
        // records once the offer is shown) it is only read: nothing is created or written.
        let offering: Offering
        let context: SuggestionContext
        do throws(StateFileError) {
            offering = try Offering(statePath: options.statePath, profile: options.profile, readOnly: !options.record)
            context = try offering.context(settings: options.settings, now: now, realNow: realNow)
        } catch {
            throw .state(error)
        }
        var service: String?
        if options.useService {
            switch askService(roots, context) {
            case .success(let answer):
                return try record(answer, offering, now: now, realNow: realNow)
            case .failure(.none), .failure(.noRuntimeFolder): break
            case .failure(let why): service = why.description
            }
        }
        var builder = SuggestionEngine.DecisionBuilder(context: context, explain: options.explain)
        var considered = 0
        // Without explanations, a folder recency certainly turns down whole is counted, not read.
        let passOver: ((ClosedRange<Double>?) -> Bool)? =
            options.explain ? nil : { RecencyRule.certainlyRejects(span: $0, in: context) }
        var folderScan = FolderScan(exclude: options.exclude, indexPath: options.indexPath)
        folderScan.handsOnInParts = true  // the builder folds candidates one at a time
        let scan = folderScan.run(
            roots, passOver: passOver,
            counted: { _, n in
                builder.addCertainlyRejected(n)
                considered += n
                options.progress?(considered)
            },
            visit: { _, list in
                for c in list { builder.add(c) }
                considered += list.count
                options.progress?(considered)
            })
        var outcome = Outcome(
            folders: roots.map(\.path), decision: builder.decision, age: nil, skipped: scan.skipped, parsed: scan.parsed,
            notes: scan.notes, recorded: false)
        outcome.serviceAbsence = service
        return try record(outcome, offering, now: now, realNow: realNow)
    }

    /// The outcome's age, and with `record` the offer made (`Offering.offer`: decided and
    /// recorded in one step under the memory's lock; a racing asker that offered it first
    /// wins, and this run offers nothing).
    private func record(_ outcome: Outcome, _ offering: Offering, now: Double, realNow: Double) throws(SuggestError)
        -> Outcome
    {
        var o = outcome
        if options.record {
            do throws(StateFileError) {
                (o.decision, o.recorded) = try offering.offer(o.decision, now: realNow) { true }
            } catch {
                throw .state(error)
            }
        }
        o.age = o.decision.instant.flatMap { Duration(seconds: now - $0) }
        return o
    }

    /// The decision of a live service serving every folder (`ServiceClient`), as an outcome;
    /// or why none answered.
    private func askService(_ roots: [FolderScan.Root], _ context: SuggestionContext) -> Result<Outcome, ServiceAbsence> {
        let request = ServiceRequest(
            suggest: roots.map { ServiceRequest.Folder(path: $0.path, display: $0.display) }, exclude: options.exclude,
            context: context, explain: options.explain)
        switch ServiceClient.ask(request, environment: options.environment) {
        case .failure(let why): return .failure(why)
        case .success(let reply):
            guard let decision = reply.decision else { return .failure(.refused(pid: reply.pid, "no decision")) }
            let skipped = (reply.skipped ?? []).map { SkippedEntry(path: $0.path, reason: $0.reason) }
            var o = Outcome(
                folders: roots.map(\.path), decision: decision, age: nil, skipped: skipped, parsed: 0, notes: [],
                recorded: false)
            o.servicePid = reply.pid
            return .success(o)
        }
    }

    /// What is on offer now (`suggest --standing`): the profile's last offer while it stands:
    /// nothing moved the memory past it (no dismissal, no newer offer), its file is still a
    /// regular file inside one of `folders`, and it was captured within `within` of now.
    /// Nothing is recorded; the decision holds the offer (inspected now) or nothing.
    public func standing(folders displayFolders: [String]) throws(SuggestError) -> Outcome {
        let now = options.now?.timeIntervalSince1970 ?? options.clock.now()
        var roots: [FolderScan.Root] = []
        for f in displayFolders { roots.append(FolderScan.Root(path: try Suggester.checkedFolder(f), display: f)) }
        let offer: SuggestionMemory.StandingRecord?
        do throws(StateFileError) {
            offer = try Offering(statePath: options.statePath, profile: options.profile, readOnly: true).standing()
        } catch {
            throw .state(error)
        }
        var decision = SuggestionDecision(suggestion: nil, instant: nil, considered: 0, rejected: [], outranked: [])
        var outcome = Outcome(
            folders: roots.map(\.path), decision: decision, age: nil, skipped: [], parsed: 0, notes: [], recorded: false)
        guard let offer,
            let found = StandingOffer.find(
                offer, roots: roots, exclude: options.exclude.compactMap(PathGlob.init), settings: options.settings, now: now)
        else { return outcome }
        decision.suggestion = found.candidate
        decision.instant = offer.instant
        decision.considered = 1
        outcome.decision = decision
        outcome.parsed = 1
        outcome.age = Duration(seconds: now - offer.instant)
        return outcome
    }

    /// Records the outcome's suggestion as offered, for a caller that ran with `record` false
    /// and records only once the offer was shown. Nothing happens when there is no suggestion.
    /// When another asker offered it (or something newer) meanwhile, nothing is recorded and
    /// the returned outcome offers nothing (its decision says the memory turned it down).
    public func record(_ outcome: Outcome) throws(SuggestError) -> Outcome {
        try offer(outcome) { true }
    }

    /// Offers the outcome's suggestion once among every asker sharing the memory (`Offering`):
    /// under the memory's write lock, `deliver` runs (the CLI prints the answer there; false
    /// when it did not reach anyone) and the offer is recorded when delivered. The outcome as
    /// it stands: offered and recorded, not delivered, or turned down because another asker
    /// was first (then `deliver` was not called).
    package func offer(_ outcome: Outcome, deliver: () -> Bool) throws(SuggestError) -> Outcome {
        var result = outcome
        do throws(StateFileError) {
            let offering = try Offering(statePath: options.statePath, profile: options.profile)
            let (decision, recorded) = try offering.offer(outcome.decision, now: options.clock.now(), deliver: deliver)
            result.decision = decision
            result.recorded = recorded || outcome.recorded
        } catch {
            throw .state(error)
        }
        return result
    }

    /// `dismiss`: everything captured up to `until` (default now) counts as seen by `profile`,
    /// in every folder. The folders, when given, are checked first (an unreadable one is an
    /// error and nothing is recorded). Returns the remembered instant (it only moves forward).
    public static func dismiss(
        folders: [String] = [], until: Date?, profile: String = defaultProfile, statePath: String
    ) throws(SuggestError) -> Date {
        for f in folders { _ = try checkedFolder(f) }
        let now = SystemClock().now()
        do throws(StateFileError) {
            let t = try SuggestionMemory(path: statePath).advance(
                profile: profile, to: until?.timeIntervalSince1970 ?? now,
                offered: nil, now: now)
            return Date(timeIntervalSince1970: t)
        } catch {
            throw .state(error)
        }
    }

    /// `forget`: clears what `profile` was offered or dismissed (in every folder: the memory is
    /// the profile's). The folders, when given, are checked first. True when there was something
    /// to forget.
    public static func forget(folders: [String] = [], profile: String = defaultProfile, statePath: String) throws(SuggestError)
        -> Bool
    {
        for f in folders { _ = try checkedFolder(f) }
        do throws(StateFileError) {
            // Nothing to forget in a file that does not exist: do not create one.
            guard FileSystem.exists(statePath) else { return false }
            return try SuggestionMemory(path: statePath).forget(profile: profile)
        } catch {
            throw .state(error)
        }
    }

    /// The index and its writer's connection. The index is a cache: one that is damaged, another
    /// program's or from a newer photometa is moved aside (named in a note) and built anew.
    static func openIndex(_ path: String, notes: inout [String]) throws(StateFileError) -> (AssetIndex, IndexWriter) {
        do throws(StateFileError) {
            return (try AssetIndex(path: path), IndexWriter(try AssetIndex(path: path)))
        } catch {
            switch error {
            case .notADatabase, .damaged, .foreign, .newerVersion: break
            default: throw error
            }
            let aside = path + ".broken"
            for suffix in ["", "-wal", "-shm"] {
                FileSystem.remove(aside + suffix)
                FileSystem.rename(path + suffix, to: aside + suffix)
            }
            notes.append("the index \(path) was damaged or not photometa's; moved to \(aside) and rebuilt")
            return (try AssetIndex(path: path), IndexWriter(try AssetIndex(path: path)))
        }
    }

    /// The folder's canonical path, once it is known to be a folder that can be listed.
    static func checkedFolder(_ folder: String) throws(SuggestError) -> String {
        do throws(SystemError) {
            return try FileSystem.canonicalFolder(folder)
        } catch {
            throw .unreadableFolder(path: folder, error: error)
        }
    }
}
