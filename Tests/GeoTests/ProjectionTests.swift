@testable import Geo
import Glibc
import XCTest

/// Expected pixels come from the slippy-map tile formulas evaluated with libm
/// (x = (lon+180)/360·2^z, y = (1 − ln(tan φ + sec φ)/π)/2·2^z, in tiles), a different formula and
/// different maths from the projection's own atanh(sin φ) in PortableMath.
final class ProjectionTests: XCTestCase {
    struct City { let name: String; let lat: Double; let lon: Double }
    static let cities = [
        City(name: "London", lat: 51.5074, lon: -0.1278),
        City(name: "New York", lat: 40.7128, lon: -74.0060),
        City(name: "Tokyo", lat: 35.6762, lon: 139.6503),
        City(name: "Sydney", lat: -33.8688, lon: 151.2093),
        City(name: "Quito", lat: -0.1807, lon: -78.4678),
        City(name: "Reykjavik", lat: 64.1466, lon: -21.9426),
        City(name: "Cape Town", lat: -33.9249, lon: 18.4241),
    ]

    static func tileX(_ lon: Double, _ z: Double) -> Double { (lon + 180) / 360 * Glibc.exp2(z) }
    static func tileY(_ lat: Double, _ z: Double) -> Double {
        let phi = lat * .pi / 180
        return (1 - Glibc.log(Glibc.tan(phi) + 1 / Glibc.cos(phi)) / .pi) / 2 * Glibc.exp2(z)
    }
    static func tileLon(_ x: Double, _ z: Double) -> Double { x / Glibc.exp2(z) * 360 - 180 }
    static func tileLat(_ y: Double, _ z: Double) -> Double {
        Glibc.atan(Glibc.sinh(.pi * (1 - 2 * y / Glibc.exp2(z)))) * 180 / .pi
    }

    /// A 4×3-tile image cut on tile edges around each city, at several zooms: the city must land on
    /// the pixel tile maths says, within 0.5 px (in fact within a millipixel).
    func testCitiesLandOnTheirPixelsOfAGeoreferencedImage() throws {
        for city in Self.cities {
            for z in [3.0, 8.0, 12.0, 16.0] {
                let tx = Self.tileX(city.lon, z), ty = Self.tileY(city.lat, z)
                let tiles = Glibc.exp2(z)
                let x0 = min(max((tx - 1.5).rounded(.down), 0), tiles - 4), y0 = min(max((ty - 1).rounded(.down), 0), tiles - 3)
                let bounds = GeoBounds(west: Self.tileLon(x0, z), south: Self.tileLat(y0 + 3, z),
                                       east: Self.tileLon(x0 + 4, z), north: Self.tileLat(y0, z))
                let map = try MapProjection.georeferenced(bounds: bounds, imageWidth: 1024, imageHeight: 768)
                let p = map.point(for: GeoPoint(latitude: city.lat, longitude: city.lon))
                let ex = (tx - x0) * 256, ey = (ty - y0) * 256
                XCTAssertEqual(p.x, ex, accuracy: 0.5, "\(city.name) z\(z) x")
                XCTAssertEqual(p.y, ey, accuracy: 0.5, "\(city.name) z\(z) y")
                XCTAssertEqual(p.x, ex, accuracy: 1e-3, "\(city.name) z\(z) x (tight)")
                XCTAssertEqual(p.y, ey, accuracy: 1e-3, "\(city.name) z\(z) y (tight)")
                XCTAssertTrue(map.contains(p))
            }
        }
    }

    /// A check on the test's own formulas: central London is the often-cited tile 10/511/340;
    /// Sydney's 12/3768/2457 was computed separately in Python.
    func testTestFormulasAgreeWithPublishedTiles() {
        XCTAssertEqual(Int(Self.tileX(-0.1278, 10)), 511)
        XCTAssertEqual(Int(Self.tileY(51.5074, 10)), 340)
        XCTAssertEqual(Int(Self.tileX(151.2093, 12)), 3768)
        XCTAssertEqual(Int(Self.tileY(-33.8688, 12)), 2457)
    }

    /// The same image stretched to another pixel size: positions scale with it.
    func testNonTileImageSizeScalesLinearly() throws {
        let z = 10.0
        let b = GeoBounds(west: Self.tileLon(511, z), south: Self.tileLat(342, z), east: Self.tileLon(513, z), north: Self.tileLat(340, z))
        let map = try MapProjection.georeferenced(bounds: b, imageWidth: 1000, imageHeight: 700)
        let london = GeoPoint(latitude: 51.5074, longitude: -0.1278)
        let p = map.point(for: london)
        XCTAssertEqual(p.x, (Self.tileX(london.longitude, z) - 511) / 2 * 1000, accuracy: 1e-3)
        XCTAssertEqual(p.y, (Self.tileY(london.latitude, z) - 340) / 2 * 700, accuracy: 1e-3)
    }

