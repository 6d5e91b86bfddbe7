import Transit
import XCTest

/// `trip = TRIP_ID[@HH:MM:SS]`: read back as written, each mistake named in one line.
final class TripChoiceTests: XCTestCase {
    func testTheFormsRead() throws {
        XCTAssertEqual(try TripChoice.parse("D804-T01V01B01-I"), TripChoice(tripID: "D804-T01V01B01-I"))
        for (text, id, start) in [("T2@06:10:00", "T2", 22200), ("T2@25:10:00", "T2", 90600), ("T2@6:10:00", "T2", 22200),
                                  // An @ inside the id: the time is what follows the last one.
                                  ("a@b@07:00:00", "a@b", 25200)] {
            let choice = try TripChoice.parse(text)
            XCTAssertEqual(choice.tripID, id, text)
            XCTAssertEqual(choice.start, start, text)
        }
        for text in ["T2@06:10:00", "T2@25:10:00", "D804-T01V01B01-I"] {
            XCTAssertEqual(try TripChoice.parse(text).description, text)
        }
    }

    /// GTFS ids are free text: what does not end in `@HH:MM:SS` after an id is the id, verbatim.
    func testAnythingElseIsTheIdVerbatim() throws {
        for text in ["T2@8:61:00", "T2@", "T2@0800", "@08:00:00", "A12-3@1#0815", "a/b c", "\"quoted\" 'trip'", "Łódź–Ü@Ş", "@"] {
            let choice = try TripChoice.parse(text)
            XCTAssertEqual(choice, TripChoice(tripID: text), text)
            XCTAssertNil(choice.verbatim, text)
            XCTAssertEqual(choice.description, text)
        }
        // Split, the whole text kept: the feed decides which it is.
        let split = try TripChoice.parse("X@1@08:00:00")
        XCTAssertEqual(split.tripID, "X@1")
        XCTAssertEqual(split.start, 28800)
        XCTAssertEqual(split.verbatim, TripChoice(tripID: "X@1@08:00:00"))
        XCTAssertEqual(split.description, "X@1@08:00:00")
    }

    func testMistakesAreNamed() {
        let cases = [
            ("", "trip '': empty: a trip_id is needed (TRIP_ID or TRIP_ID@HH:MM:SS)"),
            ("T2\n@08:00:00", "trip 'T2\\n@08:00:00': holds a control character: a trip_id is one line"),
            ("T2\u{7F}", "trip 'T2\\x7f': holds a control character: a trip_id is one line"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try TripChoice.parse(text), text) { error in
                XCTAssertEqual("\(error)", message)
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
    }
}
