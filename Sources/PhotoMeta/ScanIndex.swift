import PhotoMetaCore
import PhotoMetaStore
import PhotoMetaSystem

/// The index as one scan uses it: rows read per folder, writes batched (2,000 rows) on the
/// writer's connection, rows of vanished folders cleaned once a root was walked. A failure
/// makes it a note, and the scan parses every file instead.
package struct ScanIndex {
    private var index: AssetIndex
    private let writer: IndexWriter
    private var rows: [IndexWriter.Row] = []
    private var gone: [(folder: String, path: String)] = []
    private var summaries: [(folder: String, summary: AssetIndex.FolderSummary)] = []
    /// Reading the index failed: the scan goes on without it.
    private(set) var failed = false

    /// The index at `path`, or nil (with a note) when there is none or it cannot be used.
    package static func open(_ path: String?, notes: inout [String]) -> ScanIndex? {
        guard let path else { return nil }
        do throws(StateFileError) {
            let (index, writer) = try Suggester.openIndex(path, notes: &notes)
            return ScanIndex(index: index, writer: writer)
        } catch {
            notes.append("index not used (\(error)); every file is parsed")
            return nil
        }
    }

    private init(index: AssetIndex, writer: IndexWriter) {
        self.index = index
        self.writer = writer
    }

    /// Gives `body` the rows of `directory`'s files one by one; false when the index could not
    /// be read (said once in a note; the rows parsed are still written): what `body` was given
    /// then is not to be used, and nothing is given from then on.
    mutating func forEachRow(of directory: String, notes: inout [String], _ body: (AssetIndex.Row) -> Void) -> Bool {
        guard !failed else { return true }
        do throws(StateFileError) {
            try index.forEachRow(directory: directory, body)
            return true
        } catch {
            notes.append("index not used (\(error)); every file is parsed")
            failed = true
            return false
        }
    }

    /// The row of the file at `path` in `directory`; nil when there is none or the index
    /// cannot be read (said once in a note, as for `forEachRow`).
    mutating func row(of path: String, in directory: String, notes: inout [String]) -> AssetIndex.Row? {
        guard !failed else { return nil }
        do throws(StateFileError) {
            return try index.row(directory: directory, path: path)
        } catch {
            notes.append("index not used (\(error)); every file is parsed")
            failed = true
            return nil
        }
    }

    mutating func queue(_ row: IndexWriter.Row) {
        rows.append(row)
        if rows.count >= 2_000 { flush() }
    }

    mutating func queueGone(_ folder: String, _ paths: [String]) {
        gone += paths.map { (folder, $0) }
    }

    /// The folder's summary, written after its rows (queued before it).
    mutating func queueSummary(_ folder: String, _ summary: AssetIndex.FolderSummary) {
        summaries.append((folder, summary))
    }

    /// The summary of `directory`, if the index has one (nil also when it cannot be read).
    func summary(of directory: String) -> AssetIndex.FolderSummary? {
        guard !failed else { return nil }
        return try? index.summary(of: directory)
    }

    /// Once a root was walked: writes what is queued, and drops rows of its vanished
    /// sub-folders (only a folder walked here may have them cleaned).
    mutating func finishRoot(_ root: String, walked: [String]) {
        flush()
        if !walked.isEmpty { writer.removeRows(under: root, outside: walked) }
    }

    /// Ends the writes; notes for people.
    package func finish() -> [String] { writer.finish() }

    /// Writes what is queued.
    mutating func flush() {
        guard !rows.isEmpty || !gone.isEmpty || !summaries.isEmpty else { return }
        writer.update(rows, removing: gone, summaries: summaries)
        rows.removeAll(keepingCapacity: true)
        gone.removeAll(keepingCapacity: true)
        summaries.removeAll(keepingCapacity: true)
    }
}
