@testable import Config
import Foundation
import TestSupport
import XCTest

/// `[kiosk]`, and `[transit] trip = realtime`: read, shown back, and what they need refused in one
/// line naming the file, the line and the key.
final class ConfigKioskKeysTests: XCTestCase, ConfigFileTesting {
    let file = "/etc/pulsedot/kiosk.conf"

    func feed() throws -> (URL, String) {
        let dir = try TestEnvironment.temporaryDirectory("kiosk-keys")
        let feed = dir.appendingPathComponent("feed.zip")
        try Data("PK".utf8).write(to: feed)
        return (dir, feed.path)
    }

    func testKioskKeys() throws {
        XCTAssertFalse(Settings().kiosk.isActive)
        let s = try settings("kiosk.stop=2662, STA", "kiosk.departures=8", "kiosk.vehicles=0", "kiosk.within=45", "kiosk.layout=below")
        XCTAssertEqual(s.kiosk.stops, ["2662", "STA"])
        XCTAssertEqual(s.kiosk.departures, 8)
        XCTAssertEqual(s.kiosk.vehicles, 0)
        XCTAssertEqual(s.kiosk.within, 45)
        XCTAssertEqual(s.kiosk.layout, .below)
        try assertShownValuesReadBack(s)
        assertSetError("kiosk.departures=0", "kiosk.departures = 0: not a whole number from 1 to 20")
        assertSetError("kiosk.stop=A,,B", "kiosk.stop = A,,B: an empty stop id (expected stop ids separated by commas, or none)")
        assertSetError("kiosk.layout=left", "kiosk.layout = left: not one of auto, beside, below")
    }

    func testTheBoardsPlace() {
        var k = KioskSettings()
        k.stops = ["S"]
        XCTAssertEqual(k.boardRect(canvasWidth: 1000, canvasHeight: 500), .init(x: 640, y: 0, width: 360, height: 500), "landscape: beside")
        XCTAssertEqual(k.boardRect(canvasWidth: 500, canvasHeight: 1000), .init(x: 0, y: 600, width: 500, height: 400), "portrait: below")
        XCTAssertTrue(k.viewShift(canvasWidth: 1000, canvasHeight: 500) == (180, 0))
        k.layout = .below
        XCTAssertTrue(k.viewShift(canvasWidth: 1000, canvasHeight: 500) == (0, 100))
        k.stops = []
        XCTAssertTrue(k.viewShift(canvasWidth: 1000, canvasHeight: 500) == (0, 0))
    }

    func testAKioskNeedsItsFeedAndAPlace() throws {
        let (dir, path) = try feed()
        defer { try? FileManager.default.removeItem(at: dir) }
        assertError("[kiosk]\nstop = 2662\n", "\(file):2: kiosk.stop = 2662: a kiosk's board is read from a feed: set [transit] gtfs = PATH too (or stop = none)")
        assertError("[transit]\ngtfs = \(path)\n[kiosk]\nstop = 2662\n",
                    "\(file):4: kiosk.stop = 2662: a kiosk stands still: set [source] position = LAT,LON (where the screen stands) too (or stop = none)")
        let ok = try Configuration.parse("[source]\nposition = -3.7,-38.5\n[transit]\ngtfs = \(path)\n[kiosk]\nstop = 2662\n", file: file, overrides: [])
        XCTAssertTrue(ok.settings.kiosk.isActive)
    }

    func testTripRealtimeNeedsAVehicleAndAFeed() throws {
        let (dir, path) = try feed()
        defer { try? FileManager.default.removeItem(at: dir) }
        assertError("[transit]\ngtfs = \(path)\ntrip = realtime\n",
                    "\(file):3: transit.trip = realtime: trip = realtime follows the trip the feeds give this vehicle: set vehicleId = ID too")
        assertError("[transit]\ngtfs = \(path)\ntrip = realtime\nvehicleId = 17\n",
                    "\(file):3: transit.trip = realtime: trip = realtime reads the [realtime] feeds: set [realtime] vehiclePositions or tripUpdates too")
        let ok = try Configuration.parse("[transit]\ngtfs = \(path)\ntrip = realtime\nvehicleId = 17\n[realtime]\nvehiclePositions = https://feeds.invalid/vp.pb\n",
                                         file: file, overrides: [])
        XCTAssertTrue(ok.settings.transit.realtimeTrip)
        XCTAssertNil(ok.settings.transit.trip)
        XCTAssertEqual(ok.settings.transit.vehicleID, "17")
        try assertShownValuesReadBack(ok.settings)
    }
}
