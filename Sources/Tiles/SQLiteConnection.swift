import CSQLite
import Syscall

/// One SQLite value as a query returned it.
enum SQLiteValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// The SQLite calls MBTiles makes, each failure turned into an `MBTilesError` naming the file.
/// A thin value: whoever opened it closes it, after finalizing the statements it prepared.
struct SQLiteConnection {
    let handle: OpaquePointer
    let path: String

    /// Opens `path` read-only and immutable (see MBTiles.swift for why). SQLite opens lazily: a
    /// file that is not a database only fails at the first statement.
    static func openImmutable(_ path: String) throws(MBTilesError) -> SQLiteConnection {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(immutableURI(path), &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            // Even a failed open usually returns a handle, holding the message; it must be closed.
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            let systemErrno = handle.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close(handle)
            // "unable to open database file" says less than the errno behind it (no permission).
            if systemErrno != 0 { throw .unreadable(path: path, SyscallError(call: "open", object: path, errno: systemErrno)) }
            throw .sqlite(path: path, doing: "opening the file", code: code, message: message)
        }
        return SQLiteConnection(handle: handle, path: path)
    }

    /// `file:PATH?mode=ro&immutable=1`. SQLite decodes %HH in a URI's path and ends the path at `?`
    /// or `#`, so every byte outside the URI's unreserved characters is percent-encoded (UTF-8
    /// names included). An absolute path gets the empty authority (`file:///…`): without it a path
    /// beginning `//` would be read as a host name.
    static func immutableURI(_ path: String) -> String {
        var uri = path.hasPrefix("/") ? "file://" : "file:"
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                uri.unicodeScalars.append("%")
                uri.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                uri.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0xF)]))
            }
        }
        return uri + "?mode=ro&immutable=1"
    }

    /// A compiled statement; the caller finalizes it. `persistent`: it will be reused for the
    /// life of the connection (SQLite then allocates it outside its short-lived lookaside memory).
    func prepare(_ sql: String, persistent: Bool = false, doing: String) throws(MBTilesError) -> OpaquePointer {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw error(code, doing: doing)
        }
        return statement
    }

    /// Every row of a one-off query, its statement finalized before returning.
    func rows(_ sql: String, _ parameters: [Int64] = [], doing: String) throws(MBTilesError) -> [[SQLiteValue]] {
        let statement = try prepare(sql, doing: doing)
        defer { sqlite3_finalize(statement) }
        for (i, value) in parameters.enumerated() {
            try check(sqlite3_bind_int64(statement, Int32(i + 1), value), doing: doing)
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw error(code, doing: doing) }
            rows.append((0..<sqlite3_column_count(statement)).map { Self.value(statement, column: $0) })
        }
    }

    func check(_ code: Int32, doing: String) throws(MBTilesError) {
        if code != SQLITE_OK { throw error(code, doing: doing) }
    }

    /// The error for a failed call, with SQLite's message for it. "Not a database" gets its own
    /// case: it is the one a person most often meets (a wrong file, a download cut short).
    func error(_ code: Int32, doing: String) -> MBTilesError {
        if code & 0xFF == SQLITE_NOTADB { return .notSQLite(path: path) }
        return .sqlite(path: path, doing: doing, code: code, message: String(cString: sqlite3_errmsg(handle)))
    }

    static func value(_ statement: OpaquePointer, column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            // The pointer first, then the length: SQLite's documented order.
            let text = sqlite3_column_text(statement, column)
            let count = Int(sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: text == nil ? 0 : count), as: UTF8.self))
        case SQLITE_BLOB: return .blob(blob(statement, column: column))
        default: return .null
        }
    }

    /// A copy of a blob column: SQLite's pointer is only good until the next step or reset.
    static func blob(_ statement: OpaquePointer, column: Int32) -> [UInt8] {
        let bytes = sqlite3_column_blob(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        guard let bytes, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// SQLITE_BUSY (and the handle left open) when a statement was not finalized first.
    @discardableResult
    func close() -> Int32 {
        sqlite3_close(handle)
    }
}
