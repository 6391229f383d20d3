import Foundation
import PhotoMetaCore
import PhotoMetaSystem
import Synchronization

/// Writes index rows on a thread of its own (`SerialWorker`, not a dispatch queue: an idle
/// `serve` wakes no thread) with its own connection, while parsing goes on (WAL lets the reads
/// of the next folders proceed meanwhile). Failures become notes: the index is a cache, so a
/// failed write costs a re-parse next time, nothing else.
package final class IndexWriter: Sendable {
    /// One row: the file, the folder that lists it, its key and what was parsed.
    package typealias Row = (path: String, folder: String, key: FileKey, candidate: SuggestionCandidate)

    private let index: AssetIndexBox
    private let queue = SerialWorker(name: "photometa.index")
    private let notes = Mutex<[String]>([])

    package init(_ index: AssetIndex) { self.index = AssetIndexBox(index) }

    package func update(
        _ rows: [Row], removing gone: [(folder: String, path: String)],
        summaries: [(folder: String, summary: AssetIndex.FolderSummary)] = []
    ) {
        queue.async {
            do throws(StateFileError) {
                try self.index.value.update(rows, removing: gone, summaries: summaries)
            } catch {
                self.note("index not updated (\(error))")
            }
        }
    }

    package func removeRows(under root: String, outside walked: [String]) {
        queue.async {
            do throws(StateFileError) {
                try self.index.value.removeRows(under: root, outside: walked)
            } catch {
                self.note("index not cleaned (\(error))")
            }
        }
    }

    /// Waits for every queued write; returns the problems met.
    package func finish() -> [String] {
        queue.sync()
        return notes.withLock { Array(Set($0)).sorted() }
    }

    private func note(_ n: String) {
        notes.withLock { $0.append(n) }
    }
}

/// The writer's connection, used only on the writer's thread (hence `@unchecked`).
private final class AssetIndexBox: @unchecked Sendable {
    let value: AssetIndex
    init(_ value: AssetIndex) { self.value = value }
}
