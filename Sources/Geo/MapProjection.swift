/// Why a map or a position cannot be projected. Messages name what was wrong and what is allowed;
/// the configuration loader prefixes file, line and key.
public enum ProjectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Beyond ±85.05112878°, where Web Mercator's square world ends.
    case polarLatitude(Double, what: String)
    case latitudeOutOfRange(Double, what: String)
    case longitudeOutOfRange(Double, what: String)
    case emptyBounds(GeoBounds)
    case zoomOutOfRange(Double)
    case badSize(width: Int, height: Int, what: String)

    public var description: String {
        switch self {
        case let .polarLatitude(lat, what):
            return "\(what): latitude \(lat) is beyond Web Mercator's limit of ±\(MapProjection.maxLatitude)° (polar regions cannot be drawn on this map)"
        case let .latitudeOutOfRange(lat, what):
            return "\(what): latitude \(lat) is not a latitude (allowed: -90 to 90 degrees)"
        case let .longitudeOutOfRange(lon, what):
            return "\(what): longitude \(lon) is not a longitude (allowed: -180 to 180 degrees)"
        case let .emptyBounds(b):
            return "bounds \(b.west),\(b.south),\(b.east),\(b.north) enclose no area (need SOUTH < NORTH and WEST ≠ EAST; WEST > EAST means the map crosses the antimeridian)"
        case let .zoomOutOfRange(z):
            return "zoom \(z) is outside 0 to \(MapProjection.maxZoom)"
        case let .badSize(w, h, what):
            return "\(what) size \(w)x\(h) is empty"
        }
    }
}

/// Web Mercator (EPSG:3857) from degrees to map pixels and back. Both map kinds are the same affine
/// map of normalised Mercator coordinates (mx, my in 0…1 across the world, y down):
/// - `webMercator(center:zoom:…)`: the standard tile scheme — 256-px tiles, the world 256·2^zoom
///   pixels wide, fractional zoom allowed — with `center` drawn at the canvas centre (W/2, H/2).
/// - `georeferenced(bounds:…)`: an image whose left edge is WEST, right edge EAST, top edge NORTH
///   and bottom edge SOUTH, and which is itself in Web Mercator between those edges (as tile
///   mosaics and most web-map exports are; an image in plain latitude/longitude, EPSG:4326, would
///   be off by up to several pixels mid-height on a tall map).
/// Longitudes are unwrapped to the 360° window centred on the map, so a position is drawn once,
/// never wrapped around to the map's other side.
public struct MapProjection: Equatable, Sendable {
    /// atan(sinh(π)) in degrees: where the Mercator world becomes a square.
    public static let maxLatitude = 85.05112878
    public static let maxZoom = 30.0
    public static let earthRadius = 6_378_137.0

    /// Map pixel = (mercator − origin) × scale.
    let originX: Double, originY: Double
    let scaleX: Double, scaleY: Double
    /// Longitudes are brought to within ±180° of this one before projecting.
    let centreLongitude: Double
    /// The image size for a georeferenced map; nil for the boundless centre-and-zoom map.
    public let imageSize: (width: Int, height: Int)?

    public static func == (a: MapProjection, b: MapProjection) -> Bool {
        a.originX == b.originX && a.originY == b.originY && a.scaleX == b.scaleX && a.scaleY == b.scaleY
            && a.centreLongitude == b.centreLongitude && a.imageSize?.width == b.imageSize?.width
            && a.imageSize?.height == b.imageSize?.height
    }

    /// The tile-scheme map: `center` at the centre of a `canvasWidth`×`canvasHeight` canvas.
    public static func webMercator(center: GeoPoint, zoom: Double, canvasWidth: Int, canvasHeight: Int)
        throws(ProjectionError) -> MapProjection
    {
        try check(center, what: "map center")
        guard zoom >= 0, zoom <= maxZoom else { throw .zoomOutOfRange(zoom) }
        guard canvasWidth > 0, canvasHeight > 0 else {
            throw .badSize(width: canvasWidth, height: canvasHeight, what: "canvas")
        }
        let world = 256 * PortableMath.exp2(zoom)
        let cx = mercatorX(center.longitude), cy = mercatorY(center.latitude)
        return MapProjection(originX: cx - Double(canvasWidth) / 2 / world,
                             originY: cy - Double(canvasHeight) / 2 / world,
                             scaleX: world, scaleY: world, centreLongitude: center.longitude, imageSize: nil)
    }

    /// A block of tiles of the standard grid at whole zoom `zoom`: `columns`×`rows` tiles of
    /// `tileSize` px from tile (`firstColumn`, `firstRow`) (XYZ, row 0 at the north), as one image
    /// whose pixel (0, 0) is that tile's top-left corner. Powers of two throughout, so every tile
    /// edge falls on a whole pixel.
    public static func tileGrid(zoom: Int, tileSize: Int, firstColumn: Int, firstRow: Int, columns: Int, rows: Int)
        throws(ProjectionError) -> MapProjection
    {
        guard zoom >= 0, Double(zoom) <= maxZoom else { throw .zoomOutOfRange(Double(zoom)) }
        guard columns > 0, rows > 0, tileSize > 0 else {
            throw .badSize(width: columns * tileSize, height: rows * tileSize, what: "tile grid")
        }
        let tiles = PortableMath.exp2(Double(zoom))
        let world = Double(tileSize) * tiles
        let x0 = Double(firstColumn) / tiles, y0 = Double(firstRow) / tiles
        let centreX = (Double(firstColumn) + Double(columns) / 2) / tiles
        return MapProjection(originX: x0, originY: y0, scaleX: world, scaleY: world,
                             centreLongitude: centreX * 360 - 180, imageSize: (columns * tileSize, rows * tileSize))
    }

