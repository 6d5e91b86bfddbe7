import Transit
import XCTest

/// `trip = TRIP_ID[@HH:MM:SS]`: read back as written, each mistake named in one line.
final class TripChoiceTests: XCTestCase {
    func testTheFormsRead() throws {
        XCTAssertEqual(try TripChoice.parse("D804-T01V01B01-I"), TripChoice(tripID: "D804-T01V01B01-I"))
        XCTAssertEqual(try TripChoice.parse("T2@06:10:00"), TripChoice(tripID: "T2", start: 22200))
        XCTAssertEqual(try TripChoice.parse("T2@25:10:00"), TripChoice(tripID: "T2", start: 90600))
        XCTAssertEqual(try TripChoice.parse("T2@6:10:00"), TripChoice(tripID: "T2", start: 22200))
        // An @ inside the id: the time is what follows the last one.
        XCTAssertEqual(try TripChoice.parse("a@b@07:00:00"), TripChoice(tripID: "a@b", start: 25200))
        for text in ["T2@06:10:00", "T2@25:10:00", "D804-T01V01B01-I"] {
            XCTAssertEqual(try TripChoice.parse(text).description, text)
        }
    }

    func testMistakesAreNamed() {
        let cases = [
            ("", "trip '': empty: a trip_id is needed (TRIP_ID or TRIP_ID@HH:MM:SS)"),
            ("@08:00:00", "trip '@08:00:00': no trip_id before '@'"),
            ("T2@8:61:00", "trip 'T2@8:61:00': the start after '@' is not a time HH:MM:SS: '8:61:00'"),
            ("T2@", "trip 'T2@': the start after '@' is not a time HH:MM:SS: ''"),
            ("T2@0800", "trip 'T2@0800': the start after '@' is not a time HH:MM:SS: '0800'"),
            ("T2\n@08:00:00", "trip 'T2\\n@08:00:00': holds a control character: a trip_id is one line"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try TripChoice.parse(text), text) { error in
                XCTAssertEqual("\(error)", message)
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
    }
}
