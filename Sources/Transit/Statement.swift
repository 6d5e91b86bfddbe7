import CSQLite

/// One prepared statement, reused row after row; finalized when it goes.
final class Statement {
    let handle: OpaquePointer
    private let database: IndexDatabase

    init(_ handle: OpaquePointer, database: IndexDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ index: Int32, _ value: String?) {
        if let value { sqlite3_bind_text(handle, index, value, -1, IndexDatabase.transient) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: Int?) {
        if let value { sqlite3_bind_int64(handle, index, Int64(value)) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: Double?) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// Runs an insert or update to its end and makes the statement ready for the next. Returns
    /// false for a constraint failure (a duplicate id), which the caller skips as a row.
    @discardableResult
    func run(doing: @autoclosure () -> String) throws(TransitError) -> Bool {
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        if code == SQLITE_DONE { return true }
        if code & 0xFF == SQLITE_CONSTRAINT { return false }
        throw database.error(doing: doing())
    }

    /// The next row of a query; false when there is none (the statement is then reset).
    func step() throws(TransitError) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        sqlite3_reset(handle)
        if code == SQLITE_DONE { return false }
        throw database.error(doing: String(cString: sqlite3_sql(handle)))
    }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func integer(_ column: Int32) -> Int64? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column)
    }

    func double(_ column: Int32) -> Double? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_double(handle, column)
    }

    func text(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}
