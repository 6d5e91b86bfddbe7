import CSQLite
import Syscall

/// A raster MBTiles 1.3 file, open for reading tiles. Not thread-safe (SQLite is opened without
/// its mutexes): one thread reads it.
///
/// MBTiles files are opened read-only and immutable (`file:PATH?mode=ro&immutable=1`): read-only
/// alone still has SQLite look for a hot journal and, for a WAL-mode file, create -shm and -wal
/// files beside it, which a read-only root file system forbids. Immutable promises SQLite that the
/// file never changes while open, so it takes no locks and writes nothing next to it. The price:
/// SQLite trusts what it has read, and a file changed underneath it returns garbage (wrong tiles,
/// "database disk image is malformed"). Maps must therefore be installed by rename (write a new
/// file, rename it over the old one), never overwritten in place; the open file keeps its inode
/// and the path gets a new one, which `hasBeenReplaced()` tells on SIGHUP.
public final class MBTiles {
    public let path: String
    public let metadata: MBTilesMetadata
    /// The file as stat saw it just before SQLite opened it. Taken before the open, so a rename
    /// racing the open at worst makes `hasBeenReplaced()` answer true once too often.
    public let fileStatus: FileStatus

    private var connection: SQLiteConnection?
    /// The one statement every tile read binds, steps and resets: compiled once, not per tile.
    private var tileStatement: OpaquePointer?

    /// Opens `path` and reads its metadata. Refuses what is not a raster MBTiles file, naming the
    /// file and the reason in one line.
    public init(path: String) throws(MBTilesError) {
        do {
            fileStatus = try FileStatus(path: path)
        } catch {
            throw .unreadable(path: path, error)
        }
        guard fileStatus.kind == .regularFile else { throw .notAFile(path: path) }
        let connection = try SQLiteConnection.openImmutable(path)
        do throws(MBTilesError) {
            metadata = try Self.readMetadata(connection)
            tileStatement = try connection.prepare(
                "SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3",
                persistent: true, doing: "preparing the tile query")
        } catch {
            connection.close()
            throw error
        }
        self.path = path
        self.connection = connection
    }

    deinit { close() }

    /// The bytes of one tile as stored (a PNG, JPEG or WebP image), or nil when the file has no
    /// tile there (outside the map, a zoom it lacks, or not a tile of the pyramid at all).
    public func tile(_ id: TileID) throws(MBTilesError) -> [UInt8]? {
        guard let connection, let statement = tileStatement else { throw .closed(path: path) }
        guard id.isValid else { return nil }
        // Reset even after a failure: a statement left mid-step keeps its read open.
        defer { sqlite3_reset(statement) }
        let doing = "reading tile \(id)"
        try connection.check(sqlite3_bind_int64(statement, 1, Int64(id.z)), doing: doing)
        try connection.check(sqlite3_bind_int64(statement, 2, Int64(id.x)), doing: doing)
        try connection.check(sqlite3_bind_int64(statement, 3, Int64(id.tmsRow)), doing: doing)
        switch sqlite3_step(statement) {
        case SQLITE_ROW:
            if sqlite3_column_type(statement, 0) == SQLITE_NULL { return nil }
            return SQLiteConnection.blob(statement, column: 0)
        case SQLITE_DONE:
            return nil
        case let code:
            throw connection.error(code, doing: doing)
        }
    }

    /// How many tiles the file holds. Counted when asked, not at open: through the deduplicated
    /// layout's view, counting joins every row.
    public func tileCount() throws(MBTilesError) -> Int {
        guard let connection else { throw .closed(path: path) }
        let rows = try connection.rows("SELECT COUNT(*) FROM tiles", doing: "counting tiles")
        guard case let .integer(count) = rows.first?.first else { return 0 }
        return Int(count)
    }

    /// Whether `path` now names another file than the one open (a new map renamed over it). Throws
    /// when the path cannot be examined at all (the map was removed).
    public func hasBeenReplaced() throws(SyscallError) -> Bool {
        try FileStatus(path: path).identity != fileStatus.identity
    }

    public var isClosed: Bool { connection == nil }

    /// Finalizes the tile statement and closes the database; reads afterwards throw `.closed`.
    /// Closing twice is harmless.
    public func close() {
        guard let connection else { return }
        if let tileStatement { sqlite3_finalize(tileStatement) }
        tileStatement = nil
        closeResult = connection.close()
        self.connection = nil
    }

    // MARK: - What the tests look at

    /// Statements SQLite holds open on the connection (one-off queries must be finalized).
    var openStatementCount: Int {
        guard let connection else { return 0 }
        var count = 0
        var statement = sqlite3_next_stmt(connection.handle, nil)
        while let current = statement {
            count += 1
            statement = sqlite3_next_stmt(connection.handle, current)
        }
        return count
    }

    /// How many times the tile statement has been run and reset.
    var tileStatementRuns: Int {
        tileStatement.map { Int(sqlite3_stmt_status($0, SQLITE_STMTSTATUS_RUN, 0)) } ?? 0
    }

    /// What sqlite3_close answered: SQLITE_BUSY if any statement was left unfinalized.
    private(set) var closeResult: Int32?

    /// Whether the tile statement was left mid-step (not reset).
    var tileStatementIsBusy: Bool { tileStatement.map { sqlite3_stmt_busy($0) != 0 } ?? false }
}
