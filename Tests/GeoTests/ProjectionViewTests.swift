@testable import Geo
import XCTest

final class ProjectionViewTests: XCTestCase {
    /// A 2000×1500 image on an 800×480 canvas.
    private func viewport(_ follow: FollowMode, _ offMap: OffMapMode = .hide, inset: Double = 0) throws -> MapViewport {
        let map = try MapProjection.georeferenced(bounds: GeoBounds(west: 0, south: 0, east: 1, north: 1),
                                                   imageWidth: 2000, imageHeight: 1500)
        return MapViewport(follow: follow, offMap: offMap, canvasWidth: 800, canvasHeight: 480, projection: map, edgeInset: inset)
    }

    func testOffShowsTheImageCentreAndNeverMoves() throws {
        let v = try viewport(.off)
        XCTAssertEqual(v.initialOffset, ViewOffset(x: 600, y: 510))
        XCTAssertEqual(v.offset(following: MapPoint(x: 10, y: 10), from: v.initialOffset), v.initialOffset)
        // A small image on a big canvas is centred with an even border (negative offset).
        let small = try MapProjection.georeferenced(bounds: GeoBounds(west: 0, south: 0, east: 1, north: 1), imageWidth: 301, imageHeight: 200)
        let s = MapViewport(follow: .center, offMap: .hide, canvasWidth: 800, canvasHeight: 480, projection: small)
        XCTAssertEqual(s.initialOffset, ViewOffset(x: -250, y: -140))
        XCTAssertEqual(s.offset(following: MapPoint(x: 0, y: 0), from: s.initialOffset), ViewOffset(x: -250, y: -140))
    }

    func testCenterKeepsTheDotCentredAndClampsAtTheImageEdges() throws {
        let v = try viewport(.center)
        let o = v.offset(following: MapPoint(x: 1000.4, y: 700.6), from: v.initialOffset)
        XCTAssertEqual(o, ViewOffset(x: 600, y: 461))
        let c = v.canvasPoint(MapPoint(x: 1000.4, y: 700.6), offset: o)
        XCTAssertEqual(c.x, 400.4, accuracy: 1e-9) // within half a pixel of the centre: the map moves in whole pixels
        XCTAssertEqual(c.y, 239.6, accuracy: 1e-9)
        XCTAssertEqual(v.offset(following: MapPoint(x: 5, y: 5), from: o), ViewOffset(x: 0, y: 0))
        XCTAssertEqual(v.offset(following: MapPoint(x: 1990, y: 1490), from: o), ViewOffset(x: 1200, y: 1020))
        // Wild input clamps instead of trapping.
        XCTAssertEqual(v.offset(following: MapPoint(x: 1e300, y: -1e300), from: o), ViewOffset(x: 1200, y: 0))
        XCTAssertEqual(v.offset(following: MapPoint(x: .nan, y: 0), from: o), o)
    }

    func testEdgeRecentresOnlyWhenTheDotLeavesTheInnerArea() throws {
        let v = try viewport(.edge)
        let start = ViewOffset(x: 600, y: 510)
        // Inner area: 160…640 × 96…384 on the canvas, i.e. 760…1240 × 606…894 on the map.
        XCTAssertEqual(v.offset(following: MapPoint(x: 761, y: 607), from: start), start)
        XCTAssertEqual(v.offset(following: MapPoint(x: 1239, y: 893), from: start), start)
        let moved = v.offset(following: MapPoint(x: 1250, y: 750), from: start)
        XCTAssertEqual(moved, ViewOffset(x: 850, y: 510))
        // Near the image corner it re-centres as far as the edge allows, and stays put from there.
        let corner = v.offset(following: MapPoint(x: 1990, y: 1490), from: moved)
        XCTAssertEqual(corner, ViewOffset(x: 1200, y: 1020))
        XCTAssertEqual(v.offset(following: MapPoint(x: 1991, y: 1491), from: corner), corner)
    }

    func testOffMapHideAndEdge() throws {
        let hide = try viewport(.off, .hide)
        XCTAssertEqual(hide.placement(of: MapPoint(x: 10, y: 20)), .onMap(MapPoint(x: 10, y: 20)))
        XCTAssertEqual(hide.placement(of: MapPoint(x: -1, y: 20)), .hidden)
        XCTAssertNil(hide.placement(of: MapPoint(x: 3000, y: 20)).point)
        let edge = try viewport(.off, .edge, inset: 11)
        XCTAssertEqual(edge.placement(of: MapPoint(x: -50, y: 700)), .pinned(MapPoint(x: 11, y: 700)))
        XCTAssertEqual(edge.placement(of: MapPoint(x: 2500, y: 1600)), .pinned(MapPoint(x: 1989, y: 1489)))
        XCTAssertEqual(edge.placement(of: MapPoint(x: 2000, y: 1500)), .onMap(MapPoint(x: 2000, y: 1500)))
        // The boundless centre-and-zoom map has no edge.
        let tiles = try MapProjection.webMercator(center: GeoPoint(latitude: 0, longitude: 0), zoom: 10, canvasWidth: 800, canvasHeight: 480)
        let t = MapViewport(follow: .center, offMap: .hide, canvasWidth: 800, canvasHeight: 480, projection: tiles)
        XCTAssertEqual(t.placement(of: MapPoint(x: -1e6, y: 5)), .onMap(MapPoint(x: -1e6, y: 5)))
        XCTAssertEqual(t.initialOffset, ViewOffset(x: 0, y: 0))
        XCTAssertEqual(t.offset(following: MapPoint(x: 1000.2, y: -20), from: t.initialOffset), ViewOffset(x: 600, y: -260))
    }

    func testModesParseFromTheirConfigurationWords() {
        XCTAssertEqual(FollowMode(rawValue: "center"), .center)
        XCTAssertEqual(FollowMode.allCases.map(\.rawValue), ["off", "edge", "center"])
        XCTAssertEqual(OffMapMode.allCases.map(\.rawValue), ["hide", "edge"])
    }
}
