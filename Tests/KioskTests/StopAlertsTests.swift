import GTFSRealtime
@testable import Kiosk
import XCTest

/// Which alerts reach a stop's screen (reference.md, "EntitySelector"): the fields set in one
/// selector all have to match, any selector may, an empty one picks nothing; inside an active
/// period; in the configured language.
final class StopAlertsTests: XCTestCase {
    let stop = StopAlerts(stopIDs: ["2662", "STA"], routeIDs: ["810"], routeTypes: [3], tripIDs: ["T1"], agencyIDs: ["1"])

    func alert(_ text: String, _ selectors: [EntitySelector], periods: [(UInt64?, UInt64?)] = [], translations: [(String?, String)] = []) -> FeedEntity {
        var a = Alert()
        a.informedEntities = selectors
        a.activePeriods = periods.map { var r = TimeRange(); r.start = $0.0; r.end = $0.1; return r }
        var header = TranslatedString()
        for (lang, t) in translations.isEmpty ? [(nil, text)] : translations {
            var tr = Translation()
            tr.text = t
            tr.language = lang
            header.translations.append(tr)
        }
        a.headerText = header
        var e = FeedEntity()
        e.alert = a
        return e
    }

    func selector(agency: String? = nil, route: String? = nil, type: Int32? = nil, stop: String? = nil, trip: String? = nil) -> EntitySelector {
        var s = EntitySelector()
        s.agencyID = agency
        s.routeID = route
        s.routeType = type
        s.stopID = stop
        if let trip { var d = TripDescriptor(); d.tripID = trip; s.trip = d }
        return s
    }

    func testSelectorsAndPeriods() {
        let now: Int64 = 1_800_000_000
        var feed = FeedMessage(header: FeedHeader())
        feed.entities = [
            alert("stop", [selector(stop: "2662")]),
            alert("station", [selector(stop: "STA")]),
            alert("route", [selector(route: "810")]),
            alert("agency", [selector(agency: "1")]),
            alert("trip", [selector(trip: "T1")]),
            alert("type", [selector(type: 3)]),
            alert("route and stop elsewhere", [selector(route: "810", stop: "9999")]),
            alert("other route", [selector(route: "999")]),
            alert("empty selector", [EntitySelector()]),
            alert("second selector", [selector(route: "999"), selector(stop: "2662")]),
            alert("over", [selector(stop: "2662")], periods: [(UInt64(now) - 7200, UInt64(now) - 3600)]),
            alert("later", [selector(stop: "2662")], periods: [(UInt64(now) + 3600, nil)]),
            alert("open start", [selector(stop: "2662")], periods: [(nil, UInt64(now) + 60)]),
            alert("one of two periods", [selector(stop: "2662")], periods: [(0, 10), (UInt64(now) - 1, UInt64(now))]),
        ]
        var deleted = alert("deleted", [selector(stop: "2662")])
        deleted.isDeleted = true
        feed.entities.append(deleted)
        XCTAssertEqual(stop.texts(feed, now: now, language: nil),
                       ["stop", "station", "route", "agency", "trip", "type", "second selector", "open start", "one of two periods"])
    }

    func testLanguage() {
        var feed = FeedMessage(header: FeedHeader())
        feed.entities = [alert("", [selector(stop: "2662")], translations: [("en", "moved"), ("pt-BR", "mudou"), (nil, "default")])]
        XCTAssertEqual(stop.texts(feed, now: 0, language: "pt"), ["mudou"], "the primary subtag matches pt-BR")
        XCTAssertEqual(stop.texts(feed, now: 0, language: "PT_br"), ["mudou"], "case and _ ignored")
        XCTAssertEqual(stop.texts(feed, now: 0, language: "en-GB"), ["moved"])
        XCTAssertEqual(stop.texts(feed, now: 0, language: "ja"), ["default"], "no Japanese: the one without a language")
        XCTAssertEqual(stop.texts(feed, now: 0, language: nil), ["default"])
    }
}