    /// A `width`×`height` image spanning `bounds` (outer pixel edges, not pixel centres).
    public static func georeferenced(bounds: GeoBounds, imageWidth: Int, imageHeight: Int)
        throws(ProjectionError) -> MapProjection
    {
        try check(GeoPoint(latitude: bounds.north, longitude: bounds.west), what: "map bounds (north-west corner)")
        try check(GeoPoint(latitude: bounds.south, longitude: bounds.east), what: "map bounds (south-east corner)")
        guard bounds.south < bounds.north, bounds.west != bounds.east else { throw .emptyBounds(bounds) }
        guard imageWidth > 0, imageHeight > 0 else {
            throw .badSize(width: imageWidth, height: imageHeight, what: "map image")
        }
        let east = bounds.crossesAntimeridian ? bounds.east + 360 : bounds.east
        let x0 = mercatorX(bounds.west), x1 = mercatorX(east)
        let y0 = mercatorY(bounds.north), y1 = mercatorY(bounds.south)
        return MapProjection(originX: x0, originY: y0,
                             scaleX: Double(imageWidth) / (x1 - x0), scaleY: Double(imageHeight) / (y1 - y0),
                             centreLongitude: (bounds.west + east) / 2, imageSize: (imageWidth, imageHeight))
    }

    /// Throws unless `point` is a real position Web Mercator can draw. Call once per fix (and for
    /// configuration); `point(for:)` itself never fails.
    public static func check(_ point: GeoPoint, what: String) throws(ProjectionError) {
        let lat = point.latitude, lon = point.longitude
        guard lat.isFinite, abs(lat) <= 90 else { throw .latitudeOutOfRange(lat, what: what) }
        guard lon.isFinite, abs(lon) <= 180 else { throw .longitudeOutOfRange(lon, what: what) }
        guard abs(lat) <= maxLatitude else { throw .polarLatitude(lat, what: what) }
    }

    /// Where `geo` lies on the map. Polar latitudes are held at the Mercator limit and non-finite
    /// input gives the map origin, so a bad value can never trap; `check` reports them.
    public func point(for geo: GeoPoint) -> MapPoint {
        guard geo.latitude.isFinite, geo.longitude.isFinite else { return MapPoint(x: 0, y: 0) }
        let lat = min(max(geo.latitude, -Self.maxLatitude), Self.maxLatitude)
        var lon = geo.longitude
        // At most a couple of turns for any real longitude; the bound keeps absurd input finite.
        var turns = 0
        while lon > centreLongitude + 180, turns < 4 { lon -= 360; turns += 1 }
        while lon <= centreLongitude - 180, turns < 4 { lon += 360; turns += 1 }
        return MapPoint(x: (Self.mercatorX(lon) - originX) * scaleX, y: (Self.mercatorY(lat) - originY) * scaleY)
    }

    /// The position drawn at a map pixel (the inverse of `point(for:)`), longitude in −180…180.
    public func geoPoint(for p: MapPoint) -> GeoPoint {
        let mx = p.x / scaleX + originX, my = p.y / scaleY + originY
        var lon = mx * 360 - 180
        while lon > 180 { lon -= 360 }
        while lon < -180 { lon += 360 }
        let y = (0.5 - my) * 2 * PortableMath.pi
        let lat = (2 * PortableMath.atan(PortableMath.exp(y)) - PortableMath.pi / 2) * (180 / PortableMath.pi)
        return GeoPoint(latitude: lat, longitude: lon)
    }

    /// Map pixels per metre on the ground at `latitude` (Mercator stretches by 1/cos(lat)). For an
    /// image whose pixels are not square in Mercator terms, the geometric mean of both axes, so an
    /// accuracy circle keeps its area.
    public func pixelsPerMetre(atLatitude latitude: Double) -> Double {
        let lat = min(max(latitude, -Self.maxLatitude), Self.maxLatitude)
        let worldPixels = (scaleX * scaleY).squareRoot()
        return worldPixels / (2 * PortableMath.pi * Self.earthRadius * PortableMath.cos(PortableMath.radians(lat)))
    }

    /// Whether `p` lies on the image (always true for the boundless centre-and-zoom map).
    public func contains(_ p: MapPoint) -> Bool {
        guard let size = imageSize else { return true }
        return p.x >= 0 && p.y >= 0 && p.x <= Double(size.width) && p.y <= Double(size.height)
    }

    // MARK: - Normalised Web Mercator

    /// 0 at 180° W, 1 at 180° E.
    static func mercatorX(_ longitude: Double) -> Double { (longitude + 180) / 360 }

    /// 0 at the northern limit, 1 at the southern, 0.5 at the equator: ½ − atanh(sin φ)/2π.
    static func mercatorY(_ latitude: Double) -> Double {
        let s = PortableMath.sin(PortableMath.radians(latitude))
        return 0.5 - PortableMath.log((1 + s) / (1 - s)) / (4 * PortableMath.pi)
    }
}
