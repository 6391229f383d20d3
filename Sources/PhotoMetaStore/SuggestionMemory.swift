import Foundation
import PhotoMetaCore
import PhotoMetaSystem

/// The persistent memory of what was offered or dismissed, per profile (one consumer, such as a
/// chat app; `default` unless `--profile` says otherwise): one timestamp (seconds since 1970,
/// UTC) for all folders. An asset captured at or before it is not offered again. Timestamps,
/// not identities, so the same photo read twice (renamed, copied, re-indexed, or reached
/// through a parent and a child folder) never comes back.
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
        """,
        // v2: one instant per profile, not per folder: a chat app keeps one "last offered" for
        // the whole library, so the same photo reached through two folder names is offered
        // once. The folders' rows fold into the default profile as the latest of them.
        """
        CREATE TABLE profile_memory (
            profile TEXT PRIMARY KEY,     -- who is offered: 'default', or a --profile name
            remembered REAL NOT NULL,     -- everything captured at or before this instant was seen
            last_offered TEXT,            -- path of the last suggestion, for people reading the file
            updated REAL NOT NULL         -- when this row last changed (seconds since 1970)
        );
        INSERT INTO profile_memory (profile, remembered, last_offered, updated)
            SELECT 'default', remembered, last_offered, updated FROM folder_memory
            ORDER BY remembered DESC LIMIT 1;
        DROP TABLE folder_memory;
        """,
        // v3: the standing offer: the last offer's file (canonical path) and capture instant,
        // so a client can ask what is on offer now (`suggest --standing`). Rows of older files
        // know no standing offer until the next one.
        """
        ALTER TABLE profile_memory ADD COLUMN offered_path TEXT;
        ALTER TABLE profile_memory ADD COLUMN offered_instant REAL;
        """,
        // v4: the standing offer's file identity (device, inode), so that `suggest --standing`
        // finds the file after a rename inside the folders even when no watch followed it.
        """
        ALTER TABLE profile_memory ADD COLUMN offered_device INTEGER;
        ALTER TABLE profile_memory ADD COLUMN offered_inode INTEGER;
        """,
        // v5: the standing offer's file size and modification time (nanoseconds), so an inode
        // number the file system gave to a new file after the offered one was deleted is not
        // taken for the offer.
        """
        ALTER TABLE profile_memory ADD COLUMN offered_size INTEGER;
        ALTER TABLE profile_memory ADD COLUMN offered_mtime INTEGER;
        """,
    ]

    /// The profile used when none is named.
    package static let defaultProfile = "default"

    /// `busyTimeoutMilliseconds`: how long to wait for another process's lock before giving up
    /// with an error (30 s: "normal contention" never reaches it). The file is checked with
    /// SQLite's `quick_check` before it is used: a damaged memory is refused, never written.
    /// `readOnly` (`suggest --peek`, and `suggest` before it has shown its offer) creates and
    /// writes nothing; a missing file then remembers nothing.
    package init(path: String, busyTimeoutMilliseconds: Int32 = 30_000, readOnly: Bool = false) throws(StateFileError) {
        self.path = path
        self.readOnly = readOnly
        var version: Int64 = 0
        db = try StateFile.open(
            path, migrations: SuggestionMemory.migrations, busyTimeoutMilliseconds: busyTimeoutMilliseconds, verify: true,
            readOnly: readOnly, version: &version)
        schemaVersion = readOnly ? version : Int64(SuggestionMemory.migrations.count)
        opened = db == nil ? nil : (try? FileFacts.of(path, followLinks: false)).map { ($0.key.device, $0.key.inode) }
    }

    /// The file's device and inode when it was opened (nil: no file).
    private let opened: (device: Int64, inode: Int64)?

    /// Whether `path` still leads to the file opened (not deleted, renamed away or replaced):
    /// a long-lived process (`watch`) would otherwise go on writing into a file no name leads
    /// to. Always true for a memory opened without a file.
    package var isStillAtItsPath: Bool {
        guard let opened else { return true }
        guard let now = try? FileFacts.of(path, followLinks: false) else { return false }
        return now.key.device == opened.device && now.key.inode == opened.inode
    }

    /// The schema of the open file: the current one, or, opened read-only, possibly an older
    /// one (which is read as it is, never migrated without a write).
    private let schemaVersion: Int64

    /// Opened read-only.
    package let readOnly: Bool

    /// The connection for a write; opened read-only, there is none.
    private func writable() throws(StateFileError) -> SQLiteDatabase {
        guard let db, !readOnly else { throw .readOnly(path: path) }
        return db
    }

    /// `$XDG_STATE_HOME/photometa/state.sqlite3`, else `~/.local/state/photometa/state.sqlite3`.
    package static func defaultPath(environment: [String: String] = ProcessEnvironment.current) -> String {
        if let x = HomeFolder.base("XDG_STATE_HOME", environment) { return x + "/photometa/state.sqlite3" }
        let home = HomeFolder.path(environment)
        return home + "/.local/state/photometa/state.sqlite3"
    }

    /// The remembered instant of `profile`, or nil when nothing was offered or dismissed for it.
    package func remembered(profile: String) throws(StateFileError) -> Double? {
        do throws(SQLiteDatabase.Failure) {
            guard let db else { return nil }
            if schemaVersion == 1 {
                // Before profiles: the folders' instants, whose latest the migration would give
                // the default profile.
                guard profile == SuggestionMemory.defaultProfile else { return nil }
                return try db.query("SELECT max(remembered) FROM folder_memory").first?.first?.double
            }
            return try db.query("SELECT remembered FROM profile_memory WHERE profile = ?", [.text(profile)]).first?.first?.double
        } catch {
            throw StateFileError(error)
        }
    }

    /// Moves the profile's timestamp forward to `instant` (never back: a concurrent process that
    /// remembered a later instant keeps it). Returns the stored value.
    @discardableResult
    package func advance(profile: String, to instant: Double, offered: String?, now: Double) throws(StateFileError) -> Double {
        let db = try writable()
        do throws(SQLiteDatabase.Failure) {
            return try db.transaction { () throws(SQLiteDatabase.Failure) -> Double in
                try db.query(
                    """
                    INSERT INTO profile_memory (profile, remembered, last_offered, updated) VALUES (?, ?, ?, ?)
                    ON CONFLICT(profile) DO UPDATE SET
                        last_offered = CASE WHEN excluded.remembered > remembered AND excluded.last_offered IS NOT NULL
                                            THEN excluded.last_offered ELSE last_offered END,
                        remembered = max(remembered, excluded.remembered),
                        updated = excluded.updated
                    """, [.text(profile), .real(instant), offered.map { .text($0) } ?? .null, .real(now)])
                return try db.query("SELECT remembered FROM profile_memory WHERE profile = ?", [.text(profile)])
                    .first?.first?.double ?? instant
            }
        } catch {
            throw StateFileError(error)
        }
    }

    /// `offerOnce`'s transaction: the offer was old news, or written over the row as it was.
    private enum OfferStep {
        case seen(remembered: Double)
        case written(before: [SQLiteDatabase.Value]?)
    }

    /// What became of an offer made through `offerOnce`.
    package enum OfferOutcome: Sendable, Equatable {
        /// Recorded and delivered: this process made the offer.
        case recorded
        /// Another process offered or dismissed it (or something newer) first: the profile's
        /// memory already reaches `remembered`, at or past the offer's instant. Nothing was
        /// delivered.
        case alreadySeen(remembered: Double)
        /// `deliver` said the offer did not reach anyone: taken back (`offerOnce`).
        case notDelivered
    }

    /// Offers `offered` (captured at `instant`) once among every process sharing this memory:
    /// under the write lock, the remembered instant is read again, and only if the offer is
    /// still news is it recorded and committed; then it is delivered (`deliver`: the CLI
    /// prints there). Racing askers queue on the lock (the busy timeout), so exactly one of
    /// them records and delivers it. Recorded before delivered, so what a delivery says
    /// ("recorded") is true: a commit that fails (a full disk) delivers nothing. A delivery
    /// that fails (a reader gone, stdout on a full disk) takes the offer back: the row is set
    /// again to what it was, unless another process wrote it meanwhile, and the next asker
    /// makes the offer again.
    package func offerOnce(
        profile: String, instant: Double, offered: String, file: String? = nil, identity: FileIdentity? = nil,
        replacing: String? = nil, now: Double, deliver: () -> Bool
    ) throws(StateFileError) -> OfferOutcome {
        let db = try writable()
        let columns =
            "remembered, last_offered, updated, offered_path, offered_instant, offered_device, offered_inode, offered_size,"
            + " offered_mtime"
        let before: [SQLiteDatabase.Value]?
        do throws(SQLiteDatabase.Failure) {
            let step = try db.conditionalTransaction { () throws(SQLiteDatabase.Failure) -> (value: OfferStep, commit: Bool) in
                let row = try db.query("SELECT \(columns) FROM profile_memory WHERE profile = ?", [.text(profile)]).first
                // `replacing`: the file whose place this offer takes (a raw's picture), when the
                // row still offers it; the remembered instant then never moves back.
                let current = row?.first?.double
                if let current, current >= instant, replacing == nil || row?[3].string != replacing {
                    return (.seen(remembered: current), false)
                }
                let remembered = max(current ?? instant, instant)
                try db.query(
                    """
                    INSERT INTO profile_memory (profile, \(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(profile) DO UPDATE SET
                        remembered = excluded.remembered, last_offered = excluded.last_offered, updated = excluded.updated,
                        offered_path = excluded.offered_path, offered_instant = excluded.offered_instant,
                        offered_device = excluded.offered_device, offered_inode = excluded.offered_inode,
                        offered_size = excluded.offered_size, offered_mtime = excluded.offered_mtime
                    """,
                    [
                        .text(profile), .real(remembered), .text(offered), .real(now), file.map { .text($0) } ?? .null,
                        // The raw's instant when taking its place (the same shot, never earlier
                        // than what is remembered: the standing offer stands).
                        .real(remembered),
                        identity.map { .integer($0.device) } ?? .null, identity.map { .integer($0.inode) } ?? .null,
                        identity?.size.map { .integer($0) } ?? .null, identity?.mtimeNanoseconds.map { .integer($0) } ?? .null,
                    ])
                return (.written(before: row), true)
            }
            switch step {
            case .seen(let remembered): return .alreadySeen(remembered: remembered)
            case .written(let row): before = row
            }
        } catch {
            throw StateFileError(error)
        }
        if deliver() { return .recorded }
        takeBack(profile: profile, offered: offered, now: now, to: before, columns: columns)
        return .notDelivered
    }

    /// Sets the profile's row back to `before` (nil: no row) after an offer that reached
    /// no one, if the row is still the one `offerOnce` wrote (same path and time); a newer
    /// write by another process stays. Best effort: when it fails, the offer stays recorded.
    private func takeBack(profile: String, offered: String, now: Double, to before: [SQLiteDatabase.Value]?, columns: String) {
        guard let db = try? writable() else { return }
        let ours = "profile = ? AND last_offered = ? AND updated = ?"
        let key: [SQLiteDatabase.Value] = [.text(profile), .text(offered), .real(now)]
        if let before, before.count == 9 {
            let set = columns.split(separator: ",").map { "\($0.trimmingCharacters(in: .whitespaces)) = ?" }.joined(
                separator: ", ")
            _ = try? db.query("UPDATE profile_memory SET \(set) WHERE \(ours)", before + key)
        } else {
            _ = try? db.query("DELETE FROM profile_memory WHERE \(ours)", key)
        }
    }

    /// The profile's standing offer: the last offer's file (canonical path, as recorded) and
    /// capture instant, while nothing moved the memory past it (no dismissal up to a later
    /// instant, no newer offer); nil when there is none or the file predates it (schema < 3).
    package func standingOffer(profile: String) throws(StateFileError) -> StandingRecord? {
        guard let db, schemaVersion >= 3 else { return nil }
        do throws(SQLiteDatabase.Failure) {
            let identity =
                schemaVersion >= 5
                ? ", offered_device, offered_inode, offered_size, offered_mtime"
                : schemaVersion >= 4 ? ", offered_device, offered_inode" : ""
            let row = try db.query(
                "SELECT offered_path, offered_instant, remembered\(identity) FROM profile_memory WHERE profile = ?",
                [.text(profile)]
            ).first
            guard let row, row.count >= 3, let file = row[0].string, let instant = row[1].double, let remembered = row[2].double,
                remembered <= instant
            else { return nil }
            var record = StandingRecord(file: file, instant: instant)
            if row.count >= 5, let device = row[3].int, let inode = row[4].int {
                record.identity = FileIdentity(
                    device: device, inode: inode, size: row.count == 7 ? row[5].int : nil,
                    mtimeNanoseconds: row.count == 7 ? row[6].int : nil)
            }
            return record
        } catch {
            throw StateFileError(error)
        }
    }

    /// The profile's row as it is (`OfferKeeper` compares it with the offer it shows): the
    /// standing offer's file and instant (nil before schema 3 or when none was recorded) and
    /// the remembered instant; nil when the profile has no row (nothing offered, or forgotten).
    package func offerRecord(profile: String) throws(StateFileError) -> (file: String?, instant: Double?, remembered: Double)? {
        guard let db, schemaVersion >= 3 else { return nil }
        do throws(SQLiteDatabase.Failure) {
            let row = try db.query(
                "SELECT offered_path, offered_instant, remembered FROM profile_memory WHERE profile = ?", [.text(profile)]
            ).first
            guard let row, row.count == 3, let remembered = row[2].double else { return nil }
            return (row[0].string, row[1].double, remembered)
        } catch {
            throw StateFileError(error)
        }
    }

    /// The standing offer's file was renamed from `file` to `to` (canonical paths): the offer
    /// follows it, with the file's `identity` there when given (a rename that also set its
    /// time). Nothing changes when another offer stands meanwhile. True when it moved.
    @discardableResult
    package func follow(profile: String, from file: String, to: String, now: Double, identity: FileIdentity? = nil)
        throws(StateFileError) -> Bool
    {
        let db = try writable()
        do throws(SQLiteDatabase.Failure) {
            return try db.transaction { () throws(SQLiteDatabase.Failure) -> Bool in
                // The identity kept when none is given (COALESCE with the column itself).
                try db.query(
                    "UPDATE profile_memory SET offered_path = ?, updated = ?, offered_device = COALESCE(?, offered_device),"
                        + " offered_inode = COALESCE(?, offered_inode), offered_size = COALESCE(?, offered_size),"
                        + " offered_mtime = COALESCE(?, offered_mtime) WHERE profile = ? AND offered_path = ?",
                    [
                        .text(to), .real(now), identity.map { .integer($0.device) } ?? .null,
                        identity.map { .integer($0.inode) } ?? .null, identity?.size.map { .integer($0) } ?? .null,
                        identity?.mtimeNanoseconds.map { .integer($0) } ?? .null, .text(profile), .text(file),
                    ])
                return try db.query("SELECT changes()").first?.first?.int == 1
            }
        } catch {
            throw StateFileError(error)
        }
    }

    /// Clears the profile's memory; true when there was something to clear.
    @discardableResult
    package func forget(profile: String) throws(StateFileError) -> Bool {
        let db = try writable()
        do throws(SQLiteDatabase.Failure) {
            return try db.transaction { () throws(SQLiteDatabase.Failure) -> Bool in
                let had = try !db.query("SELECT 1 FROM profile_memory WHERE profile = ?", [.text(profile)]).isEmpty
                try db.query("DELETE FROM profile_memory WHERE profile = ?", [.text(profile)])
                return had
            }
        } catch {
            throw StateFileError(error)
        }
    }
}
