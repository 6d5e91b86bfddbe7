import Geo

/// Opening an MBTiles file: the schema checked, the metadata read and checked, and what the
/// metadata leaves out derived from the tiles.
extension MBTiles {
    static func readMetadata(_ connection: SQLiteConnection) throws(MBTilesError) -> MBTilesMetadata {
        let path = connection.path
        try checkSchema(connection)
        var declared = try MBTilesMetadata.declared(metadataValues(connection), path: path)
        var derivedKeys: [String] = []

        // One row, even when the format is declared: a file without tiles is refused either way.
        let first = try connection.rows("SELECT tile_data FROM tiles LIMIT 1", doing: "reading the first tile")
        guard let row = first.first else { throw .empty(path: path) }
        let kind: TileFormat.Declared
        if let format = declared.format {
            kind = TileFormat.declared(format)
        } else {
            guard case let .blob(bytes) = row.first else { throw .undeterminedFormat(path: path) }
            kind = TileFormat.sniffed(bytes)
            derivedKeys.append("format")
        }
        let format: TileFormat
        switch kind {
        case let .raster(raster): format = raster
        case .vector: throw .vectorTiles(path: path, format: declared.format)
        case .unknown:
            if let text = declared.format { throw .unknownFormat(path: path, format: text) }
            throw .undeterminedFormat(path: path)
        }

        if declared.minZoom == nil || declared.maxZoom == nil || declared.bounds == nil {
            // Rows at zooms outside the pyramid are left out: they could never be asked for.
            let zooms = try connection.rows(
                "SELECT MIN(zoom_level), MAX(zoom_level) FROM tiles WHERE zoom_level BETWEEN 0 AND ?1",
                [Int64(TileID.maxZoom)], doing: "finding the zoom levels")
            guard case let .integer(low) = zooms.first?[0], case let .integer(high) = zooms.first?[1] else {
                throw .empty(path: path)
            }
            if declared.minZoom == nil { declared.minZoom = Int(low); derivedKeys.append("minzoom") }
            if declared.maxZoom == nil { declared.maxZoom = Int(high); derivedKeys.append("maxzoom") }
            if declared.bounds == nil {
                declared.bounds = try tileBounds(connection, zoom: Int(high))
                derivedKeys.append("bounds")
            }
        }
        guard let minZoom = declared.minZoom, let maxZoom = declared.maxZoom, let bounds = declared.bounds else {
            throw .empty(path: path)
        }
        guard minZoom <= maxZoom else {
            throw .badMetadata(path: path, key: "minzoom", value: String(minZoom), expected: "at most maxzoom (\(maxZoom))")
        }
        return MBTilesMetadata(name: declared.name, format: format, bounds: bounds, center: declared.center,
                               minZoom: minZoom, maxZoom: maxZoom, attribution: declared.attribution,
                               type: declared.type, derivedKeys: derivedKeys.sorted())
    }

    /// `tiles` may be a table or a view (the deduplicated layout: `map` and `images` tables joined
    /// by a `tiles` view); `metadata` is a table in every writer seen, a view accepted all the same.
    /// SQLite's names are case-insensitive, so the lookup is too. The first statement that touches
    /// the file, so this is where bytes that are not a database are found.
    static func checkSchema(_ connection: SQLiteConnection) throws(MBTilesError) {
        let rows = try connection.rows(
            "SELECT lower(name) FROM sqlite_master WHERE type IN ('table', 'view') AND lower(name) IN ('tiles', 'metadata')",
            doing: "reading the schema")
        let names = Set(rows.compactMap { row -> String? in
            if case let .text(name) = row.first { return name }
            return nil
        })
        guard names.contains("tiles") else { throw .noTiles(path: connection.path) }
        guard names.contains("metadata") else { throw .noMetadata(path: connection.path) }
    }

    /// The metadata table's name → value pairs. Numbers stored as numbers read as their text; the
    /// first row of a repeated name wins; NULL values count as missing.
    static func metadataValues(_ connection: SQLiteConnection) throws(MBTilesError) -> [String: String] {
        let rows = try connection.rows("SELECT name, value FROM metadata", doing: "reading the metadata")
        var values: [String: String] = [:]
        for row in rows {
            guard case let .text(name) = row[0], values[name] == nil else { continue }
            switch row[1] {
            case let .text(text): values[name] = text
            case let .integer(n): values[name] = String(n)
            case let .real(x): values[name] = String(x)
            case .null, .blob: continue
            }
        }
        return values
    }

    /// The area covered by the tiles at `zoom`: from the north-west corner of the western- and
    /// northernmost tile to the south-east corner of the eastern- and southernmost. In TMS rows
    /// north is the largest row. A map across the antimeridian comes out as the whole band around
    /// the world: columns alone cannot tell the gap from the map.
    static func tileBounds(_ connection: SQLiteConnection, zoom: Int) throws(MBTilesError) -> GeoBounds {
        let last = Int64((1 << zoom) - 1)
        let rows = try connection.rows(
            """
            SELECT MIN(tile_column), MAX(tile_column), MIN(tile_row), MAX(tile_row) FROM tiles
            WHERE zoom_level = ?1 AND tile_column BETWEEN 0 AND ?2 AND tile_row BETWEEN 0 AND ?2
            """,
            [Int64(zoom), last], doing: "finding the bounds of zoom \(zoom)")
        guard let row = rows.first, case let .integer(west) = row[0], case let .integer(east) = row[1],
              case let .integer(south) = row[2], case let .integer(north) = row[3] else {
            throw .empty(path: connection.path)
        }
        let northWest = TileID(z: zoom, x: Int(west), tmsRow: Int(north)).bounds
        let southEast = TileID(z: zoom, x: Int(east), tmsRow: Int(south)).bounds
        return GeoBounds(west: northWest.west, south: southEast.south, east: southEast.east, north: northWest.north)
    }
}
