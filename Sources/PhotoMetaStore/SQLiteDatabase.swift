internal import CSQLite
import Foundation
import PhotoMetaCore
import Synchronization

/// Internal to PhotoMetaStore. The only file that talks to SQLite (as SwiftPM's `Basics/SQLite.swift` does): a connection,
/// statements with bound values, transactions, and every result code mapped to an error once.
///
/// Connections wait for each other (busy timeout) instead of failing with "database is locked",
/// and write transactions start with BEGIN IMMEDIATE so two writers never deadlock on a lock
/// upgrade.
final class SQLiteDatabase {
    let path: String
    private var db: OpaquePointer?
    private let busyTimeout: Double
    /// Prepared statements by SQL text, reused (reset) instead of prepared again.
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (creating when `create`) the database at `path`.
    /// A symbolic link at `path` is refused (SQLITE_OPEN_NOFOLLOW); `readOnly` opens without
    /// write access (and never creates). `immutable` (read-only only) tells SQLite that nothing
    /// can change the file: it takes no lock and opens no `-wal` or `-shm` beside it, which a
    /// WAL database on a read-only file system (or in a folder its owner may not write) needs,
    /// as SQLite cannot create them there ([SQLite URI filenames, "immutable"]).
    init(
        path: String, create: Bool = true, readOnly: Bool = false, immutable: Bool = false,
        busyTimeoutMilliseconds: Int32 = 30_000
    ) throws(Failure) {
        self.path = path
        busyTimeout = Double(busyTimeoutMilliseconds) / 1000
        var handle: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let flags = access | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_NOFOLLOW | (immutable && readOnly ? SQLITE_OPEN_URI : 0)
        // The name's exact bytes: a folder whose name is not UTF-8 (`PathBytes`) is opened as
        // it is, not as the UTF-8 of its stand-in characters.
        let name = immutable && readOnly ? SQLiteDatabase.immutableURI(path) : path
        let rc = PathBytes.withCPath(name) { sqlite3_open_v2($0, &handle, flags, nil) }
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let systemErrno = handle.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(handle)
            throw SQLiteDatabase.map(rc, path: path, message: message, systemErrno: systemErrno)
        }
        db = handle
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(handle, 0)
        // Statement journals, sorts and temporary tables in memory, never in /var/tmp or /tmp:
        // a confined photometa may write only beside its own files (docs/sandbox.md), and
        // SQLite would otherwise spill a large statement's journal (64 KiB and up) there.
        sqlite3_exec(handle, "PRAGMA temp_store = MEMORY", nil, nil, nil)
    }

    deinit {
        for stmt in statements.values { sqlite3_finalize(stmt) }
        sqlite3_close_v2(db)
    }

    static func map(_ rc: Int32, path: String, message: String, systemErrno: Int32 = 0) -> Failure {
        if systemErrno == ENOSPC { return .full(path: path) }
        switch rc & 0xFF {
        case SQLITE_NOTADB, SQLITE_CORRUPT: return .notADatabase(path: path)
        case SQLITE_CANTOPEN: return .cannotOpen(path: path, message: message, errno: systemErrno)
        case SQLITE_READONLY, SQLITE_PERM: return .readOnly(path: path, errno: systemErrno)
        case SQLITE_FULL: return .full(path: path)
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy(path: path)
        default: return .other(path: path, code: rc, message: message)
        }
    }

    private func failure(_ rc: Int32) -> Failure {
        SQLiteDatabase.map(
            rc, path: path, message: db.map { String(cString: sqlite3_errmsg($0)) } ?? "",
            systemErrno: db.map { sqlite3_system_errno($0) } ?? 0)
    }

    /// Runs one or more statements that take no parameters.
    func execute(_ sql: String) throws(Failure) {
        let rc = retrying { sqlite3_exec(db, sql, nil, nil, nil) }
        guard rc == SQLITE_OK else { throw failure(rc) }
    }

    /// SQLite skips the busy handler where waiting could deadlock (a read lock upgraded to a
    /// write lock, or a journal-mode switch while others hold the file) and returns SQLITE_BUSY
    /// at once. Such a statement has done nothing yet, so it is run again (after `undo`) after a
    /// short, jittered pause, until the busy timeout: concurrent processes wait for each other
    /// instead of failing. One that found a leftover already deleted runs again at once (4 times at most).
    private func retrying(_ attempt: () -> Int32, undo: () -> Void = {}) -> Int32 {
        let start = DispatchTime.now().uptimeNanoseconds
        var pause: UInt32 = 1_000
        var leftovers = 0
        while true {
            let rc = attempt()
            if leftovers < 4, leftoverAlreadyDeleted(rc) {
                leftovers += 1
                undo()
                continue
            }
            let primary = rc & 0xFF
            guard primary == SQLITE_BUSY || primary == SQLITE_LOCKED else { return rc }
            undo()
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            guard elapsed < busyTimeout else { return rc }
            // The one pause of the store: waiting out another process's lock, with jitter.
            Thread.sleep(forTimeInterval: Double(pause + UInt32.random(in: 0...pause)) / 1e6)
            pause = min(pause * 2, 50_000)
        }
    }

    /// SQLITE_IOERR_DELETE_NOENT: a new, empty database (a state file deleted and made again)
    /// had its predecessor's `-wal` beside it, which SQLite deletes as it first takes the read
    /// lock (`pagerOpenWalIfPresent`), and another connection (racing processes take it
    /// together) deleted it first. Nothing was read, the lock was released, the leftover is gone.
    private func leftoverAlreadyDeleted(_ rc: Int32) -> Bool {
        // SQLITE_IOERR | (23 << 8) in sqlite3.h, a macro Swift does not import.
        rc & 0xFF == SQLITE_IOERR && db.map { sqlite3_extended_errcode($0) } == SQLITE_IOERR | (23 << 8)
    }

    /// A row being read: columns straight from the statement, nothing materialised.
    struct Row {
        fileprivate let stmt: OpaquePointer
        func isNull(_ i: Int32) -> Bool { sqlite3_column_type(stmt, i) == SQLITE_NULL }
        func int(_ i: Int32) -> Int64? { isNull(i) ? nil : sqlite3_column_int64(stmt, i) }
        func double(_ i: Int32) -> Double? { isNull(i) ? nil : sqlite3_column_double(stmt, i) }
        func text(_ i: Int32) -> String? {
            guard !isNull(i), let p = sqlite3_column_text(stmt, i) else { return nil }
            return String(cString: p)
        }
    }

    /// Runs one statement and calls `body` for each row, without collecting them.
    func forEachRow(_ sql: String, _ bindings: [Value] = [], _ body: (Row) -> Void) throws(Failure) {
        let stmt = try cached(sql)
        defer {
            sqlite3_reset(stmt)
            sqlite3_clear_bindings(stmt)
        }
        try bind(stmt, bindings)
        while true {
            let step = sqlite3_step(stmt)
            if step == SQLITE_DONE { return }
            guard step == SQLITE_ROW else { throw failure(step) }
            body(Row(stmt: stmt))
        }
    }

    /// Runs one statement (no result rows) once per element of `rows`, preparing it once.
    func executeEach(_ sql: String, _ rows: [[Value]]) throws(Failure) {
        try executeEach(sql, count: rows.count) { i, bind in for value in rows[i] { bind(value) } }
    }

    /// Runs one statement (no result rows) `count` times, preparing it once; `values` binds
    /// the i-th execution's values in order, every parameter each time (else SQLITE_RANGE).
    /// No array of values is built per row, and nothing is cleared between rows: each
    /// binding replaces the last (both were a third of a cold `suggest`'s index writing).
    func executeEach(_ sql: String, count: Int, _ values: (Int, inout Binder) -> Void) throws(Failure) {
        guard count > 0 else { return }
        let stmt = try cached(sql)
        defer {
            sqlite3_reset(stmt)
            sqlite3_clear_bindings(stmt)
        }
        let parameters = sqlite3_bind_parameter_count(stmt)
        for i in 0..<count {
            sqlite3_reset(stmt)
            var binder = Binder(stmt: stmt)
            values(i, &binder)
            guard binder.rc == SQLITE_OK else { throw failure(binder.rc) }
            guard binder.next - 1 == parameters else { throw failure(SQLITE_RANGE) }
            let step = sqlite3_step(stmt)
            guard step == SQLITE_DONE || step == SQLITE_ROW else { throw failure(step) }
        }
    }

    /// Binds one execution's values to its statement's parameters, in order.
    struct Binder {
        fileprivate let stmt: OpaquePointer
        fileprivate var next: Int32 = 1
        /// The first failure.
        fileprivate var rc = SQLITE_OK

        /// Binds `value` to the next parameter.
        mutating func callAsFunction(_ value: Value) {
            switch value {
            case .null: null()
            case .integer(let v): integer(v)
            case .real(let v): real(v)
            case .text(let v): text(v)
            case .blob(let v):
                let (stmt, index) = (self.stmt, next)
                advance(
                    v.withUnsafeBytes {
                        sqlite3_bind_blob(stmt, index, $0.baseAddress, Int32($0.count), SQLiteDatabase.transient)
                    })
            }
        }

        mutating func null() { advance(sqlite3_bind_null(stmt, next)) }
        mutating func integer(_ v: Int64) { advance(sqlite3_bind_int64(stmt, next, v)) }
        mutating func real(_ v: Double?) {
            advance(v.map { sqlite3_bind_double(stmt, next, $0) } ?? sqlite3_bind_null(stmt, next))
        }

        /// From the string's own bytes, with their length (NULL for nil): the implicit C-string
        /// bridge copied each short string into an array, and SQLite then measured it (a fifth
        /// of a cold `suggest`'s index writing, docs/performance.md, "The fourth pass").
        mutating func text(_ v: String?) {
            guard let v else { return null() }
            let (stmt, index) = (self.stmt, next)
            let bound = v.utf8.withContiguousStorageIfAvailable { u in
                u.withMemoryRebound(to: CChar.self) { c in
                    c.baseAddress.map { sqlite3_bind_text(stmt, index, $0, Int32(clamping: c.count), SQLiteDatabase.transient) }
                }
            }
            advance((bound ?? nil) ?? sqlite3_bind_text(stmt, index, v, -1, SQLiteDatabase.transient))
        }

        private mutating func advance(_ brc: Int32) {
            if rc == SQLITE_OK { rc = brc }
            next += 1
        }
    }

    /// A prepared statement kept for the life of the connection (statements run often).
    private func cached(_ sql: String) throws(Failure) -> OpaquePointer {
        if let stmt = statements[sql] { return stmt }
        let stmt = try prepare(sql)
        statements[sql] = stmt
        return stmt
    }

    private func prepare(_ sql: String) throws(Failure) -> OpaquePointer {
        var stmt: OpaquePointer?
        // Preparing a statement that names a table reads the schema, so it takes the read lock
        // first and meets what a first step meets (a busy file, a leftover `-wal`).
        let rc = retrying { sqlite3_prepare_v2(db, sql, -1, &stmt, nil) }
        guard rc == SQLITE_OK, let stmt else { throw failure(rc) }
        return stmt
    }

    private func bind(_ stmt: OpaquePointer, _ bindings: [Value]) throws(Failure) {
        var binder = Binder(stmt: stmt)
        for value in bindings { binder(value) }
        guard binder.rc == SQLITE_OK else { throw failure(binder.rc) }
    }

    /// Runs one statement with `bindings` and returns every row.
    @discardableResult
    func query(_ sql: String, _ bindings: [Value] = []) throws(Failure) -> [[Value]] {
        let stmt = try prepare(sql)
        defer { sqlite3_finalize(stmt) }
        try bind(stmt, bindings)
        var rows: [[Value]] = []
        while true {
            // Before the first row nothing has happened yet: a busy step may be run again.
            let step = rows.isEmpty ? retrying({ sqlite3_step(stmt) }, undo: { sqlite3_reset(stmt) }) : sqlite3_step(stmt)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw failure(step) }
            var row: [Value] = []
            for c in 0..<sqlite3_column_count(stmt) {
                switch sqlite3_column_type(stmt, c) {
                case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(stmt, c)))
                case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(stmt, c)))
                case SQLITE_TEXT:
                    row.append(.text(sqlite3_column_text(stmt, c).map { String(cString: $0) } ?? ""))
                case SQLITE_BLOB:
                    let n = Int(sqlite3_column_bytes(stmt, c))
                    if let p = sqlite3_column_blob(stmt, c), n > 0 {
                        row.append(.blob(Array(UnsafeRawBufferPointer(start: p, count: n))))
                    } else {
                        row.append(.blob([]))
                    }
                default: row.append(.null)
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// Runs `body` inside a transaction; BEGIN IMMEDIATE takes the write lock up front (waiting
    /// for it under the busy timeout) so concurrent read-modify-write never loses an update.
    func transaction<T>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        try conditionalTransaction { () throws(Failure) in (try body(), true) }
    }

    /// A write transaction (BEGIN IMMEDIATE) that commits only when `body` says so, and rolls
    /// back otherwise (or when it throws).
    func conditionalTransaction<T>(_ body: () throws(Failure) -> (value: T, commit: Bool)) throws(Failure) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let (value, commit) = try body()
            try execute(commit ? "COMMIT" : "ROLLBACK")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// PRAGMA user_version: the schema version of photometa's files.
    /// Switches to write-ahead logging: readers never block the writer.
    func enableWAL() throws(Failure) {
        _ = try query("PRAGMA journal_mode = WAL")
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

extension SQLiteDatabase {
    /// For tests: while `body` runs, SQLite's default VFS calls `beforeDelete` with each file
    /// SQLite is about to delete, then deletes it, so that another process's step can be made
    /// to happen at that very moment (a race made certain).
    static func interceptingDeletes<T>(_ beforeDelete: @escaping @Sendable (String) -> Void, _ body: () throws -> T)
        rethrows -> T
    {
        guard let plain = DeleteInterceptor.plain, let vfs = DeleteInterceptor.vfs else { return try body() }
        DeleteInterceptor.hook.withLock { $0 = beforeDelete }
        sqlite3_vfs_register(vfs, 1)
        defer {
            sqlite3_vfs_register(plain, 1)
            DeleteInterceptor.hook.withLock { $0 = nil }
        }
        return try body()
    }
}

/// `interceptingDeletes`' VFS: the default one with its own xDelete, never freed (connections keep it).
private enum DeleteInterceptor {
    static let hook = Mutex<(@Sendable (String) -> Void)?>(nil)
    nonisolated(unsafe) static let plain = sqlite3_vfs_find(nil)
    nonisolated(unsafe) static let vfs: UnsafeMutablePointer<sqlite3_vfs>? = plain.map { plain in
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: plain.pointee)
        let name: StaticString = "photometa-intercepting-deletes"  // a literal: stored NUL-terminated
        vfs.pointee.zName = UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
        vfs.pointee.xDelete = { vfs, path, syncFolder in
            if let path, let hook = DeleteInterceptor.hook.withLock({ $0 }) { hook(String(cString: path)) }
            return DeleteInterceptor.plain?.pointee.xDelete?(vfs, path, syncFolder) ?? SQLITE_ERROR
        }
        return vfs
    }
}