    /// Centre-and-zoom: the centre is drawn at (W/2, H/2); a city is its tile-pixel distance away.
    func testTileSchemeCentreAndOffsets() throws {
        let centre = GeoPoint(latitude: 48.8566, longitude: 2.3522) // Paris
        for z in [0.0, 5.5, 13.0, 17.25] {
            let map = try MapProjection.webMercator(center: centre, zoom: z, canvasWidth: 1280, canvasHeight: 800)
            let c = map.point(for: centre)
            XCTAssertEqual(c.x, 640, accuracy: 1e-6)
            XCTAssertEqual(c.y, 400, accuracy: 1e-6)
            let louvre = GeoPoint(latitude: 48.8606, longitude: 2.3376)
            let p = map.point(for: louvre)
            XCTAssertEqual(p.x - c.x, (Self.tileX(louvre.longitude, z) - Self.tileX(centre.longitude, z)) * 256, accuracy: 1e-3)
            XCTAssertEqual(p.y - c.y, (Self.tileY(louvre.latitude, z) - Self.tileY(centre.latitude, z)) * 256, accuracy: 1e-3)
        }
        // Zoom 0, the whole world 256 px: null island at its middle, 180° E at its right edge.
        let world = try MapProjection.webMercator(center: GeoPoint(latitude: 0, longitude: 0), zoom: 0, canvasWidth: 256, canvasHeight: 256)
        XCTAssertEqual(world.point(for: GeoPoint(latitude: 0, longitude: 0)).x, 128, accuracy: 1e-9)
        XCTAssertEqual(world.point(for: GeoPoint(latitude: 0, longitude: 180)).x, 256, accuracy: 1e-9)
        XCTAssertEqual(world.point(for: GeoPoint(latitude: MapProjection.maxLatitude, longitude: 0)).y, 0, accuracy: 1e-5)
    }

    func testRoundTrips() throws {
        let map = try MapProjection.georeferenced(bounds: GeoBounds(west: -0.5, south: 51.2, east: 0.3, north: 51.7),
                                                   imageWidth: 4000, imageHeight: 3500)
        for x in stride(from: -300.0, through: 4300, by: 173.3) {
            for y in stride(from: -200.0, through: 3700, by: 211.7) {
                let g = map.geoPoint(for: MapPoint(x: x, y: y))
                let back = map.point(for: g)
                XCTAssertEqual(back.x, x, accuracy: 1e-6)
                XCTAssertEqual(back.y, y, accuracy: 1e-6)
            }
        }
        let tiles = try MapProjection.webMercator(center: GeoPoint(latitude: -33.9, longitude: 151.2), zoom: 15.5,
                                                  canvasWidth: 800, canvasHeight: 480)
        for city in Self.cities + [City(name: "north", lat: 85.05, lon: 179.99), City(name: "south", lat: -85.05, lon: -179.99)] {
            let g = GeoPoint(latitude: city.lat, longitude: city.lon)
            let back = tiles.geoPoint(for: tiles.point(for: g))
            XCTAssertEqual(back.latitude, g.latitude, accuracy: 1e-9, city.name)
            XCTAssertEqual(back.longitude, g.longitude, accuracy: 1e-9, city.name)
        }
    }

    /// Ground resolution: the well-known 156 543.034 m/px at zoom 0 on the equator, halving per zoom
    /// level and shrinking with cos(latitude).
    func testPixelsPerMetre() throws {
        let z0 = try MapProjection.webMercator(center: GeoPoint(latitude: 0, longitude: 0), zoom: 0, canvasWidth: 256, canvasHeight: 256)
        XCTAssertEqual(1 / z0.pixelsPerMetre(atLatitude: 0), 156_543.034, accuracy: 0.001)
        let z17 = try MapProjection.webMercator(center: GeoPoint(latitude: 60, longitude: 10), zoom: 17, canvasWidth: 256, canvasHeight: 256)
        XCTAssertEqual(1 / z17.pixelsPerMetre(atLatitude: 0), 1.194_33, accuracy: 1e-5)
        XCTAssertEqual(z17.pixelsPerMetre(atLatitude: 60), 2 * z17.pixelsPerMetre(atLatitude: 0), accuracy: 1e-9)
        // An image made of zoom-16 tiles has zoom 16's resolution.
        let z = 16.0
        let img = try MapProjection.georeferenced(
            bounds: GeoBounds(west: Self.tileLon(1000, z), south: Self.tileLat(21002, z), east: Self.tileLon(1002, z), north: Self.tileLat(21000, z)),
            imageWidth: 512, imageHeight: 512)
        XCTAssertEqual(img.pixelsPerMetre(atLatitude: 45), 256 * Glibc.exp2(z) / (2 * .pi * 6_378_137 * Glibc.cos(.pi / 4)), accuracy: 1e-9)
    }

