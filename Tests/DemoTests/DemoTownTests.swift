@testable import Demo
@testable import Geo
import Tiles
import XCTest

/// The demo town's geometry: a block of zoom-17 tiles, placed so that the projection the daemon
/// builds from the tile set lands every route point on the street it was drawn on.
final class DemoTownTests: XCTestCase {
    let town = DemoTown()

    func testTheMapsOriginIsAZoom17TileCorner() throws {
        // Map pixel (0, 0) is the north-west corner of the first tile, and every 256 px is the
        // next tile's edge: the grid's own numbers, read back through the tile scheme.
        XCTAssertEqual(DemoTown.width, 4096)
        XCTAssertEqual(DemoTown.height, 3072)
        let first = TileID(z: 17, x: DemoTown.firstColumn, y: DemoTown.firstRow).bounds
        let nw = town.geoPoint(MapPoint(x: 0, y: 0))
        XCTAssertEqual(nw.longitude, first.west, accuracy: 1e-9)
        XCTAssertEqual(nw.latitude, first.north, accuracy: 1e-9)
        let world = try MapProjection.tileGrid(zoom: 17, tileSize: 256, firstColumn: 0, firstRow: 0, columns: 1 << 17, rows: 1 << 17)
        for (x, y) in [(0.0, 0.0), (256, 512), (4096, 3072), (1250, 2290), (37.5, 1499.25)] {
            let p = world.point(for: town.geoPoint(MapPoint(x: x, y: y)))
            XCTAssertEqual(p.x, Double(DemoTown.firstColumn * 256) + x, accuracy: 1e-6)
            XCTAssertEqual(p.y, Double(DemoTown.firstRow * 256) + y, accuracy: 1e-6)
        }
        // The tile range a tile set with the town's bounds covers is the town's, tile for tile.
        let corner = TileSet.tile(containing: GeoPoint(latitude: town.bounds.north, longitude: town.bounds.west), zoom: 17)
        XCTAssertEqual(corner.x, DemoTown.firstColumn)
        XCTAssertEqual(corner.y, DemoTown.firstRow)
        let last = TileSet.tile(containing: GeoPoint(latitude: town.bounds.south, longitude: town.bounds.east), zoom: 17, edge: true)
        XCTAssertEqual(last.x, DemoTown.firstColumn + DemoTown.columns - 1)
        XCTAssertEqual(last.y, DemoTown.firstRow + DemoTown.rows - 1)
        // Near Montréal, 0.84 m per pixel: 156543.03 m / 2^17 × cos 45.5°.
        XCTAssertEqual(town.center.latitude, 45.5, accuracy: 0.01)
        XCTAssertEqual(town.center.longitude, -73.57, accuracy: 0.01)
        XCTAssertEqual(town.metresPerPixel, 0.837, accuracy: 0.001)
    }

    func testTheRouteIsSomeKilometresAlongTheArterials() {
        let route = town.route
        let metres = route.length * town.metresPerPixel
        XCTAssertGreaterThan(metres, 5000)
        XCTAssertLessThan(metres, 6000)
        XCTAssertEqual(route.points.first, DemoTown.terminal)
        XCTAssertEqual(route.points.last, DemoTown.terminal)
        // Every point is on an arterial's centre line, or on a corner's arc within its radius.
        let arterialX = Set(DemoTown.arterialAvenues.map(Double.init)), arterialY = Set(DemoTown.arterialStreets.map(Double.init))
        for p in route.points where !arterialX.contains(p.x) && !arterialY.contains(p.y) {
            let nearCorner = DemoTown.routeCorners.contains { abs($0.x - p.x) <= 18 && abs($0.y - p.y) <= 18 }
            XCTAssertTrue(nearCorner, "route point \(p) is off the arterials")
        }
        for stop in [DemoTown.stopA, DemoTown.stopB, DemoTown.terminal] {
            XCTAssertLessThan(route.distance(toNearest: stop).away, 1e-9)
        }
        // Well inside the map: a 1280×800 view centred on the bus never reaches its edges.
        for p in route.points {
            XCTAssertTrue(p.x >= 640 && p.x <= Double(DemoTown.width) - 640 && p.y >= 400 && p.y <= Double(DemoTown.height) - 400, "\(p)")
        }
    }

    func testOneLapCrossesManyTiles() {
        // The tiles under the route, a pixel at a time: a lap needs a couple of dozen of them, and
        // runs through every row and column between its extremes.
        let route = town.route
        var tiles = Set<TileID>()
        var s = 0.0
        while s <= route.length {
            let p = route.point(at: s)
            tiles.insert(TileID(z: 17, x: DemoTown.firstColumn + Int(p.x) / 256, y: DemoTown.firstRow + Int(p.y) / 256))
            s += 1
        }
        XCTAssertGreaterThanOrEqual(tiles.count, 24)
        XCTAssertEqual(Set(tiles.map(\.x)).count, 8)
        XCTAssertEqual(Set(tiles.map(\.y)).count, 7)
    }

    func testCourseIsClockwiseFromNorth() {
        let route = town.route
        XCTAssertEqual(route.course(at: 10), 90, accuracy: 1e-9)  // east along the northern arterial
        let southward = route.distance(toNearest: MapPoint(x: 2860, y: 1200)).along
        XCTAssertEqual(route.course(at: southward), 180, accuracy: 1e-9)
        let westward = route.distance(toNearest: MapPoint(x: 2500, y: 1950)).along
        XCTAssertEqual(route.course(at: westward), 270, accuracy: 1e-9)
        let jog = route.distance(toNearest: MapPoint(x: 2170, y: 2100)).along
        XCTAssertEqual(route.course(at: jog), 180, accuracy: 1e-9)
        let northward = route.distance(toNearest: MapPoint(x: 1250, y: 1000)).along
        XCTAssertEqual(route.course(at: northward), 0, accuracy: 1e-9)
        XCTAssertEqual(Polyline.atan2Degrees(1, 1), 45, accuracy: 1e-9)
        XCTAssertEqual(Polyline.atan2Degrees(1, -1), 135, accuracy: 1e-9)
        XCTAssertEqual(Polyline.atan2Degrees(-1, -1), -135, accuracy: 1e-9)
    }

    func testTheTunnelRunsUnderTheRiverAndTheBridgesOverIt() {
        for x in [Double(DemoTown.tunnelAvenue)] + DemoTown.bridges.map(Double.init) {
            let r = DemoTown.river(atX: x)
            XCTAssertGreaterThan(r.center - r.halfWidth, Double(DemoTown.northBank + 6), "the river reaches the northern bank street at x = \(x)")
            XCTAssertLessThan(r.center + r.halfWidth, Double(DemoTown.southBank - 6), "the river reaches the southern bank street at x = \(x)")
            if x == Double(DemoTown.tunnelAvenue) {
                XCTAssertLessThan(Double(DemoTown.tunnelNorthPortal), r.center - r.halfWidth)
                XCTAssertGreaterThan(Double(DemoTown.tunnelSouthPortal), r.center + r.halfWidth)
            }
        }
        // The route crosses the river once each way: over its bridge, under it in the tunnel.
        let crossings = DemoTown.routeCorners.indices.dropLast().filter { i in
            let a = DemoTown.routeCorners[i], b = DemoTown.routeCorners[i + 1]
            return a.x == b.x && min(a.y, b.y) < Double(DemoTown.northBank) && max(a.y, b.y) > Double(DemoTown.southBank)
        }.map { DemoTown.routeCorners[$0].x }
        XCTAssertEqual(crossings, [Double(DemoTown.routeBridge), Double(DemoTown.tunnelAvenue)])
    }
}
