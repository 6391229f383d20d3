import Foundation
import PhotoMetaCore
import PhotoMetaSystem

/// A disposable cache of inspection results, so `suggest` parses only new or changed files.
/// A row is valid while the file's path, size, mtime, ctime, inode and device are unchanged;
/// deleting the file changes no answer, only the time it takes.
///
/// Stored in SQLite at `$XDG_CACHE_HOME/photometa/index.sqlite3`
/// (default `~/.cache/photometa/index.sqlite3`).
package final class AssetIndex {
    package let path: String
    private let db: SQLiteDatabase

    // `migrations`: AssetIndexSchema.swift.

    /// What the index knows about one folder as a whole, valid while `digest` matches the
    /// digest of the folder's files as listed now (`FolderDigest`): a file added, removed,
    /// renamed or changed changes it.
    package struct FolderSummary: Sendable, Equatable {
        package var digest: Int64
        /// The folder's candidates after pairing.
        package var files: Int
        /// Their captures' span (`RecencyRule.span(of:)`).
        package var span: ClosedRange<Double>?
        package init(digest: Int64, files: Int, span: ClosedRange<Double>?) {
            self.digest = digest
            self.files = files
            self.span = span
        }
    }

    /// The summary of `directory` (canonical), if one was written.
    package func summary(of directory: String) throws(StateFileError) -> FolderSummary? {
        var found: FolderSummary?
        do throws(SQLiteDatabase.Failure) {
            try db.forEachRow("SELECT digest, files, low, high FROM folders WHERE folder = ?", [.text(directory)]) { r in
                guard let digest = r.int(0), let files = r.int(1), files >= 0 else { return }
                var span: ClosedRange<Double>?
                if let low = r.double(2), let high = r.double(3), low <= high { span = low...high }
                found = FolderSummary(digest: digest, files: Int(files), span: span)
            }
        } catch {
            throw StateFileError(error)
        }
        return found
    }

    package init(path: String) throws(StateFileError) {
        self.path = path
        guard let opened = try StateFile.open(path, migrations: AssetIndex.migrations) else {
            throw .cannotOpen(path: path, message: "not created")
        }
        db = opened
        // A cache: losing the last transaction on power loss costs a re-parse, nothing more.
        try? db.execute("PRAGMA synchronous = NORMAL")
    }

    /// `$XDG_CACHE_HOME/photometa/index.sqlite3`, else `~/.cache/photometa/index.sqlite3`.
    package static func defaultPath(environment: [String: String] = ProcessEnvironment.current) -> String {
        if let x = HomeFolder.base("XDG_CACHE_HOME", environment) { return x + "/photometa/index.sqlite3" }
        let home = HomeFolder.path(environment)
        return home + "/.cache/photometa/index.sqlite3"
    }

    /// One row: a file's canonical path, its key, and its candidate.
    package typealias Row = (path: String, key: FileKey, candidate: SuggestionCandidate)

    /// The rows of the files directly in `directory` (canonical path), in an array.
    package func load(directory: String) throws(StateFileError) -> [Row] {
        var result: [Row] = []
        try forEachRow(directory: directory) { result.append($0) }
        return result
    }

    /// Gives `body` each row of the files directly in `directory` (canonical path), as SQLite
    /// steps through them: a scan keeps the rows it can use, never all of them at once (a
    /// folder of 50,000 files is about 14 MB of rows, docs/performance.md). On an error,
    /// `body` may have had some rows.
    package func forEachRow(directory: String, _ body: (Row) -> Void) throws(StateFileError) {
        do throws(SQLiteDatabase.Failure) {
            try db.forEachRow(AssetIndex.selectRows + "WHERE folder = ?", [.text(directory)]) { r in
                if let row = AssetIndex.row(r) { body(row) }
            }
        } catch {
            throw StateFileError(error)
        }
    }

    /// The row of the file at `path` (canonical) in `directory`, if there is one: a look at a
    /// few names of a large folder (the live library) reads their rows, not the folder's.
    package func row(directory: String, path: String) throws(StateFileError) -> Row? {
        var found: Row?
        do throws(SQLiteDatabase.Failure) {
            try db.forEachRow(AssetIndex.selectRows + "WHERE folder = ? AND path = ?", [.text(directory), .text(path)]) {
                found = AssetIndex.row($0)
            }
        } catch {
            throw StateFileError(error)
        }
        return found
    }

    private static let selectRows =
        "SELECT path, size, mtime_ns, ctime_ns, inode, device, format, kind, truncated, error, content_id, "
        + "clock, local_seconds, nanosecond, fraction_digits, has_time, offset_seconds, offset_source, source, duration, "
        + "sidecar, motion_photo FROM assets "

    private static func row(_ r: SQLiteDatabase.Row) -> Row? {
        guard let path = r.text(0), let size = r.int(1), let m = r.int(2), let c = r.int(3), let ino = r.int(4),
            let dev = r.int(5), let format = r.text(6).flatMap(MediaFormat.init(rawValue:)),
            let kind = r.text(7).flatMap(MediaKind.init(rawValue:))
        else { return nil }
        var captured = AssetIndex.captured(r)
        captured?.sidecar = r.text(20)
        var candidate = SuggestionCandidate(
            path: path, format: format, kind: kind, captured: captured,
            truncated: r.int(8) == 1, error: r.text(9).flatMap(FileReadError.init(stored:)),
            modified: Double(m) / 1e9, size: size)
        candidate.contentIdentifier = r.text(10)
        candidate.durationSeconds = r.double(19)
        candidate.livePhotoEvidence = r.text(21).flatMap(LivePhotoEvidence.init(rawValue:))
        return (path, FileKey(size: size, mtime: m, ctime: c, inode: ino, device: dev), candidate)
    }

    /// Deletes the rows under `root` whose folder was not walked this time (folders that were
    /// removed, renamed or became hidden). Costs a look at the folder list, not at the rows,
    /// when nothing vanished.
    package func removeRows(under root: String, outside walked: [String]) throws(StateFileError) {
        do throws(SQLiteDatabase.Failure) {
            let seen = Set(walked)
            var vanished: [String] = []
            try db.forEachRow(
                "SELECT folder FROM folders WHERE folder = ? OR (folder >= ? AND folder < ?)",
                [.text(root), .text(root + "/"), .text(root + "0")]
            ) { r in
                if let f = r.text(0), !seen.contains(f) { vanished.append(f) }
            }
            guard !vanished.isEmpty else { return }
            try db.transaction { () throws(SQLiteDatabase.Failure) in
                try db.executeEach("DELETE FROM assets WHERE folder = ?", vanished.map { [.text($0)] })
                try db.executeEach("DELETE FROM folders WHERE folder = ?", vanished.map { [.text($0)] })
            }
        } catch {
            throw StateFileError(error)
        }
    }

    private static func captured(_ r: SQLiteDatabase.Row) -> CaptureDate? {
        guard let clock = r.text(11), let secs = r.int(12), let source = r.text(18).flatMap(DateSource.init(rawValue:)),
            let local = LocalDateTime(
                secondsAsIfUTC: secs, nanosecond: Int(r.int(13) ?? 0),
                fractionDigits: r.int(14).map { Int($0) })
        else { return nil }
        var l = local
        l.hasTime = r.int(15) != 0
        if clock == "instant" { return CaptureDate(.instant(utc: l), source: source) }
        let offset = r.int(16).flatMap { UTCOffset(seconds: Int($0)) }
        return CaptureDate(
            .wall(l, offset: offset, offsetSource: r.text(17).flatMap(OffsetSource.init(rawValue:))),
            source: source)
    }

    /// Stores new or changed rows and deletes rows of files that are gone, in one transaction.
    package func update(
        _ rows: [(path: String, folder: String, key: FileKey, candidate: SuggestionCandidate)],
        removing gone: [(folder: String, path: String)], summaries: [(folder: String, summary: FolderSummary)] = []
    ) throws(StateFileError) {
        guard !rows.isEmpty || !gone.isEmpty || !summaries.isEmpty else { return }
        do throws(SQLiteDatabase.Failure) {
            try db.transaction { () throws(SQLiteDatabase.Failure) in
                try db.executeEach(
                    "DELETE FROM assets WHERE folder = ? AND path = ?", gone.map { [.text($0.folder), .text($0.path)] })
                // Rows come folder by folder: a folder is hashed once, not once a row.
                var folders: Set<String> = []
                var last: String?
                for row in rows where row.folder != last {
                    folders.insert(row.folder)
                    last = row.folder
                }
                try db.executeEach("INSERT OR IGNORE INTO folders (folder) VALUES (?)", folders.map { [.text($0)] })
                // Each row's values are bound as they are read: no array of them per row, and
                // the row is taken apart once (each use of a tuple's member copied all of it).
                try rows.withUnsafeBufferPointer { rows throws(SQLiteDatabase.Failure) in
                    try db.executeEach(
                        "INSERT OR REPLACE INTO assets VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        count: rows.count
                    ) { i, bind in
                        let row = rows[i]
                        AssetIndex.bindRow(row.folder, row.path, row.key, row.candidate, &bind)
                    }
                }
                // After the rows they summarise, in the same transaction.
                try db.executeEach(
                    "INSERT INTO folders VALUES (?, ?, ?, ?, ?) ON CONFLICT (folder) DO UPDATE SET digest = excluded.digest, "
                        + "files = excluded.files, low = excluded.low, high = excluded.high",
                    summaries.map { f in
                        [
                            .text(f.folder), .integer(f.summary.digest), .integer(Int64(f.summary.files)),
                            f.summary.span.map { .real($0.lowerBound) } ?? .null,
                            f.summary.span.map { .real($0.upperBound) } ?? .null,
                        ]
                    })
            }
        } catch {
            throw StateFileError(error)
        }
    }

    /// One row's 23 columns, in the table's order.
    private static func bindRow(
        _ folder: String, _ path: String, _ key: FileKey, _ c: borrowing SuggestionCandidate,
        _ bind: inout SQLiteDatabase.Binder
    ) {
        bind.text(folder)
        bind.text(path)
        bind.integer(key.size)
        bind.integer(key.mtimeNanoseconds)
        bind.integer(key.ctimeNanoseconds)
        bind.integer(key.inode)
        bind.integer(key.device)
        bind.text(c.format.rawValue)
        bind.text(c.kind.rawValue)
        bind.integer(c.truncated ? 1 : 0)
        bind.text(c.error?.stored)
        bind.text(c.contentIdentifier)
        bindCapture(c.captured, &bind)
        bind.real(c.durationSeconds)
        bind.text(c.captured?.sidecar)
        bind.text(c.livePhotoEvidence?.isMotionPhoto == true ? c.livePhotoEvidence?.rawValue ?? "" : nil)
    }

    /// A capture date's eight columns: clock, local seconds, nanosecond, fraction digits,
    /// has time, offset, offset source, source (all NULL without a date).
    private static func bindCapture(_ captured: borrowing CaptureDate?, _ bind: inout SQLiteDatabase.Binder) {
        guard let d = copy captured else {
            for _ in 0..<8 { bind.null() }
            return
        }
        let l: LocalDateTime
        var offset: Int64?
        var offsetSource: String?
        switch d.clock {
        case .instant(let utc):
            bind.text("instant")
            l = utc
        case .wall(let w, let o, let os):
            bind.text("wall")
            l = w
            offset = o.map { Int64($0.seconds) }
            offsetSource = os?.rawValue
        }
        bind.integer(l.secondsAsIfUTC)
        bind.integer(Int64(l.nanosecond))
        if let digits = l.fractionDigits { bind.integer(Int64(digits)) } else { bind.null() }
        bind.integer(l.hasTime ? 1 : 0)
        if let offset { bind.integer(offset) } else { bind.null() }
        bind.text(offsetSource)
        bind.text(d.source.rawValue)
    }
}
