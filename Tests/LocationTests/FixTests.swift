import Foundation
import Syscall
import XCTest
@testable import Location

/// A fix as `pulsedot watch` prints it, and gpsd's status names.
final class FixTests: XCTestCase {
    let arrival = MonotonicInstant(nanoseconds: 123_456_789)

    func testJSONLineExactFormAndEscaping() throws {
        let fix = Fix(latitude: 44.068843333, longitude: -121.314191667, mode: .twoD, horizontalError: 4.655, track: 0,
                      speed: 1e-05, time: FixTime(secondsSinceEpoch: 2_048_272_000, nanoseconds: 1), device: "/dev/\"odd\"\\\n\u{1}",
                      status: .simulated, receivedAt: arrival)
        XCTAssertEqual(fix.jsonLine, #"{"lat":44.068843333,"lon":-121.314191667,"mode":2,"eph":4.655,"track":0.0,"speed":1e-05,"time":"2034-11-27T20:26:40.000000001Z","device":"/dev/\"odd\"\\\n\u0001","status":"simulated"}"#)
        let bare = Fix(latitude: -0.0, longitude: 180, mode: .threeD, receivedAt: arrival)
        XCTAssertEqual(bare.jsonLine, #"{"lat":-0.0,"lon":180.0,"mode":3,"eph":null,"track":null,"speed":null,"time":null,"device":null,"status":"normal"}"#)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(fix.jsonLine.utf8)))
        // Only what JSON requires is escaped: a tab gets its short form, DEL and non-ASCII go out as they are.
        let odd = Fix(latitude: 1, longitude: 2, mode: .threeD, device: "\t\u{7F}\u{1F}ö\r", receivedAt: arrival)
        XCTAssertTrue(odd.jsonLine.contains("\"device\":\"\\t\u{7F}\\u001fö\\r\""), odd.jsonLine)
        let decoded = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(odd.jsonLine.utf8)) as? [String: Any])
        XCTAssertEqual(decoded["device"] as? String, "\t\u{7F}\u{1F}ö\r")
    }

    func testStatusNames() {
        XCTAssertEqual([2, 3, 4, 8, 1, 0, 42].map { FixStatus(rawValue: $0).description },
                       ["dgps", "rtk-fixed", "rtk-float", "simulated", "normal", "unknown", "status-42"])
    }
}

final class FixTimeTests: XCTestCase {
    func testParsesAndPrintsISO8601() throws {
        let t = try XCTUnwrap(FixTime(iso8601: "2034-11-27T20:26:40.000Z"))
        XCTAssertEqual(t.secondsSinceEpoch, 2_048_272_000)
        XCTAssertEqual(t.description, "2034-11-27T20:26:40.000Z")
        XCTAssertEqual(FixTime(iso8601: "1970-01-01T00:00:00Z")?.secondsSinceEpoch, 0)
        XCTAssertEqual(FixTime(iso8601: "2024-02-29T23:59:59.5Z")?.description, "2024-02-29T23:59:59.500Z")
        XCTAssertEqual(FixTime(iso8601: "2016-12-31T23:59:60Z")?.secondsSinceEpoch, 1_483_228_800, "leap second reads as the next")
        XCTAssertEqual(FixTime(iso8601: "2024-06-01T12:00:03.123456789Z")?.description, "2024-06-01T12:00:03.123456789Z")
        XCTAssertEqual(FixTime(secondsSinceEpoch: -1).description, "1969-12-31T23:59:59.000Z")
        for bad in ["2023-02-29T00:00:00Z", "2024-06-01 12:00:00Z", "2024-06-01T12:00:00", "2024-06-01T24:00:00Z",
                    "2024-06-01T12:00:00.Z", "2024-06-01T12:00:00,5Z", "2024-6-01T12:00:00Z", "", "2024-06-01T12:00:00.1234567890123456789012Z"] {
            XCTAssertNil(FixTime(iso8601: bad), bad)
        }
    }

    func testCalendarRoundTripOverFourCenturies() {
        for day in stride(from: Int64(-146_097), through: 146_097 * 2, by: 17) {
            let (y, m, d) = FixTime.civilFromDays(day)
            XCTAssertEqual(FixTime.daysFromCivil(year: y, month: m, day: d), day)
        }
    }

    func testOrdering() {
        XCTAssertLessThan(FixTime(secondsSinceEpoch: 5, nanoseconds: 999), FixTime(secondsSinceEpoch: 6))
        XCTAssertLessThan(FixTime(secondsSinceEpoch: 5, nanoseconds: 1), FixTime(secondsSinceEpoch: 5, nanoseconds: 2))
    }
}
