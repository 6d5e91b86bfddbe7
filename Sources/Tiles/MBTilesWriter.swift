import CSQLite
import Syscall

/// Writes a raster MBTiles 1.3 file the way a map should be installed: into a temporary file
/// beside the target, in one transaction, then renamed over it (`finish`), so a daemon reading
/// the old file — opened immutable — never sees it change, and on SIGHUP finds the new one.
public final class MBTilesWriter {
    public let path: String
    private let temporary: String
    private var connection: SQLiteConnection?
    private var insert: OpaquePointer?

    /// `metadata`: name/value pairs (`format`, `bounds`, `minzoom`, `maxzoom`, `name`, …), written as given.
    public init(path: String, metadata: [(name: String, value: String)]) throws(MBTilesError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        temporary = AtomicFile.temporaryPath(directory: folder.isEmpty ? "/" : folder, name: name)
        do { try FileSystem.remove(temporary) } catch { throw .unreadable(path: temporary, error) }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(temporary, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close(handle)
            throw .sqlite(path: temporary, doing: "creating the file", code: code, message: message)
        }
        let c = SQLiteConnection(handle: handle, path: temporary)
        connection = c
        do throws(MBTilesError) {
            try execute("CREATE TABLE metadata (name TEXT, value TEXT)")
            try execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
            try execute("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
            try execute("BEGIN")
            let meta = try c.prepare("INSERT INTO metadata (name, value) VALUES (?1, ?2)", doing: "writing metadata")
            defer { sqlite3_finalize(meta) }
            for (key, value) in metadata {
                sqlite3_bind_text(meta, 1, key, -1, Self.transient)
                sqlite3_bind_text(meta, 2, value, -1, Self.transient)
                guard sqlite3_step(meta) == SQLITE_DONE else { throw c.error(sqlite3_errcode(handle), doing: "writing metadata \(key)") }
                sqlite3_reset(meta)
            }
            insert = try c.prepare("INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?1, ?2, ?3, ?4)",
                                   persistent: true, doing: "preparing the tile insert")
        } catch {
            abandon()
            throw error
        }
    }

    deinit { abandon() }

    /// Adds one tile (XYZ `id`; stored in TMS rows as MBTiles requires).
    public func add(_ id: TileID, bytes: [UInt8]) throws(MBTilesError) {
        guard let connection, let insert else { throw .closed(path: path) }
        defer { sqlite3_reset(insert) }
        sqlite3_bind_int64(insert, 1, Int64(id.z))
        sqlite3_bind_int64(insert, 2, Int64(id.x))
        sqlite3_bind_int64(insert, 3, Int64(id.tmsRow))
        bytes.withUnsafeBytes { raw in _ = sqlite3_bind_blob(insert, 4, raw.baseAddress, Int32(raw.count), Self.transient) }
        let code = sqlite3_step(insert)
        guard code == SQLITE_DONE else { throw connection.error(code, doing: "writing tile \(id)") }
    }

    /// Commits, closes and renames the file into place.
    public func finish() throws(MBTilesError) {
        guard connection != nil else { throw .closed(path: path) }
        do throws(MBTilesError) {
            try execute("COMMIT")
        } catch {
            abandon()
            throw error
        }
        if let insert { sqlite3_finalize(insert) }
        insert = nil
        connection?.close()
        connection = nil
        do { try FileSystem.rename(temporary, to: path) } catch {
            try? FileSystem.remove(temporary)
            throw .unreadable(path: path, error)
        }
    }

    private func execute(_ sql: String) throws(MBTilesError) {
        guard let connection else { throw .closed(path: path) }
        try connection.check(sqlite3_exec(connection.handle, sql, nil, nil, nil), doing: sql)
    }

    /// Closes without keeping anything: the temporary file is removed.
    private func abandon() {
        guard let connection else { return }
        if let insert { sqlite3_finalize(insert) }
        insert = nil
        connection.close()
        self.connection = nil
        try? FileSystem.remove(temporary)
    }

    /// SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
