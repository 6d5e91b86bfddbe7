import CSQLite
import GTFS

/// Writing one row, from inside a row's body (which throws only feed errors).
extension FeedImport {
    var lastRowID: Int64 { sqlite3_last_insert_rowid(database.handle) }

    /// Runs the insert; a failure of the database itself ends the import (as a problem that
    /// cannot be skipped, naming the index file); a constraint failure skips the row.
    func insertRow(_ insert: Statement, _ t: CSVTable) throws(GTFSError) {
        guard try insertUnique(insert, t) else { throw rowProblem(t, "a duplicate of an earlier row") }
    }

    /// Runs the insert; false when a key constraint refused it (a duplicate, said by the caller).
    func insertUnique(_ insert: Statement, _ t: CSVTable) throws(GTFSError) -> Bool {
        do { return try insert.run(doing: "writing \(t.file) line \(t.line)") } catch {
            throw GTFSError(file: database.path, message: "\(error)")
        }
    }

    /// A value whose problem leaves it out but keeps its row (a colour that is not one).
    func optionalValue<T>(_ name: String, _ read: () throws(GTFSError) -> T?) -> T? {
        do { return try read() } catch {
            dropValue(name, error)
            return nil
        }
    }
}
