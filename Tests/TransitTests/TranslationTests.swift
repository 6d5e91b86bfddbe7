import Foundation
import Transit
import XCTest

/// translations.txt (a made-up one for SmallFeed, in Hebrew, Ukrainian, Hindi and Japanese): a
/// trip's stop names, headsigns and route names in the language asked for, by record first and
/// by value after, a region falling back to its language; rows the reference does not allow
/// skipped and said once per kind; fields no screen shows left out without a word.
final class TranslationTests: XCTestCase {
    static let translations = """
        table_name,field_name,language,translation,record_id,record_sub_id,field_value
        stops,stop_name,he,תחנת פבריצ'נה,S1,,
        stops,stop_name,he,"פיוטרקובסקה, פינה",S2,,
        stops,stop_name,he,התחנה המרכזית,,,Dworzec
        stops,stop_name,he,not this: the record's own wins,,,Łódź Fabryczna
        stops,stop_name,uk,"Пьотрковська, ріг",S2,,
        stops,stop_name,hi,ड्वोज़ेत्स,,,Dworzec
        trips,trip_headsign,he,התחנה המרכזית,T1,,
        stop_times,stop_headsign,he,"התחנה המרכזית, רציף 1",T1,2,
        routes,route_long_name,ja,ドヴォジェツ – ウッチ・ファブリチナ,R1,,
        agency,agency_name,he,מטרו,A,,
        stops,stop_name,he,,S3,,
        stops,stop_name,he,both,S3,,Dworzec
        stops,stop_name,he,neither,,,
        buses,stop_name,he,no such table,S1,,
        stop_times,stop_headsign,he,no stop_sequence,T1,,

        """

    func testATripsNamesInTheLanguageAsked() throws {
        let feed = try SmallFeed(["translations.txt": Self.translations])
        defer { feed.remove() }
        let report = try feed.importFeed()
        let f = feed.feed
        XCTAssertEqual(report.skipped.sorted(), [
            "skipped 1 × translations.txt (translation): empty, and the field is required, the first: \(f)/translations.txt:12:4 (translation): empty, and the field is required",
            "skipped 1 × translations.txt: both record_id and field_value, the first: \(f)/translations.txt:13: both record_id and field_value: the reference allows one",
            "skipped 1 × translations.txt: neither record_id nor field_value, the first: \(f)/translations.txt:14: neither record_id nor field_value: nothing says what is translated",
            "skipped 1 × translations.txt (table_name): not a table translations.txt can name, the first: \(f)/translations.txt:15:1 (table_name): not a table translations.txt can name: 'buses'",
            "skipped 1 × translations.txt (record_id): a stop_times translation by record_id needs record_sub_id (the stop_sequence), the first: \(f)/translations.txt:16:5 (record_id): a stop_times translation by record_id needs record_sub_id (the stop_sequence)",
        ].sorted(), report.skipped.sorted().joined(separator: "\n"))
        let index = try TransitIndex(path: report.path)
        XCTAssertEqual(try index.translationLanguages(), ["he", "hi", "ja", "uk"])
        for (tag, has) in [("he", true), ("he-IL", true), ("UK", true), ("ja_JP", true), ("fr", false), ("pl", false)] {
            XCTAssertEqual(try index.translates(into: tag), has, tag)
        }

        let original = try index.trip(TripChoice(tripID: "T1"))
        for tag in ["he", "he-IL", "HE", "he_IL"] {
            let he = try index.trip(TripChoice(tripID: "T1"), language: tag)
            XCTAssertEqual(he.stops.map { $0.name }, ["תחנת פבריצ'נה", "פיוטרקובסקה, פינה", "התחנה המרכזית"], tag)
            XCTAssertEqual(he.headsign, "התחנה המרכזית", tag)
            XCTAssertEqual(he.stops.map { $0.headsign }, [nil, "התחנה המרכזית, רציף 1", nil], tag)
            XCTAssertEqual(he.route, original.route, "no Hebrew route names: the feed's own")
            // Only names change: the stops, times and line are the trip's.
            XCTAssertEqual(he.stops.map { $0.stopID }, original.stops.map { $0.stopID })
            XCTAssertEqual(he.stops.map { $0.departure }, original.stops.map { $0.departure })
            XCTAssertEqual(he.stops.map { $0.distance }, original.stops.map { $0.distance })
        }
        let uk = try index.trip(TripChoice(tripID: "T1"), language: "uk")
        XCTAssertEqual(uk.stops.map { $0.name }, ["Łódź Fabryczna", "Пьотрковська, ріг", "Dworzec"])
        XCTAssertEqual(uk.headsign, original.headsign)
        let hi = try index.trip(TripChoice(tripID: "T1"), language: "hi")
        XCTAssertEqual(hi.stops.last?.name, "ड्वोज़ेत्स")
        let ja = try index.trip(TripChoice(tripID: "T1"), language: "ja")
        XCTAssertEqual(ja.route.longName, "ドヴォジェツ – ウッチ・ファブリチナ")
        XCTAssertEqual(ja.route.shortName, "7")
        XCTAssertEqual(ja.stops.map { $0.name }, original.stops.map { $0.name })
        let fr = try index.trip(TripChoice(tripID: "T1"), language: "fr")
        XCTAssertEqual(fr.stops.map { $0.name }, original.stops.map { $0.name })
        XCTAssertEqual(fr.headsign, original.headsign)
    }

    func testAFeedWithoutTranslationsKeepsItsNames() throws {
        let feed = try SmallFeed()
        defer { feed.remove() }
        let index = try TransitIndex(path: feed.importFeed().path)
        XCTAssertEqual(try index.translationLanguages(), [])
        XCTAssertEqual(try index.trip(TripChoice(tripID: "T1"), language: "he").stops.map { $0.name },
                       try index.trip(TripChoice(tripID: "T1")).stops.map { $0.name })
    }
}
