import CSQLite
import Foundation
import TestSupport
import XCTest

/// Writes the MBTiles files the tests read, with the same SQLite library the reader links: real
/// databases, built the way map tools build them, with tiles whose bytes say which tile they are.
final class MBTilesFixture {
    enum Value {
        case integer(Int)
        case text(String)
        case blob([UInt8])
        case null
    }

    /// The two layouts writers use: one `tiles` table, or `map` + `images` joined by a `tiles` view
    /// (mbutil's and others' deduplicated layout).
    enum Layout {
        case table, deduplicated
    }

    let path: String
    private var handle: OpaquePointer?

    /// Creates (or opens) the database at `path` for writing.
    init(path: String) throws {
        self.path = path
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no handle"
            sqlite3_close(handle)
            throw TestFailure("creating \(path): \(message)")
        }
    }

    /// An MBTiles file with the layout's tables and the given metadata; tiles added afterwards.
    convenience init(path: String, layout: Layout = .table, metadata: [String: String]) throws {
        try self.init(path: path)
        try execute("CREATE TABLE metadata (name TEXT, value TEXT)")
        switch layout {
        case .table:
            try execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
            try execute("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
        case .deduplicated:
            try execute("CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT)")
            try execute("CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row)")
            try execute("CREATE TABLE images (tile_data BLOB, tile_id TEXT)")
            try execute("CREATE UNIQUE INDEX images_id ON images (tile_id)")
            try execute("""
                CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column,
                map.tile_row AS tile_row, images.tile_data AS tile_data
                FROM map JOIN images ON images.tile_id = map.tile_id
                """)
        }
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
            try run("INSERT INTO metadata (name, value) VALUES (?, ?)", [.text(name), .text(value)])
        }
    }

    deinit { close() }

    func close() {
        sqlite3_close(handle)
        handle = nil
    }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw TestFailure("\(path): \(sql): \(text)")
        }
    }

    /// Runs one statement with bound values.
    func run(_ sql: String, _ values: [Value]) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw TestFailure("\(path): \(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(statement) }
        // SQLITE_TRANSIENT, a C macro Swift does not import: SQLite copies the value at once.
        let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
        for (i, value) in values.enumerated() {
            let column = Int32(i + 1)
            switch value {
            case let .integer(n): sqlite3_bind_int64(statement, column, Int64(n))
            case let .text(text): sqlite3_bind_text(statement, column, text, -1, transient)
            // A NULL pointer would bind NULL, not an empty blob.
            case let .blob(bytes) where bytes.isEmpty: sqlite3_bind_zeroblob(statement, column, 0)
            case let .blob(bytes): _ = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, column, $0.baseAddress, Int32($0.count), transient) }
            case .null: sqlite3_bind_null(statement, column)
            }
        }
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw TestFailure("\(path): \(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    /// Stores `data` at MBTiles' own coordinates: `tmsRow` counts from the bottom of the world.
    func insert(z: Int, x: Int, tmsRow: Int, data: Value, layout: Layout = .table) throws {
        switch layout {
        case .table:
            try run("INSERT INTO tiles VALUES (?, ?, ?, ?)", [.integer(z), .integer(x), .integer(tmsRow), data])
        case .deduplicated:
            let id = "\(z)-\(x)-\(tmsRow)"
            try run("INSERT INTO images (tile_data, tile_id) VALUES (?, ?)", [data, .text(id)])
            try run("INSERT INTO map VALUES (?, ?, ?, ?)", [.integer(z), .integer(x), .integer(tmsRow), .text(id)])
        }
    }

    /// Stores the tile that XYZ (z, x, y) names, with `bytes(z:x:y:)` as its data. The TMS row is
    /// computed here, from the MBTiles specification, not with the code under test.
    func insertXYZ(z: Int, x: Int, y: Int, layout: Layout = .table) throws {
        try insert(z: z, x: x, tmsRow: (1 << z) - 1 - y, data: .blob(Self.bytes(z: z, x: x, y: y)), layout: layout)
    }

    /// A tile's data: the PNG signature (so a format can be told from it), then "xyz z/x/y".
    static func bytes(z: Int, x: Int, y: Int) -> [UInt8] {
        pngSignature + Array("xyz \(z)/\(x)/\(y)".utf8)
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A temporary directory for one test's files, removed when the test ends (made writable first,
    /// for the tests that lock it).
    static func directory(_ name: String, removedAfter test: XCTestCase) throws -> String {
        let url = try TestEnvironment.temporaryDirectory("tiles-\(name)")
        test.addTeardownBlock {
            _ = try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
            try? FileManager.default.removeItem(at: url)
        }
        return url.path
    }
}

