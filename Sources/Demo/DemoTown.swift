import Geo
import Positioning
/// The made-up town `pulsedot demo` drives through: a street grid with a river, a park, a square
/// and a bus route with a jog in it, laid out in the pixels of its map and placed on the Earth as
/// a block of the standard Web Mercator tiles, so the map (`DemoMap`), the tiles cut from it
/// (`DemoTiles`) and the drive (`DemoDrive`) share one geometry, and the daemon's projection of
/// the tile set puts every fix on the street it was made on.
///
/// The town's map pixel (0, 0) is the corner of a zoom-17 tile, so each 256-px square of the
/// drawing is one tile of the grid, with no resampling. It sits near 45.5° N 73.57° W only so
/// that the map has real coordinates; the streets are invented. Everything is computed without
/// libm (PortableMath), so every machine makes the same map and the same fixes.
public struct DemoTown: Sendable {
    public static let zoom = 17
    public static let tileSize = 256
    /// The first tile (XYZ, zoom 17) and how many tiles across and down: 4096×3072 px, about
    /// 3.4 × 2.6 km at 0.84 m per pixel.
    public static let firstColumn = 38_742
    public static let firstRow = 46_885
    public static let columns = 16
    public static let rows = 12
    public static let width = columns * tileSize
    public static let height = rows * tileSize

    /// The map's outer edges (the tile block's), as the tile set's `bounds` metadata says them.
    public let bounds: GeoBounds
    /// Map pixels ↔ positions: the projection the daemon builds from the tile set.
    public let projection: MapProjection
    /// The position at the middle of the map.
    public let center: GeoPoint
    /// The bus route, a closed loop from the terminal round and back (map pixels, clockwise).
    public let route: Polyline

    public init() {
        do {
            projection = try MapProjection.tileGrid(zoom: Self.zoom, tileSize: Self.tileSize, firstColumn: Self.firstColumn,
                                                    firstRow: Self.firstRow, columns: Self.columns, rows: Self.rows)
        } catch {
            preconditionFailure("the demo town's tiles are on the grid: \(error)")
        }
        let nw = projection.geoPoint(for: MapPoint(x: 0, y: 0))
        let se = projection.geoPoint(for: MapPoint(x: Double(Self.width), y: Double(Self.height)))
        bounds = GeoBounds(west: nw.longitude, south: se.latitude, east: se.longitude, north: nw.latitude)
        center = projection.geoPoint(for: MapPoint(x: Double(Self.width) / 2, y: Double(Self.height) / 2))
        route = Self.loop(through: Self.routeCorners, radius: Self.cornerRadius)
    }

    /// Metres per map pixel in the town (Mercator's scale at its centre; 0.04 % across the map).
    public var metresPerPixel: Double { 1 / projection.pixelsPerMetre(atLatitude: center.latitude) }

    public func geoPoint(_ p: MapPoint) -> GeoPoint { projection.geoPoint(for: p) }

    // MARK: The street plan (map pixels)

    /// Avenues run north–south at these x, streets east–west at these y (centre lines): a block
    /// is 230 × 170 px (190 × 140 m), the grid running to the map's edges. No street runs along
    /// the river; the streets on its banks are `northBank` and `southBank`.
    public static let avenues = (0..<18).map { 100 + 230 * $0 }
    public static let streets = (0..<18).map { 80 + 170 * $0 }.filter { $0 != 1440 }
    public static let northBank = 1270
    public static let southBank = 1610
    /// Widths of a side street and of an arterial (px).
    public static let streetWidth = 12
    public static let arterialWidth = 18
    /// The arterials: the route's streets and avenues, and the avenue over the second bridge.
    public static let arterialStreets = [590, 1950, 2290]
    public static let arterialAvenues = [1250, 2170, 2860]

    /// The river's centre line and half width at `x`: a slow meander between the bank streets.
    public static func river(atX x: Double) -> (center: Double, halfWidth: Double) {
        let twoPi = 2 * PortableMath.pi
        return (1440 + 28 * PortableMath.sin(x * twoPi / 1100 + 0.6), 58 + 6 * PortableMath.sin(x * twoPi / 700))
    }

    /// Avenues that cross the river: the route's bridge, one more bridge, and the route's tunnel.
    public static let routeBridge = 2860
    public static let bridges = [2170, routeBridge]
    public static let tunnelAvenue = 1250
    /// The tunnel's portals on its avenue (y): it runs under the river and its banks.
    public static let tunnelNorthPortal = 1286
    public static let tunnelSouthPortal = 1594

    /// The park: the block between avenues 1710 and 2170, streets 420 and 590 (the avenue at 1940
    /// stops at its edges), with a pond.
    public static let park = (x0: 1710, y0: 420, x1: 2170, y1: 590)
    public static let parkAvenue = 1940
    public static let pond = (x: 1855.0, y: 510.0, radius: 34.0)
    /// A square of one block beside stop B, with a fountain.
    public static let square = (x0: 1480, y0: 2290, x1: 1710, y1: 2460)

