@testable import Config
import Foundation
import Raster
import TestSupport
import XCTest

/// `[transit] trip`, `offRouteMeters`, `cache`, `routeColor` and `routeWidth`: read, shown back, and refused in one line
/// naming the file, the line and the key.
final class ConfigTransitKeysTests: XCTestCase, ConfigFileTesting {
    let file = "/etc/pulsedot/transit.conf"

    func testTripForms() throws {
        XCTAssertNil(Settings().transit.trip)
        XCTAssertNil(try settings("transit.trip=none").transit.trip)
        let plain = try XCTUnwrap(try settings("transit.trip=T1").transit.trip)
        XCTAssertEqual(plain.tripID, "T1")
        XCTAssertNil(plain.start)
        let run = try XCTUnwrap(try settings("transit.trip=F@1@25:10:00").transit.trip)
        XCTAssertEqual(run.tripID, "F@1", "the time follows the last @")
        XCTAssertEqual(run.start, 25 * 3600 + 600)
        var s = Settings()
        try s.set("transit.trip=T9@06:30:00")
        try assertShownValuesReadBack(s)
        XCTAssertEqual(SettingsTable.key(section: "transit", name: "trip")?.defaultText, "none")
    }

    func testABadTripNamesFileLineAndKey() {
        // Any other text is an id of the feed, `@` and all: what is wrong then is the missing feed.
        assertError("[transit]\n\ntrip = T1@soon\n",
                    "\(file):3: transit.trip = T1@soon: a trip is one of a feed's: set gtfs = PATH too (or trip = none)")
        assertSetError("transit.trip=", "transit.trip = : empty: a trip_id is needed (TRIP_ID or TRIP_ID@HH:MM:SS)")
    }

    func testATripWithoutItsFeedIsRefused() throws {
        assertError("[transit]\ntrip = T1\n", "\(file):2: transit.trip = T1: a trip is one of a feed's: set gtfs = PATH too (or trip = none)")
        let dir = try TestEnvironment.temporaryDirectory("trip-feed")
        defer { try? FileManager.default.removeItem(at: dir) }
        let feed = dir.appendingPathComponent("feed.zip")
        try Data("PK".utf8).write(to: feed)
        let both = try Configuration.parse("[transit]\ngtfs = \(feed.path)\ntrip = T1\n", file: file, overrides: [])
        XCTAssertEqual(both.settings.transit.trip?.tripID, "T1")
        XCTAssertNil(try Configuration.parse("[transit]\ntrip = none\n", file: file, overrides: []).settings.transit.trip)
    }

    func testOffRouteMeters() throws {
        XCTAssertEqual(Settings().transit.offRouteMeters, 50)
        XCTAssertEqual(try settings("transit.offRouteMeters=120").transit.offRouteMeters, 120)
        assertError("[transit]\noffRouteMeters = 2\n", "\(file):2: transit.offRouteMeters = 2: out of range (5 ≤ value ≤ 1000, in metres)")
        assertError("[transit]\noffRouteMeters = far\n", "\(file):2: transit.offRouteMeters = far: not a number (allowed: 5 ≤ value ≤ 1000, in metres)")
    }

    func testRouteLook() throws {
        XCTAssertEqual(Settings().transit.routeColor, Color(r: 0x00, g: 0x66, b: 0xCC))
        XCTAssertEqual(Settings().transit.routeWidth, 6)
        let s = try settings("transit.routeColor=#B01C6E", "transit.routeWidth=8.5")
        XCTAssertEqual(s.transit.routeColor, Color(r: 0xB0, g: 0x1C, b: 0x6E))
        XCTAssertEqual(s.transit.routeWidth, 8.5)
        try assertShownValuesReadBack(s)
        assertError("[transit]\nrouteColor = #B01C6E80\n", "\(file):2: transit.routeColor = #B01C6E80: must be opaque (expected #RRGGBB, or alpha FF)")
        assertError("[transit]\nrouteWidth = 0\n", "\(file):2: transit.routeWidth = 0: out of range (1 ≤ value ≤ 30, in points)")
    }

    func testCache() throws {
        XCTAssertNil(Settings().transit.cache)
        XCTAssertEqual(try settings("transit.cache=/srv/gtfs").transit.cacheDirectory, "/srv/gtfs")
        XCTAssertNil(try settings("transit.cache=auto").transit.cache)
        // Relative to the configuration file's folder, like every path.
        let c = try Configuration.parse("[transit]\ncache = idx\n", file: "/etc/pulsedot/site.conf")
        XCTAssertEqual(c.settings.transit.cache, "/etc/pulsedot/idx")
        assertSetError("transit.cache=", "transit.cache = : empty path (expected a folder, or auto)")
    }
}
