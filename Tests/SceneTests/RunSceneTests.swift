@testable import Config
@testable import Geo
import Location
@testable import Scene
import Syscall
import XCTest

/// The run loop's per-frame model: fixes in, where and how the dot is drawn out.
final class RunSceneTests: XCTestCase {
    private func fix(_ lat: Double, _ lon: Double, at t: Double, error: Double? = nil) -> Fix {
        Fix(latitude: lat, longitude: lon, mode: .threeD, horizontalError: error,
            receivedAt: MonotonicInstant(nanoseconds: Int64(t * 1e9)))
    }

    /// A 2000×1000 image spanning 0…2° E, 0…1° N on an 800×600 canvas.
    /// What `MapFiles.open` reads from the image's header (the image itself is never read here).
    private static let imageFiles = MapFiles(imageSize: (2000, 1000))

    private func imageSettings(follow: FollowMode = .off, offMap: OffMapMode = .hide) -> Settings {
        var s = Settings()
        s.map.imagePath = "/nowhere/map.png"
        s.map.bounds = GeoBounds(west: 0, south: 0, east: 2, north: 1)
        s.map.follow = follow
        s.map.offMap = offMap
        return s
    }

    func testNothingBeforeTheFirstFixOrARingAtTheCanvasCentre() throws {
        var s = Settings()
        s.map.center = GeoPoint(latitude: 45.5, longitude: -73.6)
        var scene = try DotScene(settings: s, files: MapFiles(), canvasWidth: 800, canvasHeight: 600, scale: 2, staleAfter: 30)
        let nothing = scene.frame(at: 10)
        XCTAssertEqual(nothing.phase, .nofix)
        XCTAssertNil(nothing.position)
        XCTAssertNil(nothing.center)
        XCTAssertNil(nothing.appearance)

        s.dot.noFix = .ring
        var ring = try DotScene(settings: s, files: MapFiles(), canvasWidth: 800, canvasHeight: 600, scale: 2, staleAfter: 30)
        let frame = ring.frame(at: 10)
        XCTAssertEqual(frame.center, MapPoint(x: 400, y: 300))
        XCTAssertEqual(frame.appearance?.ringOnly, true)
        XCTAssertNil(frame.position)
    }

    func testAMapWithoutCentreIsCentredOnTheFirstFix() throws {
        var scene = try DotScene(settings: Settings(), files: MapFiles(), canvasWidth: 640, canvasHeight: 480, scale: 1, staleAfter: 30)
        XCTAssertNil(scene.projection)
        XCTAssertEqual(scene.add(fix(52.52, 13.405, at: 1)), .centred(on: GeoPoint(latitude: 52.52, longitude: 13.405)))
        let frame = scene.frame(at: 1.1)
        XCTAssertEqual(frame.phase, .live)
        XCTAssertEqual(frame.position, GeoPoint(latitude: 52.52, longitude: 13.405))
        XCTAssertEqual(frame.center!.x, 320, accuracy: 1e-6)
        XCTAssertEqual(frame.center!.y, 240, accuracy: 1e-6)
        XCTAssertNil(scene.add(fix(52.5201, 13.405, at: 2)), "the second fix says nothing")
    }

    func testAFixedPositionCentresThePlainMap() throws {
        var scene = try DotScene(settings: Settings(), files: MapFiles(), canvasWidth: 1280, canvasHeight: 800, scale: 2, staleAfter: .infinity,
                                 center: GeoPoint(latitude: 45.5, longitude: -73.6))
        XCTAssertNil(scene.add(fix(45.5, -73.6, at: 0)))
        let frame = scene.frame(at: 3600)
        XCTAssertEqual(frame.phase, .live, "a fixed position never goes stale")
        XCTAssertEqual(frame.center!.x, 640, accuracy: 1e-6)
        XCTAssertEqual(frame.center!.y, 400, accuracy: 1e-6)
    }

    func testStaleAfterTheConfiguredTimeStaysWhereTheLastFixWas() throws {
        var s = Settings()
        s.map.center = GeoPoint(latitude: 0.5, longitude: 0.5)
        var scene = try DotScene(settings: s, files: MapFiles(), canvasWidth: 800, canvasHeight: 600, scale: 1, staleAfter: 5)
        scene.add(fix(0.5, 0.5, at: 10))
        XCTAssertEqual(scene.frame(at: 14.9).phase, .live)
        let stale = scene.frame(at: 15.5)
        XCTAssertEqual(stale.phase, .stale)
        XCTAssertEqual(stale.position, GeoPoint(latitude: 0.5, longitude: 0.5))
        XCTAssertEqual(stale.appearance?.staleness ?? 0, 0.5, accuracy: 1e-9)
    }

