import Compositor
import Raster
import XCTest

/// A route drawn into the map itself: the map then equals the bare map with the route drawn over
/// it; after each change of the travelled part or the next stop, repainting only the damage
/// equals drawing it all again; the map kept under the route is a strip along it, and removing
/// the route gives the bare map back — also for a map cut into surfaces (tiles) at any origin.
final class RouteUnderlayTests: XCTestCase {
    static let (w, h) = (RouteLayerTests.w, RouteLayerTests.h)

    static func pixels(_ o: OwnedPixelBuffer) -> [UInt32] { RouteLayerTests.pixels(o) }

    func testTheMapCarriesTheRouteAndRepaintsOnlyWhatChanged() {
        let layer = RouteLayerTests.route()
        layer.setTravelled(distance256: 50 * 256)
        let map = RouteLayerTests.map()
        let bare = Self.pixels(map)
        let underlay = RouteUnderlay(route: layer)
        _ = layer.takeMapDamage()
        let touched = underlay.apply(to: map.buffer, originX: 0, originY: 0)
        XCTAssertFalse(touched.isEmpty)
        XCTAssertEqual(Self.pixels(map), Self.pixels(RouteLayerTests.drawWhole(layer)), "not the route drawn over the map")
        XCTAssertNotEqual(Self.pixels(map), bare)
        // A band of 16 px cells along the line: under 40 px wide, with the stops' few cells more.
        XCTAssertLessThan(underlay.byteCount, Int(layer.length256 / 256) * 40 * 4 + 4 * 9 * 1024, "more than a strip along the route kept")
        for (travelled, next) in [(53, nil), (90, 1), (91, 2), (200, 2), (20, 0), (400, 3), (400, nil)] as [(Int, Int?)] {
            layer.setTravelled(distance256: Int64(travelled * 256))
            layer.setNextStop(next)
            let damage = layer.takeMapDamage()
            underlay.repaint(damage, in: map.buffer, originX: 0, originY: 0)
            XCTAssertEqual(Self.pixels(map), Self.pixels(RouteLayerTests.drawWhole(layer)), "travelled \(travelled), next \(String(describing: next))")
        }
        underlay.remove(from: map.buffer, originX: 0, originY: 0)
        XCTAssertEqual(Self.pixels(map), bare, "the route was left in the map")
    }

    /// The map in 64 px squares at their own origins (as tiles are), some negative.
    func testSurfacesAtTheirOwnOriginsMatchOneWholeMap() {
        let layer = RouteLayerTests.route((x: -100, y: -40))
        let underlay = RouteUnderlay(route: layer)
        var tiles: [(OwnedPixelBuffer, Int, Int)] = []
        for ty in stride(from: -64, to: Self.h, by: 64) {
            for tx in stride(from: -128, to: Self.w, by: 64) {
                let t = OwnedPixelBuffer(width: 64, height: 64, format: .xrgb8888)
                for y in 0..<64 {
                    let row = t.buffer.row(y).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<64 { row[x] = UInt32(truncatingIfNeeded: (tx + x) &* 2_654_435_761 ^ (ty + y) &* 40_503) | 0xFF00_0000 }
                }
                tiles.append((t, tx, ty))
            }
        }
        let bare = tiles.map { Self.pixels($0.0) }
        for t in tiles { underlay.apply(to: t.0.buffer, originX: t.1, originY: t.2) }
        _ = layer.takeMapDamage()
        func check(_ what: String) {
            for (i, t) in tiles.enumerated() {
                let want = OwnedPixelBuffer(width: 64, height: 64, format: .xrgb8888)
                want.buffer.copy(want.buffer.bounds, from: t.0.buffer)
                let fresh = OwnedPixelBuffer(width: 64, height: 64, format: .xrgb8888)
                withExtendedLifetime(fresh) {
                    let row0 = fresh.buffer
                    for y in 0..<64 { row0.row(y).assumingMemoryBound(to: UInt32.self).update(from: bare[i].withUnsafeBufferPointer { $0.baseAddress! } + y * 64, count: 64) }
                }
                layer.draw(into: fresh.buffer, clip: fresh.buffer.bounds, originX: t.1, originY: t.2)
                XCTAssertEqual(Self.pixels(t.0), Self.pixels(fresh), "\(what): the square at (\(t.1), \(t.2))")
            }
        }
        check("applied")
        for travelled in [30, 31, 120, 260] {
            layer.setTravelled(distance256: Int64(travelled * 256))
            layer.setNextStop(travelled / 100)
            let damage = layer.takeMapDamage()
            for t in tiles { underlay.repaint(damage, in: t.0.buffer, originX: t.1, originY: t.2) }
            check("travelled \(travelled)")
        }
        for t in tiles { underlay.remove(from: t.0.buffer, originX: t.1, originY: t.2) }
        XCTAssertEqual(tiles.map { Self.pixels($0.0) }, bare, "the route was left in the squares")
    }
}
