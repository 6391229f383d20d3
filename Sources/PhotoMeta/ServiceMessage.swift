import Foundation
import PhotoMetaCore

/// What a client asks `photometa serve` and what it answers: one JSON line each way over the
/// service's socket (docs/service.md). The client sends everything the decision depends on
/// (its clock, its memory's remembered instant, its settings), so the service decides exactly
/// as a scan in the client would, over candidates it keeps current.
package struct ServiceRequest: Sendable, Equatable, Codable {
    package enum Operation: String, Sendable, Codable {
        /// Who the service is, what it serves, whether it is ready.
        case status
        /// The decision of `suggest` over the served folders.
        case suggest
        /// The newest `limit` of `kinds` (`recent`).
        case recent
        /// The settled change sets of the folders from now on (`PhotoLibrary.changes()`): the
        /// reply comes once the service watches them, then one `ServiceChangeLine` a set.
        case changes
    }

    /// One folder of the request: its canonical path, and the folder as the user wrote it.
    package struct Folder: Sendable, Equatable, Codable {
        package var path: String
        package var display: String

        package init(path: String, display: String) {
            self.path = path
            self.display = display
        }
    }

    package var operation: Operation
    package var folders: [Folder] = []
    package var exclude: [String] = []
    /// The rules' settings.
    package var withinMilliseconds: Int64 = 60_000
    package var futureToleranceMilliseconds: Int64 = 5_000
    package var settleMilliseconds: Int64 = 1_000
    package var screenshots: SuggestionSettings.Screenshots = .include
    package var includeVideos = false
    package var zone = "UTC"
    /// The client's "now" (`--now` or its clock), its real clock, and its memory's instant.
    package var now = 0.0
    package var realNow = 0.0
    package var remembered: Double?
    /// The standing offer's file (`SuggestionContext.offeredFile`); absent from older clients.
    package var offeredFile: SuggestionContext.OfferedFile?
    /// The standing offer when it is a raw (`SuggestionContext.offeredRaw`); absent from older clients.
    package var offeredRaw: SuggestionContext.OfferedRaw?
    package var explain = false
    /// For `recent`: how many, and which kinds (raw values of `MediaKind`).
    package var limit = 0
    package var kinds: [String] = []

    package init(operation: Operation) { self.operation = operation }

    /// The request of the newest `limit` of `kinds` in `folders`, dates without an offset read
    /// in `zone`.
    package init(recent folders: [Folder], exclude: [String], limit: Int, kinds: Set<MediaKind>, zone: TimeZone) {
        operation = .recent
        self.folders = folders
        self.exclude = exclude
        self.limit = limit
        self.kinds = kinds.map(\.rawValue).sorted()
        self.zone = zone.identifier
    }

    /// The request of the change sets of `folders` (`PhotoLibrary.changes()`).
    package init(changes folders: [Folder], exclude: [String]) {
        operation = .changes
        self.folders = folders
        self.exclude = exclude
    }

    /// The request of a `suggest` decision for `folders` in `context`.
    package init(
        suggest folders: [Folder], exclude: [String], context: SuggestionContext, explain: Bool
    ) {
        operation = .suggest
        self.folders = folders
        self.exclude = exclude
        let s = context.settings
        withinMilliseconds = ServiceRequest.milliseconds(s.within)
        futureToleranceMilliseconds = ServiceRequest.milliseconds(s.futureTolerance)
        settleMilliseconds = ServiceRequest.milliseconds(s.settleTime)
        screenshots = s.screenshots
        includeVideos = s.includeVideos
        zone = s.zone.identifier
        now = context.now
        realNow = context.realNow
        remembered = context.remembered
        offeredFile = context.offeredFile
        offeredRaw = context.offeredRaw
        self.explain = explain
    }

    /// The context the request describes; nil for a zone this machine does not know.
    package var context: SuggestionContext? {
        guard let tz = TimeZone(identifier: zone) else { return nil }
        var s = SuggestionSettings(zone: tz)
        s.within = .milliseconds(withinMilliseconds)
        s.futureTolerance = .milliseconds(futureToleranceMilliseconds)
        s.settleTime = .milliseconds(settleMilliseconds)
        s.screenshots = screenshots
        s.includeVideos = includeVideos
        var context = SuggestionContext(now: now, realNow: realNow, remembered: remembered, settings: s)
        context.offeredFile = offeredFile
        context.offeredRaw = offeredRaw
        return context
    }

    static func milliseconds(_ d: Duration) -> Int64 {
        let (seconds, attoseconds) = d.components
        return seconds.multipliedReportingOverflow(by: 1000).partialValue &+ attoseconds / 1_000_000_000_000_000
    }
}

/// The service's answer.
package struct ServiceReply: Sendable, Equatable, Codable {
    /// The service's process, folders (canonical) and state.
    package var pid: Int32
    package var folders: [String]
    package var files: Int
    /// Since when it serves (seconds since 1970), and whether its library reflects the folders.
    package var since: Double
    package var ready: Bool
    /// Set when the service could not answer (the folders are not all served, the library is
    /// not exact...): the client scans instead.
    package var refused: String?
    /// The decision (for `suggest`), paths as the client wrote its folders.
    package var decision: SuggestionDecision?
    package var skipped: [SuggestReport.Skipped]?
    /// The listing (for `recent`), newest first, paths as the client wrote its folders.
    package var recent: [SuggestionCandidate]?
    /// Looks besides inotify's events (`--rescan`, or a network file system): how often
    /// (seconds), how often one looks at every file (the others look at folders first), and
    /// the last one (seconds since 1970); nil for none.
    package var rescanEvery: Double?
    package var wholeRescanEvery: Double?
    package var lastRescan: Double?

    package init(pid: Int32, folders: [String], files: Int, since: Double, ready: Bool) {
        self.pid = pid
        self.folders = folders
        self.files = files
        self.since = since
        self.ready = ready
    }
}

/// One settled change set as the service sends it to a `changes` subscriber: canonical paths
/// only; the subscriber inspects the files itself (`FileInspector`, as a watcher in its own
/// process would) and writes the paths as it wrote its folders.
package struct ServiceChangeLine: Sendable, Equatable, Codable {
    package struct Move: Sendable, Equatable, Codable {
        package var from: String
        package var to: String
    }
    package var inserted: [String] = []
    package var removed: [String] = []
    package var changed: [String] = []
    package var moved: [Move] = []

    package init(_ set: ChangeSet) {
        inserted = set.inserted.map(\.path)
        removed = set.removed
        changed = set.changed.map(\.path)
        moved = set.moved.map { Move(from: $0.from, to: $0.to.path) }
    }
}