    /// Fiji's map crosses 180°: west 177 > east −178. Positions on both sides of the line are
    /// continuous; the map spans 5° of longitude.
    func testAntimeridianBoundsAreSupported() throws {
        let fiji = try MapProjection.georeferenced(bounds: GeoBounds(west: 177, south: -19, east: -178, north: -16),
                                                    imageWidth: 1000, imageHeight: 600)
        XCTAssertEqual(fiji.point(for: GeoPoint(latitude: -17, longitude: 177)).x, 0, accuracy: 1e-6)
        XCTAssertEqual(fiji.point(for: GeoPoint(latitude: -17, longitude: -178)).x, 1000, accuracy: 1e-6)
        XCTAssertEqual(fiji.point(for: GeoPoint(latitude: -17, longitude: 180)).x, 600, accuracy: 1e-6)
        let west = fiji.point(for: GeoPoint(latitude: -17, longitude: 179.9))
        let east = fiji.point(for: GeoPoint(latitude: -17, longitude: -179.9))
        XCTAssertEqual(east.x - west.x, 40, accuracy: 1e-6) // 0.2° of 5° over 1000 px
        XCTAssertTrue(fiji.contains(east) && fiji.contains(west))
        let back = fiji.geoPoint(for: east)
        XCTAssertEqual(back.longitude, -179.9, accuracy: 1e-9)
    }

    /// A map that does not cross 180° never wraps a far position onto itself: it lands far outside.
    func testNoWrapAcrossTheMap() throws {
        let europe = try MapProjection.georeferenced(bounds: GeoBounds(west: -10, south: 35, east: 30, north: 60),
                                                      imageWidth: 800, imageHeight: 800)
        let fiji = europe.point(for: GeoPoint(latitude: -17, longitude: 179))
        XCTAssertFalse(europe.contains(fiji))
        XCTAssertGreaterThan(fiji.x, 800)
        let alaska = europe.point(for: GeoPoint(latitude: 61, longitude: -150))
        XCTAssertLessThan(alaska.x, 0)
        // Centre-and-zoom near the line: a position just across it is just to the right.
        let tiles = try MapProjection.webMercator(center: GeoPoint(latitude: -17, longitude: 179.99), zoom: 14,
                                                  canvasWidth: 800, canvasHeight: 600)
        let across = tiles.point(for: GeoPoint(latitude: -17, longitude: -179.99))
        XCTAssertEqual(across.x - 400, 0.02 / 360 * 256 * 16384, accuracy: 1e-6)
    }

    func testPolarAndInvalidInputIsRejectedClearly() throws {
        XCTAssertThrowsError(try MapProjection.webMercator(center: GeoPoint(latitude: 86, longitude: 0), zoom: 3,
                                                           canvasWidth: 100, canvasHeight: 100)) { error in
            XCTAssertEqual(error as? ProjectionError, .polarLatitude(86, what: "map center"))
            XCTAssertEqual("\(error)", "map center: latitude 86.0 is beyond Web Mercator's limit of ±85.05112878° (polar regions cannot be drawn on this map)")
        }
        XCTAssertThrowsError(try MapProjection.georeferenced(bounds: GeoBounds(west: 10, south: 70, east: 20, north: 88),
                                                             imageWidth: 10, imageHeight: 10)) { error in
            XCTAssertEqual(error as? ProjectionError, .polarLatitude(88, what: "map bounds (north-west corner)"))
        }
        XCTAssertThrowsError(try MapProjection.check(GeoPoint(latitude: -89.9, longitude: 0), what: "fix")) { error in
            XCTAssertTrue("\(error)".hasPrefix("fix: latitude -89.9 is beyond"), "\(error)")
        }
        XCTAssertThrowsError(try MapProjection.check(GeoPoint(latitude: 91, longitude: 0), what: "fix")) { error in
            XCTAssertEqual("\(error)", "fix: latitude 91.0 is not a latitude (allowed: -90 to 90 degrees)")
        }
        XCTAssertThrowsError(try MapProjection.check(GeoPoint(latitude: 0, longitude: 181), what: "fix"))
        XCTAssertThrowsError(try MapProjection.check(GeoPoint(latitude: .nan, longitude: 0), what: "fix"))
        XCTAssertNoThrow(try MapProjection.check(GeoPoint(latitude: 85.05, longitude: -180), what: "fix"))
        XCTAssertThrowsError(try MapProjection.georeferenced(bounds: GeoBounds(west: 10, south: 50, east: 20, north: 40),
                                                             imageWidth: 10, imageHeight: 10)) { error in
            XCTAssertTrue("\(error)".contains("enclose no area"), "\(error)")
        }
        XCTAssertThrowsError(try MapProjection.webMercator(center: GeoPoint(latitude: 0, longitude: 0), zoom: 31,
                                                           canvasWidth: 10, canvasHeight: 10))
        XCTAssertThrowsError(try MapProjection.georeferenced(bounds: GeoBounds(west: 0, south: 0, east: 1, north: 1),
                                                             imageWidth: 0, imageHeight: 10))
        // The per-frame call never traps on what `check` rejects.
        let map = try MapProjection.webMercator(center: GeoPoint(latitude: 0, longitude: 0), zoom: 2, canvasWidth: 10, canvasHeight: 10)
        XCTAssertTrue(map.point(for: GeoPoint(latitude: 89.9, longitude: 0)).y.isFinite)
        XCTAssertEqual(map.point(for: GeoPoint(latitude: .nan, longitude: 0)), MapPoint(x: 0, y: 0))
        XCTAssertTrue(map.point(for: GeoPoint(latitude: 0, longitude: 1e300)).x.isFinite)
    }
}
