import CSQLite
import TestSupport

/// Reads an index with SQLite directly, as any other tool would: what the tests check the importer
/// wrote, without going through the code under test.
final class IndexReader {
    private var handle: OpaquePointer?

    init(_ path: String) throws {
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            sqlite3_close(handle)
            throw TestFailure("cannot open \(path)")
        }
    }

    deinit { sqlite3_close(handle) }

    /// Every row as text ("NULL" for NULL), columns joined by `|` like the sqlite3 shell.
    func rows(_ sql: String) throws -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw TestFailure("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(statement) }
        var out: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            out.append((0..<sqlite3_column_count(statement)).map { i in
                sqlite3_column_type(statement, i) == SQLITE_NULL ? "NULL" : String(cString: sqlite3_column_text(statement, i))
            }.joined(separator: "|"))
        }
        return out
    }

    func value(_ sql: String) throws -> String { try rows(sql).first ?? "no row" }
}
