extension SQLiteDatabase {
    /// What went wrong, with the database file it concerns.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// SQLITE_NOTADB or SQLITE_CORRUPT: the file is not (or no longer) a SQLite database.
        case notADatabase(path: String)
        /// SQLITE_CANTOPEN: the file or its folder cannot be opened or created; `errno` is the
        /// system's reason when SQLite reports one (0 otherwise).
        case cannotOpen(path: String, message: String, errno: Int32)
        /// SQLITE_READONLY / SQLITE_PERM: the file may not be written (`errno` as above).
        case readOnly(path: String, errno: Int32)
        /// SQLITE_FULL, or an I/O error whose system reason is ENOSPC: the disk is full.
        case full(path: String)
        /// SQLITE_BUSY / SQLITE_LOCKED after the busy timeout.
        case busy(path: String)
        case other(path: String, code: Int32, message: String)

        var description: String {
            switch self {
            case .notADatabase(let p): return "\(p) is not a SQLite database (corrupt, or another program's file)"
            case .cannotOpen(let p, let m, _): return "cannot open \(p): \(m)"
            case .readOnly(let p, _): return "\(p) is read-only"
            case .full(let p): return "no space left on the device holding \(p)"
            case .busy(let p): return "\(p) stayed locked by another process"
            case .other(let p, let c, let m): return "\(p): SQLite error \(c): \(m)"
            }
        }
    }
}
