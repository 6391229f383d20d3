import Foundation
import PhotoMetaCore
import PhotoMetaSystem

/// The persistent memory of what was offered or dismissed, per folder: one timestamp (seconds
/// since 1970, UTC). An asset captured at or before it is not offered again. Timestamps, not
/// identities, so the same photo read twice (renamed, copied, re-indexed) never comes back.
///
/// Stored in SQLite at `$XDG_STATE_HOME/photometa/state.sqlite3`
/// (default `~/.local/state/photometa/state.sqlite3`).
package final class SuggestionMemory {
    package let path: String
    /// Nil when opened read-only and the file does not exist (yet).
    private let db: SQLiteDatabase?

    /// Schema migrations; index i brings user_version from i to i+1.
    static let migrations = [
        """
        CREATE TABLE folder_memory (
            folder TEXT PRIMARY KEY,      -- canonical path of the watched folder
            remembered REAL NOT NULL,     -- everything captured at or before this instant was seen
            last_offered TEXT,            -- path of the last suggestion, for people reading the file
            updated REAL NOT NULL         -- when this row last changed (seconds since 1970)
        );
        """
    ]

    /// `busyTimeoutMilliseconds`: how long to wait for another process's lock before giving up
    /// with an error (30 s: "normal contention" never reaches it). The file is checked with
    /// SQLite's `quick_check` before it is used: a damaged memory is refused, never written.
    /// `readOnly` (`suggest --peek`, and `suggest` before it has shown its offer) creates and
    /// writes nothing; a missing file then remembers nothing.
    package init(path: String, busyTimeoutMilliseconds: Int32 = 30_000, readOnly: Bool = false) throws(StateFileError) {
        self.path = path
        self.readOnly = readOnly
        db = try StateFile.open(
            path, migrations: SuggestionMemory.migrations, busyTimeoutMilliseconds: busyTimeoutMilliseconds, verify: true,
            readOnly: readOnly)
    }

    /// Opened read-only.
    package let readOnly: Bool

    /// The connection for a write; opened read-only, there is none.
    private func writable() throws(StateFileError) -> SQLiteDatabase {
        guard let db, !readOnly else { throw .readOnly(path: path) }
        return db
    }

    /// `$XDG_STATE_HOME/photometa/state.sqlite3`, else `~/.local/state/photometa/state.sqlite3`.
    package static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let x = environment["XDG_STATE_HOME"], x.hasPrefix("/") { return x + "/photometa/state.sqlite3" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/state/photometa/state.sqlite3"
    }

    /// The remembered instant for `folder`, or nil when nothing was offered or dismissed there.
    package func remembered(folder: String) throws(StateFileError) -> Double? {
        do throws(SQLiteDatabase.Failure) {
            guard let db else { return nil }
            return try db.query("SELECT remembered FROM folder_memory WHERE folder = ?", [.text(folder)]).first?.first?.double
        } catch {
            throw StateFileError(error)
        }
    }

    /// Moves the folder's timestamp forward to `instant` (never back: a concurrent process that
    /// remembered a later instant keeps it). Returns the stored value.
    @discardableResult
    package func advance(folder: String, to instant: Double, offered: String?, now: Double) throws(StateFileError) -> Double {
        let db = try writable()
        do throws(SQLiteDatabase.Failure) {
            return try db.transaction { () throws(SQLiteDatabase.Failure) -> Double in
                try db.query(
                    """
                    INSERT INTO folder_memory (folder, remembered, last_offered, updated) VALUES (?, ?, ?, ?)
                    ON CONFLICT(folder) DO UPDATE SET
                        last_offered = CASE WHEN excluded.remembered > remembered AND excluded.last_offered IS NOT NULL
                                            THEN excluded.last_offered ELSE last_offered END,
                        remembered = max(remembered, excluded.remembered),
                        updated = excluded.updated
                    """, [.text(folder), .real(instant), offered.map { .text($0) } ?? .null, .real(now)])
                return try db.query("SELECT remembered FROM folder_memory WHERE folder = ?", [.text(folder)])
                    .first?.first?.double ?? instant
            }
        } catch {
            throw StateFileError(error)
        }
    }

    /// Clears the folder's memory; true when there was something to clear.
    @discardableResult
    package func forget(folder: String) throws(StateFileError) -> Bool {
        let db = try writable()
        do throws(SQLiteDatabase.Failure) {
            return try db.transaction { () throws(SQLiteDatabase.Failure) -> Bool in
                let had = try !db.query("SELECT 1 FROM folder_memory WHERE folder = ?", [.text(folder)]).isEmpty
                try db.query("DELETE FROM folder_memory WHERE folder = ?", [.text(folder)])
                return had
            }
        } catch {
            throw StateFileError(error)
        }
    }
}
