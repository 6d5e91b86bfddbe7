@testable import Demo
@testable import Geo
import XCTest

/// The demo town's geometry: placed on the Earth so the daemon's projection (built from the
/// `bounds` the demo writes) lands every route point on the street it was drawn on.
final class DemoTownTests: XCTestCase {
    let town = DemoTown()

    func testBoundsGiveTheTileSchemeAtZoom17() throws {
        // The georeferenced projection the daemon makes from `bounds` agrees with the tile scheme
        // centred on the town, everywhere on the image, to far below a pixel.
        let tiles = try MapProjection.webMercator(center: DemoTown.center, zoom: DemoTown.zoom,
                                                  canvasWidth: DemoTown.width, canvasHeight: DemoTown.height)
        for (x, y) in [(0.0, 0.0), (1024, 768), (2048, 1536), (560, 1100), (1480, 420), (37.5, 1499.25)] {
            let p = town.projection.point(for: tiles.geoPoint(for: MapPoint(x: x, y: y)))
            XCTAssertEqual(p.x, x, accuracy: 1e-6)
            XCTAssertEqual(p.y, y, accuracy: 1e-6)
        }
        let centre = town.projection.point(for: DemoTown.center)
        XCTAssertEqual(centre.x, 1024, accuracy: 1e-6)
        XCTAssertEqual(centre.y, 768, accuracy: 1e-6)
        // Zoom 17 at 45.5° N: 156543.03 m / 2^17 × cos 45.5° ≈ 0.837 m per pixel.
        XCTAssertEqual(town.metresPerPixel, 0.837, accuracy: 0.001)
    }

    func testTheRouteIsAFewKilometresAlongTheArterials() {
        let route = town.route
        let metres = route.length * town.metresPerPixel
        XCTAssertGreaterThan(metres, 2500)
        XCTAssertLessThan(metres, 3000)
        XCTAssertEqual(route.points.first, DemoTown.terminal)
        XCTAssertEqual(route.points.last, DemoTown.terminal)
        // Every point is on an arterial's centre line, or on a corner's arc within its radius.
        let arterialX: Set<Double> = [560, 1480], arterialY: Set<Double> = [420, 1100]
        for p in route.points where !arterialX.contains(p.x) && !arterialY.contains(p.y) {
            let nearCorner = DemoTown.routeCorners.contains { abs($0.x - p.x) <= 18 && abs($0.y - p.y) <= 18 }
            XCTAssertTrue(nearCorner, "route point \(p) is off the arterials")
        }
        // The stops are on the route.
        for stop in [DemoTown.stopA, DemoTown.stopB, DemoTown.terminal] {
            XCTAssertLessThan(route.distance(toNearest: stop).away, 1e-9)
        }
    }

    func testCourseIsClockwiseFromNorth() {
        let route = town.route
        XCTAssertEqual(route.course(at: 10), 90, accuracy: 1e-9)  // east along the northern arterial
        let southward = route.distance(toNearest: MapPoint(x: 1480, y: 700)).along
        XCTAssertEqual(route.course(at: southward), 180, accuracy: 1e-9)
        let westward = route.distance(toNearest: MapPoint(x: 1000, y: 1100)).along
        XCTAssertEqual(route.course(at: westward), 270, accuracy: 1e-9)
        let northward = route.distance(toNearest: MapPoint(x: 560, y: 700)).along
        XCTAssertEqual(route.course(at: northward), 0, accuracy: 1e-9)
        XCTAssertEqual(Polyline.atan2Degrees(1, 1), 45, accuracy: 1e-9)
        XCTAssertEqual(Polyline.atan2Degrees(1, -1), 135, accuracy: 1e-9)
        XCTAssertEqual(Polyline.atan2Degrees(-1, -1), -135, accuracy: 1e-9)
    }

    func testTheTunnelRunsUnderTheRiverAndTheBridgeOverIt() {
        for x in [Double(DemoTown.tunnelAvenue), 1480, 1020] {
            let r = DemoTown.river(atX: x)
            XCTAssertGreaterThan(r.center - r.halfWidth, 596, "the river reaches the northern bank street at x = \(x)")
            XCTAssertLessThan(r.center + r.halfWidth, 924, "the river reaches the southern bank street at x = \(x)")
            if x == Double(DemoTown.tunnelAvenue) {
                XCTAssertLessThan(Double(DemoTown.tunnelNorthPortal), r.center - r.halfWidth)
                XCTAssertGreaterThan(Double(DemoTown.tunnelSouthPortal), r.center + r.halfWidth)
            }
        }
    }
}
