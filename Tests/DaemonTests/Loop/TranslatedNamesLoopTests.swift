import Daemon
import Foundation
import Glibc
import TestSupport
import XCTest

/// `[transit] language` with a feed that has translations.txt: the trip is followed under its
/// names in that language, a region (uk-UA) falling back to its language (the log here; the
/// banner and the metrics take the same trip).
final class TranslatedNamesLoopTests: XCTestCase {
    func testTheTripIsFollowedUnderItsTranslatedNames() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit-language").path
        let feed = try BlockLoopTests.writeFeed(in: dir)
        try """
            table_name,field_name,language,translation,record_id,record_sub_id,field_value
            stops,stop_name,uk,"Пйотрковська, ріг",,,"Piotrkowska, róg"
            stops,stop_name,uk,Вокзал,,,Dworzec
            trips,trip_headsign,uk,Вокзал,T1,,

            """.write(toFile: feed + "/translations.txt", atomically: true, encoding: .utf8)
        let h = try LoopHarness(config: TransitLoopTests.config(feed: feed, dir: dir, trip: "T1") + "banner = none\nlanguage = uk-UA\n")
        var t = 1.0
        for y in stride(from: 0.0, through: 1400, by: 20) {
            let p = TransitLoopTests.at(y), n = y == 700 || y == 1400 ? 5 : 1
            for _ in 0..<n {
                h.waiting.at(t) { h.source.deliver(latitude: p.lat, longitude: p.lon, at: h.waiting.now()) }
                t += 0.5
            }
        }
        h.waiting.signal(SIGTERM, at: t + 0.5)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.logged("transit: trip T1 (route 7 – Dworzec) to Вокзал, 3 stops").count, 1, h.log)
        XCTAssertEqual(h.logged("transit: arrived at Пйотрковська, ріг (stop 2 of 3)").count, 1, h.log)
        XCTAssertEqual(h.logged("transit: arrived at Вокзал (stop 3 of 3)").count, 1, h.log)
        XCTAssertEqual(h.logged("Piotrkowska").count, 0, h.log)
        XCTAssertEqual(h.logged("transit: language").count, 0, "uk-UA is among the feed's languages: \(h.log)")
    }

    /// A language the feed translates nothing into: said once, the feed's own names shown.
    func testALanguageTheFeedDoesNotHaveIsSaidOnce() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit-language-missing").path
        let feed = try BlockLoopTests.writeFeed(in: dir)
        try "table_name,field_name,language,translation,record_id,record_sub_id,field_value\nstops,stop_name,uk,Вокзал,,,Dworzec\n"
            .write(toFile: feed + "/translations.txt", atomically: true, encoding: .utf8)
        let h = try LoopHarness(config: TransitLoopTests.config(feed: feed, dir: dir, trip: "T1") + "banner = none\nlanguage = he\n")
        h.waiting.at(1) { let p = TransitLoopTests.at(0); h.source.deliver(latitude: p.lat, longitude: p.lon, at: h.waiting.now()) }
        h.waiting.signal(SIGTERM, at: 2)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.logged("transit: language he: translations.txt has no names in it (only uk); the feed's own names are shown").count, 1, h.log)
        XCTAssertEqual(h.logged("transit: trip T1 (route 7 – Dworzec) to Dworzec, 3 stops").count, 1, h.log)
    }
}
