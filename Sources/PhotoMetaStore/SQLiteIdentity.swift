/// What says whose file a database is and which schema it has: `PRAGMA application_id`,
/// `PRAGMA user_version`, its tables (`StateFile` decides from them). No C here: statements only.
extension SQLiteDatabase {
    func userVersion() throws(Failure) -> Int64 {
        try query("PRAGMA user_version").first?.first?.int ?? 0
    }

    func setUserVersion(_ v: Int64) throws(Failure) {
        try execute("PRAGMA user_version = \(v)")
    }

    /// The file's `application_id`, `user_version` and table names, read by one statement,
    /// so from one snapshot. Three statements in a `BEGIN`…`COMMIT` were not one: a connection
    /// opened while another made the file (switching it to WAL, then migrating) could read the
    /// header of the file as first written and the schema as migrated, and take photometa's
    /// own new file for another program's (`StateFileRaceTests`).
    func identity() throws(Failure) -> (applicationID: Int64, userVersion: Int64, tables: [String]) {
        let rows = try query(
            """
            SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version),
                name FROM (SELECT NULL AS name UNION ALL
                    SELECT name FROM sqlite_master WHERE type = 'table') ORDER BY name
            """)
        let first = rows.first
        return (first?[0].int ?? 0, first?[1].int ?? 0, rows.compactMap { $0[2].string })
    }
}