    /// The loop's corners, clockwise from the terminal on the northern arterial: east past the
    /// park, south over the bridge, west and a block south (the jog), west past the square, north
    /// through the tunnel. About 5.5 km, through a couple of dozen tiles.
    static let routeCorners = [MapPoint(x: 1370, y: 590), MapPoint(x: 2860, y: 590), MapPoint(x: 2860, y: 1950),
                               MapPoint(x: 2170, y: 1950), MapPoint(x: 2170, y: 2290), MapPoint(x: 1250, y: 2290),
                               MapPoint(x: 1250, y: 590), MapPoint(x: 1370, y: 590)]
    static let cornerRadius = 18.0

    /// The terminal (where each lap begins and ends) and the two stops on the way.
    public static let terminal = MapPoint(x: 1370, y: 590)
    public static let stopA = MapPoint(x: 1825, y: 590)
    public static let stopB = MapPoint(x: 1595, y: 2290)

    /// A polyline through `corners` whose corners are quarter-circle arcs of `radius` (the route's
    /// corners are all right angles), starting and ending at the first point.
    static func loop(through corners: [MapPoint], radius: Double) -> Polyline {
        var points = [corners[0]]
        for i in 1..<(corners.count - 1) {
            let a = corners[i - 1], c = corners[i], b = corners[i + 1]
            let din = Polyline.unit(from: a, to: c), dout = Polyline.unit(from: c, to: b)
            let centre = MapPoint(x: c.x - din.x * radius + dout.x * radius, y: c.y - din.y * radius + dout.y * radius)
            let steps = 8
            for k in 0...steps {
                let theta = Double(k) / Double(steps) * PortableMath.pi / 2
                let cos = PortableMath.cos(theta), sin = PortableMath.sin(theta)
                points.append(MapPoint(x: centre.x - dout.x * radius * cos + din.x * radius * sin,
                                       y: centre.y - dout.y * radius * cos + din.y * radius * sin))
            }
        }
        points.append(corners[corners.count - 1])
        return Polyline(points)
    }
}

/// Points joined by straight segments, measured along their length (map pixels).
public struct Polyline: Sendable {
    public let points: [MapPoint]
    /// Length from the first point to each point.
    public let cumulative: [Double]

    public init(_ points: [MapPoint]) {
        precondition(points.count >= 2, "a polyline needs two points")
        self.points = points
        var lengths = [0.0]
        for i in 1..<points.count { lengths.append(lengths[i - 1] + Self.distance(points[i - 1], points[i])) }
        cumulative = lengths
    }

    public var length: Double { cumulative[cumulative.count - 1] }

    /// The segment holding distance `s` (clamped to the line).
    func segment(at s: Double) -> Int {
        var lo = 0, hi = points.count - 2
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if cumulative[mid] <= s { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The point `s` pixels along the line.
    public func point(at s: Double) -> MapPoint {
        let s = min(max(s, 0), length)
        let i = segment(at: s)
        let a = points[i], b = points[i + 1]
        let span = cumulative[i + 1] - cumulative[i]
        let f = span > 0 ? (s - cumulative[i]) / span : 0
        return MapPoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)
    }

    /// The direction of travel at `s`, in degrees clockwise from north (map up).
    public func course(at s: Double) -> Double {
        let i = segment(at: min(max(s, 0), length))
        return Self.bearing(from: points[i], to: points[i + 1])
    }

    /// How far along the line the point nearest `p` lies (for placing stops and portals).
    public func distance(toNearest p: MapPoint) -> (along: Double, away: Double) {
        var best = (along: 0.0, away: Double.infinity)
        for i in 0..<(points.count - 1) {
            let a = points[i], b = points[i + 1]
            let dx = b.x - a.x, dy = b.y - a.y
            let len2 = dx * dx + dy * dy
            let f = len2 > 0 ? min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0), 1) : 0
            let q = MapPoint(x: a.x + dx * f, y: a.y + dy * f)
            let d = Self.distance(p, q)
            if d < best.away { best = (cumulative[i] + f * (cumulative[i + 1] - cumulative[i]), d) }
        }
        return best
    }

    static func distance(_ a: MapPoint, _ b: MapPoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        return (dx * dx + dy * dy).squareRoot()
    }

    static func unit(from a: MapPoint, to b: MapPoint) -> MapPoint {
        let d = distance(a, b)
        return MapPoint(x: (b.x - a.x) / d, y: (b.y - a.y) / d)
    }

    /// Degrees clockwise from north (map up) of the way from `a` to `b`, in [0, 360).
    static func bearing(from a: MapPoint, to b: MapPoint) -> Double {
        let east = b.x - a.x, north = a.y - b.y
        return FixState.normalised(atan2Degrees(east, north))
    }

    /// atan2(y, x) in degrees from PortableMath's atan (no libm: the same on every CPU).
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        let deg = 180 / PortableMath.pi
        if x > 0 { return PortableMath.atan(y / x) * deg }
        if x < 0 { return PortableMath.atan(y / x) * deg + (y >= 0 ? 180 : -180) }
        return y > 0 ? 90 : y < 0 ? -90 : 0
    }
}