    func testAGeoreferencedImagePlacesTheFixOnItsPixels() throws {
        var scene = try DotScene(settings: imageSettings(), files: Self.imageFiles, canvasWidth: 800, canvasHeight: 600, scale: 1, staleAfter: 30)
        // The image's centre is shown at the canvas centre (follow = off): offset (600, 200).
        XCTAssertEqual(scene.offset, ViewOffset(x: 600, y: 200))
        XCTAssertNil(scene.add(fix(0.5, 1.0, at: 1)))
        let frame = scene.frame(at: 1)
        let p = scene.projection!.point(for: GeoPoint(latitude: 0.5, longitude: 1.0))
        XCTAssertEqual(frame.center!.x, p.x - 600, accuracy: 1e-9)
        XCTAssertEqual(frame.center!.y, p.y - 200, accuracy: 1e-9)
        XCTAssertEqual(p.x, 1000, accuracy: 1e-6)
    }

    func testOffTheMapIsSaidOnceAndHidden() throws {
        var scene = try DotScene(settings: imageSettings(offMap: .hide), files: Self.imageFiles, canvasWidth: 800, canvasHeight: 600, scale: 1, staleAfter: 30)
        XCTAssertNil(scene.add(fix(0.5, 1.0, at: 1)))
        XCTAssertEqual(scene.add(fix(0.5, 3.0, at: 100)), .leftMap(GeoPoint(latitude: 0.5, longitude: 3.0), .hide))
        XCTAssertNil(scene.add(fix(0.5, 3.1, at: 101)), "still off the map: not said again")
        let hidden = scene.frame(at: 102)
        XCTAssertNil(hidden.center)
        XCTAssertNil(hidden.appearance)
        XCTAssertEqual(hidden.phase, .live, "off the map is not a lost fix")
        XCTAssertEqual(scene.add(fix(0.5, 1.5, at: 300)), .backOnMap(GeoPoint(latitude: 0.5, longitude: 1.5)))
        XCTAssertNotNil(scene.frame(at: 400).center)
    }

    func testOffTheMapWithEdgeIsPinnedInsideTheImage() throws {
        var scene = try DotScene(settings: imageSettings(offMap: .edge), files: Self.imageFiles, canvasWidth: 800, canvasHeight: 600, scale: 2, staleAfter: 30)
        XCTAssertEqual(scene.add(fix(0.5, 5.0, at: 1)), .leftMap(GeoPoint(latitude: 0.5, longitude: 5.0), .edge))
        let frame = scene.frame(at: 1)
        // The ring's radius (11 pt × 2) inside the east edge, at the fix's height.
        let inset = 22.0
        let pinned = scene.projection!.point(for: GeoPoint(latitude: 0.5, longitude: 5.0))
        XCTAssertEqual(frame.center!.x, 2000 - inset - 600, accuracy: 1e-9)
        XCTAssertEqual(frame.center!.y, pinned.y - 200, accuracy: 1e-9)
        // The position drawn is the pinned point's, not the fix's.
        XCTAssertEqual(frame.position!.longitude, 2 - inset / 1000, accuracy: 1e-9)
    }

    func testPolarAndImpossibleFixesAreRejected() throws {
        var scene = try DotScene(settings: Settings(), files: MapFiles(), canvasWidth: 640, canvasHeight: 480, scale: 1, staleAfter: 30)
        guard case .rejected(.polarLatitude)? = scene.add(fix(89, 10, at: 1)) else { return XCTFail("polar fix accepted") }
        guard case .rejected(.longitudeOutOfRange)? = scene.add(fix(10, 200, at: 1)) else { return XCTFail("bad longitude accepted") }
        XCTAssertEqual(scene.frame(at: 2).phase, .nofix)
        XCTAssertNil(scene.projection, "a rejected fix centres nothing")
    }

    func testFollowCenterMovesTheViewInWholePixels() throws {
        var scene = try DotScene(settings: imageSettings(follow: .center), files: Self.imageFiles, canvasWidth: 800, canvasHeight: 600, scale: 1, staleAfter: 30)
        scene.add(fix(0.5, 0.5, at: 1))
        let frame = scene.frame(at: 1)
        let p = scene.projection!.point(for: GeoPoint(latitude: 0.5, longitude: 0.5))
        XCTAssertEqual(frame.offset, ViewOffset(x: Int((p.x - 400).rounded()), y: Int((p.y - 300).rounded())))
        XCTAssertEqual(frame.center!.x, 400, accuracy: 0.5)
        XCTAssertEqual(frame.center!.y, 300, accuracy: 0.5)
    }

    func testAccuracyDiscFromTheErrorAtTheMapsScale() throws {
        var s = Settings()
        s.map.center = GeoPoint(latitude: 0, longitude: 0)
        s.map.zoom = 18
        var scene = try DotScene(settings: s, files: MapFiles(), canvasWidth: 640, canvasHeight: 480, scale: 1, staleAfter: 30)
        scene.add(fix(0, 0, at: 1, error: 30))
        // Zoom 18 at the equator: 2π·6378137 / (256·2^18) ≈ 0.597 m per pixel.
        let radius = try XCTUnwrap(scene.frame(at: 1).appearance?.accuracyRadiusPx)
        XCTAssertEqual(radius, 30 / 0.5971642834779395, accuracy: 1e-6)
    }
}
