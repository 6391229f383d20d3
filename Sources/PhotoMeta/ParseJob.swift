import Dispatch
import PhotoMetaCore
import PhotoMetaSystem
import Synchronization

/// Some of a folder's new files parsed on all cores in the background, while the scan goes on
/// (`FolderScan`: a folder's files, or one run of a large folder's).
final class ParseJob: @unchecked Sendable {
    static let runLength = 8
    private let done = DispatchGroup()
    /// Set by whoever starts the parse: a pool thread, or `wait` when none has yet.
    private let taken = Mutex(false)
    private let folder: TreeWalker.Folder
    private let positions: ArraySlice<Int>
    /// Written once by the parse before `done` is left; read after `wait`.
    private var parsed: [SuggestionCandidate] = []

    /// Parses the files of `folder` at `positions`.
    init(_ folder: TreeWalker.Folder, _ positions: ArraySlice<Int>) {
        self.folder = folder
        self.positions = positions
        done.enter()
        // photometa's pool, not libdispatch's: an idle `serve` wakes no thread (WorkerPool).
        WorkerPool.shared.async { self.parseUnlessTaken() }
    }

    /// Parses, unless another thread has started to. `wait` calls it too: a waiter may wait
    /// only for work it could do itself (`WorkerPool`), and the pool's threads may all be busy
    /// (a watch's inspections, a stalled disk) when the scan needs these files.
    private func parseUnlessTaken() {
        let first = taken.withLock { t in
            defer { t = true }
            return !t
        }
        guard first else { return }
        let folder = folder
        let files = folder.files
        let toParse = Array(positions)
        // Runs of files opened and prefetched together, as `inspect` does: a cold disk
        // answers many reads in flight faster than one after the other.
        let runs = (toParse.count + ParseJob.runLength - 1) / ParseJob.runLength
        let byRun = ParallelMap.run(runs) { r -> [SuggestionCandidate] in
            let run = toParse[(r * ParseJob.runLength)..<min(toParse.count, (r + 1) * ParseJob.runLength)]
            var opened = FileByteSource.openedAhead(
                run.map { files[$0].facts.map { $0.type == .regular } ?? true ? files[$0].path : nil })
            return run.enumerated().map { i, k in
                let entry = files[k]
                let source = opened[i]
                opened[i] = nil  // closed once read
                // The folder's listing says which sidecars exist (no open per candidate name).
                let asset = FileInspector.inspect(
                    path: entry.path, pairLivePhotos: false, facts: entry.facts, folder: folder, opened: source)
                return SuggestionCandidate(asset, modified: entry.key.modifiedSeconds)
            }
        }
        var all: [SuggestionCandidate] = []
        all.reserveCapacity(toParse.count)
        for run in byRun { all += run }
        parsed = all
        done.leave()
    }

    /// Whether the parse is over (`wait` would not wait).
    var isDone: Bool { done.wait(timeout: .now()) == .success }

    /// The candidates, in the order of the positions, once parsed (here, when no thread has
    /// started the parse yet).
    func wait() -> [SuggestionCandidate] {
        parseUnlessTaken()
        done.wait()
        return parsed
    }
}
