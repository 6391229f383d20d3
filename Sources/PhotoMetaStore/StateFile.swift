import Foundation
import PhotoMetaCore
import PhotoMetaSystem

/// Opens one of photometa's own SQLite files (the suggestion memory, the index), recognises it
/// by `PRAGMA application_id`, brings its schema up to date with numbered migrations
/// (`PRAGMA user_version`), and refuses, with a message that names the file and what to do,
/// anything that is not photometa's: a foreign database is never overwritten.
package enum StateFile {
    /// "PHMT".
    static let applicationID: Int64 = 0x5048_4D54

    /// Opens `path`, creating it and its folder when missing, and applies `migrations[i]` to
    /// bring `user_version` from i to i+1.
    ///
    /// The folder and the file are checked first (`PrivateFiles`): no symbolic links, owned by
    /// this user, writable by no one else; new ones are made 0700 and 0600. The file is checked
    /// (`PrivateFiles.check`: its device and inode), SQLite opens it by name
    /// (`SQLITE_OPEN_NOFOLLOW`), and the name must still lead to that same file afterwards, so a
    /// file swapped in between the check and SQLite's open is refused. No descriptor of ours is
    /// held across SQLite's open (`PrivateFiles.CheckedFile` says why). With `verify`,
    /// SQLite's `quick_check` must pass before anything is written: a damaged file is refused
    /// and left as it is. With `readOnly`, nothing is created or written, and a missing file
    /// (or one not yet set up) gives nil.
    static func open(
        _ path: String, migrations: [String], busyTimeoutMilliseconds: Int32 = 30_000, verify: Bool = false,
        readOnly: Bool = false, version openedVersion: UnsafeMutablePointer<Int64>? = nil
    ) throws(StateFileError) -> SQLiteDatabase? {
        let folder = (path as NSString).deletingLastPathComponent
        let checked: PrivateFiles.CheckedFile
        do throws(PrivateFiles.Problem) {
            if readOnly {
                guard FileSystem.exists(path) else { return nil }
                try PrivateFiles.checkFolder(folder.isEmpty ? "." : folder)
            } else if !folder.isEmpty {
                try PrivateFiles.ensureFolder(folder)
            }
            guard let c = try PrivateFiles.check(path, create: !readOnly) else { return nil }
            checked = c
        } catch {
            throw .unsafe(path: path, reason: error.description)
        }
        let sqlitePath = canonicalName(path, in: folder)
        var db = try openChecked(checked, sqlitePath, create: !readOnly, readOnly: readOnly, busyTimeoutMilliseconds)
        let appID: Int64
        let version: Int64
        let tables: [String]
        do throws(SQLiteDatabase.Failure) {
            (appID, version, tables) = try db.identity()
        } catch {
            // A WAL file where its `-wal` and `-shm` cannot be made (a read-only file system, a
            // folder its owner may not write; SQLite then names the missing `-wal`): to write,
            // that is the error to report; to read, nobody can write it there either, so it is
            // read as immutable (`--peek` reads, and records nothing).
            guard case .cannotOpen = error, let refusal = FileSystem.writeRefusal(folder.isEmpty ? "." : folder) else {
                throw StateFileError(error)
            }
            guard readOnly else { throw refusal.errno == EROFS ? .readOnlyFileSystem(path: path) : .readOnly(path: path) }
            db = try openChecked(
                checked, sqlitePath, create: false, readOnly: true, immutable: true, busyTimeoutMilliseconds)
            do throws(SQLiteDatabase.Failure) {
                (appID, version, tables) = try db.identity()
            } catch {
                throw StateFileError(error)
            }
        }
        if appID != applicationID {
            guard tables.isEmpty, version == 0 else { throw .foreign(path: path, tables: tables) }
        }
        guard version <= Int64(migrations.count) else { throw .newerVersion(path: path, version: version) }
        if verify, !tables.isEmpty {
            let result: String
            do throws(SQLiteDatabase.Failure) {
                result = try db.query("PRAGMA quick_check").first?.first?.string ?? ""
            } catch {
                throw StateFileError(error)
            }
            guard result == "ok" else { throw .damaged(path: path, detail: result) }
        }
        // Read-only, an older schema cannot be brought up to date; the caller reads it as it is
        // (it learns the version) or not at all.
        openedVersion?.pointee = version
        if readOnly { return tables.isEmpty ? nil : db }
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
            throw StateFileError(error)
        }
        return db
    }

    /// The name SQLite is given for `path`, in `folder`: the folder's canonical path and the
    /// file's name. SQLite's `SQLITE_OPEN_NOFOLLOW` refuses a link anywhere in the name, not only
    /// at its end: a HOME reached through one (Fedora Silverblue's `/home` -> `var/home`) refused
    /// every state file. The folder and the file themselves are checked not to be links first.
    private static func canonicalName(_ path: String, in folder: String) -> String {
        guard let real = try? FileSystem.canonicalPath(folder.isEmpty ? "." : folder) else { return path }
        return (real == "/" ? "" : real) + "/" + (path as NSString).lastPathComponent
    }

    /// SQLite's connection to `path`, refused unless the name still leads to the file checked.
    private static func openChecked(
        _ checked: PrivateFiles.CheckedFile, _ path: String, create: Bool, readOnly: Bool, immutable: Bool = false,
        _ busyTimeoutMilliseconds: Int32
    ) throws(StateFileError) -> SQLiteDatabase {
        let db: SQLiteDatabase
        do throws(SQLiteDatabase.Failure) {
            db = try SQLiteDatabase(
                path: path, create: create, readOnly: readOnly, immutable: immutable,
                busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch {
            throw StateFileError(error)
        }
        guard checked.isStill(at: path) else {
            throw .unsafe(path: path, reason: "\(path) was replaced by another file while it was being opened")
        }
        return db
    }
}

/// Why one of photometa's state files (the suggestion memory, the index) cannot be used. The
/// file is never overwritten or deleted because of it; the message names it and says what to do.
public enum StateFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// SQLITE_NOTADB or SQLITE_CORRUPT: the file is not (or no longer) a SQLite database.
    case notADatabase(path: String)
    /// SQLITE_CANTOPEN: the file or its folder cannot be opened or created.
    case cannotOpen(path: String, message: String)
    /// SQLITE_READONLY / SQLITE_PERM: the file may not be written.
    case readOnly(path: String)
    /// The file system holding the file is mounted read-only (EROFS).
    case readOnlyFileSystem(path: String)
    /// The disk holding the file is full (SQLITE_FULL, ENOSPC).
    case noSpace(path: String)
    /// SQLite's `quick_check` failed: part of the file is damaged.
    case damaged(path: String, detail: String)
    /// The file or its folder could be changed by someone else, or is a link (`PrivateFiles`).
    case unsafe(path: String, reason: String)
    /// SQLITE_BUSY / SQLITE_LOCKED after the busy timeout: another process holds the lock.
    case busy(path: String)
    /// Another SQLite result code, with SQLite's message.
    case sqlite(path: String, code: Int32, message: String)
    /// A SQLite file that belongs to another program.
    case foreign(path: String, tables: [String])
    /// Written by a newer photometa with a schema this one does not know.
    case newerVersion(path: String, version: Int64)
    /// The file's folder cannot be created.
    case cannotCreateFolder(path: String, reason: String)

    /// The message for people: the file, what is wrong, what to do.
    public var description: String {
        switch self {
        case .notADatabase(let p):
            return
                "\(p) is not a photometa state file (it is corrupt or not a SQLite database); it was left untouched. Move it away, or choose another file"
        case .cannotOpen(let p, let m): return "cannot open \(p): \(m)"
        case .readOnly(let p): return "\(p) may not be written (permission denied)"
        case .readOnlyFileSystem(let p): return "\(p) is on a read-only file system"
        case .noSpace(let p): return "no space left on the device holding \(p)"
        case .damaged(let p, let d):
            return "\(p) is damaged (SQLite's quick_check: \(d)); it was left untouched. Move it away, or choose another file"
        case .unsafe(let p, let r): return "cannot use \(p): \(r)"
        case .busy(let p): return "\(p) stayed locked by another process"
        case .sqlite(let p, let c, let m): return "\(p): SQLite error \(c): \(m)"
        case .foreign(let p, let tables):
            return
                "\(p) is another program's SQLite database (tables: \(tables.joined(separator: ", "))); it was left untouched. Choose another file"
        case .newerVersion(let p, let v):
            return
                "\(p) has schema version \(v), written by a newer photometa; upgrade photometa or use another file"
        case .cannotCreateFolder(let p, let r):
            return "cannot create \(p): \(r)"
        }
    }

    init(_ f: SQLiteDatabase.Failure) {
        switch f {
        case .notADatabase(let p): self = .notADatabase(path: p)
        case .cannotOpen(let p, let m, let e):
            switch e {
            case EROFS: self = .readOnlyFileSystem(path: p)
            case EACCES, EPERM: self = .readOnly(path: p)
            case 0: self = .cannotOpen(path: p, message: m)
            default: self = .cannotOpen(path: p, message: SystemError(errno: e).description)
            }
        case .readOnly(let p, let e): self = e == EROFS ? .readOnlyFileSystem(path: p) : .readOnly(path: p)
        case .full(let p): self = .noSpace(path: p)
        case .busy(let p): self = .busy(path: p)
        case .other(let p, let c, let m): self = .sqlite(path: p, code: c, message: m)
        }
    }
}
