@testable import Daemon
import Foundation
import GTFSRealtime
import Kiosk
import Shaping
import TestSupport
import Transit
import XCTest

/// The kiosk's worker on Fortaleza's real feed (Wednesday 2019-07-03; UTC-3, so the service
/// day starts at 1,562,122,800): the board repainted only when what it says changes, the lines
/// sent once, a stop the feed lacks said.
final class KioskBoardTests: XCTestCase {
    func testTheBoardIsRepaintedOnlyWhenItsTextChanges() throws {
        let folder = try TestEnvironment.temporaryDirectory("kiosk-board")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try TransitImporter.importFeed(at: "/work/shared/testdata/gtfs/fortaleza.zip", cacheDirectory: folder.path) { _ in }
        let zone = try TimeZoneRules.load("America/Fortaleza")
        let worker = KioskWorker()
        var settings = KioskModel.Settings()
        settings.departures = 5
        XCTAssertEqual(worker.open(indexPath: report.path, zone: zone, stops: ["2662"], settings: settings), [])

        // 08:30:05 local, a live (empty) TripUpdates feed read at that moment.
        let wall = Double(1_562_122_800 + 8 * 3600 + 30 * 60 + 5)
        var header = FeedHeader()
        header.timestamp = UInt64(wall)
        XCTAssertNil(worker.take(.tripUpdates, .message(FeedMessage(header: header)), at: wall))
        func refresh(_ serial: Int, at t: Double, full: Bool = false) -> KioskMade? {
            worker.refresh(KioskRefresh(serial: serial, wall: t, clockSynchronised: true, boardWidth: 400, boardHeight: 600, scale: 1,
                                        families: FontCatalog.defaultFamilies, fallbackColor: .white, full: full)).made
        }
        let first = try XCTUnwrap(refresh(1, at: wall))
        XCTAssertEqual(first.snapshot.live, .live)
        XCTAssertEqual(first.snapshot.rows.count, 5)
        XCTAssertNotNil(first.board, "the first board is drawn")
        XCTAssertEqual(first.board?.width, 400)
        XCTAssertNotNil(first.lines, "the lines are sent the first time")
        // Ten seconds on: the same minutes, the same words: no new picture, no new lines.
        let same = try XCTUnwrap(refresh(2, at: wall + 10))
        XCTAssertNil(same.board)
        XCTAssertNil(same.lines)
        // A minute on: the minutes to go change, but rows without realtime show the timetable's
        // clock times, so the words do not: still no new picture.
        let minute = try XCTUnwrap(refresh(3, at: wall + 60))
        XCTAssertNotEqual(minute.snapshot.rows.map { $0.minutes }, first.snapshot.rows.map { $0.minutes })
        XCTAssertFalse(minute.snapshot.rows.contains { $0.live })
        XCTAssertNil(minute.board)
        // Twenty minutes on, the first buses have left: other rows, a new picture.
        let later = try XCTUnwrap(refresh(5, at: wall + 1200))
        XCTAssertNotEqual(later.snapshot.rows.map { $0.tripID }, first.snapshot.rows.map { $0.tripID })
        XCTAssertNotNil(later.board)
        // A new view asks for everything again.
        let full = try XCTUnwrap(refresh(4, at: wall + 61, full: true))
        XCTAssertNotNil(full.board)
        XCTAssertNotNil(full.lines)

        let elsewhere = KioskWorker()
        XCTAssertEqual(elsewhere.open(indexPath: report.path, zone: zone, stops: ["no-such-stop"], settings: settings),
                       ["stop no-such-stop is not in the feed: its departures cannot be shown"])
    }
}
