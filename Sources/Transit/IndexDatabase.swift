import CSQLite

/// The SQLite calls the transit index makes, each failure a `TransitError` naming the file and
/// what was being done. Closed when the value goes; statements are finalized first.
final class IndexDatabase {
    let handle: OpaquePointer
    let path: String

    /// `SQLITE_TRANSIENT`: SQLite copies bound text before the call returns.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private init(handle: OpaquePointer, path: String) {
        self.handle = handle
        self.path = path
    }

    deinit { sqlite3_close_v2(handle) }

    static func open(_ path: String, writable: Bool) throws(TransitError) -> IndexDatabase {
        var handle: OpaquePointer?
        let flags = (writable ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close(handle)
            throw .database(path: path, doing: writable ? "creating the index" : "opening the index", message: message)
        }
        return IndexDatabase(handle: handle, path: path)
    }

    func execute(_ sql: String, doing: String? = nil) throws(TransitError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(doing: doing ?? sql) }
    }

    func prepare(_ sql: String) throws(TransitError) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw error(doing: "preparing \(sql)")
        }
        return Statement(statement, database: self)
    }

    /// The single integer a query such as `SELECT count(*)` returns, nil for NULL or no row.
    func integer(_ sql: String) throws(TransitError) -> Int64? {
        let s = try prepare(sql)
        guard try s.step() else { return nil }
        return s.integer(0)
    }

    func error(doing: String) -> TransitError {
        .database(path: path, doing: doing, message: String(cString: sqlite3_errmsg(handle)))
    }
}
