import Foundation

/// Opens one of photometa's own SQLite files (the suggestion memory, the index), recognises it
/// by `PRAGMA application_id`, brings its schema up to date with numbered migrations
/// (`PRAGMA user_version`), and refuses, with a message that names the file and what to do,
/// anything that is not photometa's: a foreign database is never overwritten.
public enum StateFile {
    /// "PHMT".
    static let applicationID: Int64 = 0x5048_4D54

    public enum Failure: Error, CustomStringConvertible, Equatable {
        case database(SQLiteDatabase.Failure)
        /// A SQLite file that belongs to another program.
        case foreign(path: String, tables: [String])
        /// Written by a newer photometa with a schema this one does not know.
        case newerVersion(path: String, version: Int64)
        case cannotCreateFolder(path: String, reason: String)

        public var description: String {
            switch self {
            case .database(.notADatabase(let p)):
                return "\(p) is not a photometa state file (it is corrupt or not a SQLite database); it was left untouched. Move it away, or choose another file with --state"
            case .database(let f):
                return f.description
            case .foreign(let p, let tables):
                return "\(p) is another program's SQLite database (tables: \(tables.joined(separator: ", "))); it was left untouched. Choose another file with --state"
            case .newerVersion(let p, let v):
                return "\(p) has schema version \(v), written by a newer photometa; upgrade photometa or use another file with --state"
            case .cannotCreateFolder(let p, let r):
                return "cannot create \(p): \(r)"
            }
        }
    }

    /// Opens `path`, creating it and its folder when missing, and applies `migrations[i]` to
    /// bring `user_version` from i to i+1.
    static func open(_ path: String, migrations: [String], busyTimeoutMilliseconds: Int32 = 30_000) throws(Failure) -> SQLiteDatabase {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw .cannotCreateFolder(path: folder, reason: (error as NSError).localizedDescription)
            }
        }
        let db: SQLiteDatabase
        let appID: Int64, version: Int64, tables: [String]
        do throws(SQLiteDatabase.Failure) {
            db = try SQLiteDatabase(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            // One read transaction: a consistent snapshot even while another process migrates.
            try db.execute("BEGIN")
            defer { try? db.execute("COMMIT") }
            appID = try db.query("PRAGMA application_id").first?.first?.int ?? 0
            version = try db.userVersion()
            tables = try db.tableNames()
        } catch {
            throw .database(error)
        }
        if appID != applicationID {
            guard tables.isEmpty, version == 0 else { throw .foreign(path: path, tables: tables) }
        }
        guard version <= Int64(migrations.count) else { throw .newerVersion(path: path, version: version) }
        do throws(SQLiteDatabase.Failure) {
            try db.enableWAL()
            if version < Int64(migrations.count) {
                try db.transaction { () throws(SQLiteDatabase.Failure) in
                    // Re-read inside the write lock: another process may have migrated meanwhile.
                    let current = try db.userVersion()
                    for v in Int(current)..<migrations.count {
                        try db.execute(migrations[v])
                        try db.setUserVersion(Int64(v + 1))
                    }
                    try db.execute("PRAGMA application_id = \(applicationID)")
                }
            }
        } catch {
            throw .database(error)
        }
        return db
    }
}
