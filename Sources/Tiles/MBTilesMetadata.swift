import Geo

/// An MBTiles file's `metadata` table, each value checked and typed. Where the table leaves out
/// `format`, `minzoom`, `maxzoom` or `bounds`, the value is derived from the tiles themselves
/// (`derivedKeys` says which), so an older or hand-made file still opens.
public struct MBTilesMetadata: Equatable, Sendable {
    /// `center`: the default view, longitude first as MBTiles writes it.
    public struct Center: Equatable, Sendable {
        public var point: GeoPoint
        /// Absent when the file gives only a longitude and latitude.
        public var zoom: Int?

        public init(point: GeoPoint, zoom: Int?) {
            self.point = point
            self.zoom = zoom
        }
    }

    /// `type`: whether the map is meant to be drawn alone or over another.
    public enum LayerType: String, Equatable, Sendable {
        case overlay, baselayer
    }

    public var name: String?
    public var format: TileFormat
    /// West, south, east, north in degrees.
    public var bounds: GeoBounds
    public var center: Center?
    public var minZoom: Int
    public var maxZoom: Int
    public var attribution: String?
    public var type: LayerType?
    /// The metadata keys that were missing and were derived from the tiles, in key order.
    public var derivedKeys: [String]

    public init(name: String?, format: TileFormat, bounds: GeoBounds, center: Center?, minZoom: Int, maxZoom: Int,
                attribution: String?, type: LayerType?, derivedKeys: [String]) {
        self.name = name
        self.format = format
        self.bounds = bounds
        self.center = center
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.attribution = attribution
        self.type = type
        self.derivedKeys = derivedKeys
    }
}

extension MBTilesMetadata {
    /// What the table itself says: every key present is checked, nil where a key is missing.
    /// `format` stays text here because vector and unknown formats are refused only after the
    /// file is known to be an MBTiles file at all.
    struct Declared: Equatable {
        var name: String?
        var format: String?
        var bounds: GeoBounds?
        var center: Center?
        var minZoom: Int?
        var maxZoom: Int?
        var attribution: String?
        var type: LayerType?
    }

    /// The declared values from the table's name → value pairs. A value that does not parse is
    /// refused naming its key: a wrong bounds or zoom would put the dot in the wrong place or ask
    /// for tiles that are not there, silently.
    static func declared(_ values: [String: String], path: String) throws(MBTilesError) -> Declared {
        func bad(_ key: String, _ expected: String) -> MBTilesError {
            .badMetadata(path: path, key: key, value: values[key] ?? "", expected: expected)
        }
        var declared = Declared()
        declared.name = values["name"]
        declared.format = values["format"].map(trimmed)
        declared.attribution = values["attribution"]
        if let text = values["type"] {
            guard let type = LayerType(rawValue: trimmed(text).lowercased()) else { throw bad("type", "overlay or baselayer") }
            declared.type = type
        }
        if let text = values["bounds"] {
            let expected = "WEST,SOUTH,EAST,NORTH in degrees (longitudes -180 to 180, latitudes -90 to 90, SOUTH < NORTH, WEST ≠ EAST)"
            guard let n = numbers(text), n.count == 4, (-180...180).contains(n[0]), (-180...180).contains(n[2]),
                  (-90...90).contains(n[1]), (-90...90).contains(n[3]), n[1] < n[3], n[0] != n[2] else {
                throw bad("bounds", expected)
            }
            declared.bounds = GeoBounds(west: n[0], south: n[1], east: n[2], north: n[3])
        }
        if let text = values["center"] {
            let expected = "LONGITUDE,LATITUDE[,ZOOM] (degrees; zoom a whole number 0 to \(TileID.maxZoom))"
            guard let n = numbers(text), n.count == 2 || n.count == 3, (-180...180).contains(n[0]), (-90...90).contains(n[1]) else {
                throw bad("center", expected)
            }
            var zoom: Int?
            if n.count == 3 {
                guard let z = wholeZoom(n[2]) else { throw bad("center", expected) }
                zoom = z
            }
            declared.center = Center(point: GeoPoint(latitude: n[1], longitude: n[0]), zoom: zoom)
        }
        for key in ["minzoom", "maxzoom"] {
            guard let text = values[key] else { continue }
            guard let n = numbers(text), n.count == 1, let zoom = wholeZoom(n[0]) else {
                throw bad(key, "a whole number 0 to \(TileID.maxZoom)")
            }
            if key == "minzoom" { declared.minZoom = zoom } else { declared.maxZoom = zoom }
        }
        return declared
    }

    /// Comma-separated finite numbers, spaces around each allowed; nil if any is not a number.
    static func numbers(_ text: String) -> [Double]? {
        var result: [Double] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Double(trimmed(String(part))), value.isFinite else { return nil }
            result.append(value)
        }
        return result
    }

    /// A zoom level written as a whole number ("14", and "14.0" as some tools write it).
    static func wholeZoom(_ value: Double) -> Int? {
        guard value == value.rounded(), (0...Double(TileID.maxZoom)).contains(value) else { return nil }
        return Int(value)
    }

    static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
