import Foundation
import Syscall
import XCTest
@testable import GPSD

/// From TPV to Fix: which TPVs are positions, which error estimate is used, and the JSON line.
final class FixTests: XCTestCase {
    let arrival = MonotonicInstant(nanoseconds: 123_456_789)

    /// Every subset of TPV's optional fields, decoded from a real line and turned into a Fix,
    /// against the rules stated independently here.
    func testEveryOptionalFieldCombination() throws {
        let fields: [(key: String, json: String)] = [
            ("mode", "3"), ("lat", "52.520008"), ("lon", "13.404954"), ("eph", "4.5"), ("epx", "2.5"),
            ("epy", "3.5"), ("track", "271.25"), ("speed", "12.75"), ("time", "\"2024-06-01T12:00:03.250Z\""),
            ("device", "\"/dev/ttyACM0\""), ("status", "2"),
        ]
        var positions = 0
        for mask in 0..<(1 << fields.count) {
            let present = Dictionary(uniqueKeysWithValues: fields.enumerated().filter { mask & (1 << $0.offset) != 0 }.map { ($0.element.key, $0.element.json) })
            let line = "{\"class\":\"TPV\"" + fields.filter { present[$0.key] != nil }.map { ",\"\($0.key)\":\($0.json)" }.joined() + "}"
            guard case .message(.tpv(let tpv)) = MessageDecoder.decode(line) else { XCTFail(line); continue }
            let fix = Fix(tpv, receivedAt: arrival)
            let isPosition = present["mode"] != nil && present["lat"] != nil && present["lon"] != nil
            XCTAssertEqual(fix != nil, isPosition, line)
            guard let fix else { continue }
            positions += 1
            XCTAssertEqual(fix.latitude, 52.520008)
            XCTAssertEqual(fix.longitude, 13.404954)
            XCTAssertEqual(fix.mode, .threeD)
            let expectedError: Double? = present["eph"] != nil ? 4.5
                : present["epy"] != nil ? 3.5 : present["epx"] != nil ? 2.5 : nil
            XCTAssertEqual(fix.horizontalError, expectedError, line)
            XCTAssertEqual(fix.track, present["track"] != nil ? 271.25 : nil)
            XCTAssertEqual(fix.speed, present["speed"] != nil ? 12.75 : nil)
            XCTAssertEqual(fix.time, present["time"] != nil ? FixTime(secondsSinceEpoch: 1_717_243_203, nanoseconds: 250_000_000) : nil)
            XCTAssertEqual(fix.device, present["device"] != nil ? "/dev/ttyACM0" : nil)
            XCTAssertEqual(fix.status, present["status"] != nil ? .dgps : .normal)
            XCTAssertEqual(fix.receivedAt, arrival)
            // The printed line reads back to the same values, with null for what is absent.
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(fix.jsonLine.utf8)) as? [String: Any])
            XCTAssertEqual(Set(object.keys), ["lat", "lon", "mode", "eph", "track", "speed", "time", "device", "status"])
            XCTAssertEqual(object["lat"] as? Double, fix.latitude)
            XCTAssertEqual(object["eph"] as? Double, expectedError)
            XCTAssertEqual(object["eph"] is NSNull, expectedError == nil)
            XCTAssertEqual(object["time"] as? String, present["time"] != nil ? "2024-06-01T12:00:03.250Z" : nil)
        }
        XCTAssertEqual(positions, 1 << (fields.count - 3))
    }

    func testModesBelow2AreNotPositionsEvenWithCoordinates() {
        for mode in [FixMode.unknown, .noFix] {
            var t = TPVReport()
            t.mode = mode
            t.latitude = 1
            t.longitude = 2
            XCTAssertNil(Fix(t, receivedAt: arrival))
        }
        var twoD = TPVReport()
        twoD.mode = .twoD
        twoD.altitudeMSL = 30
        XCTAssertNil(Fix(twoD, receivedAt: arrival), "a 2D TPV with altitude but no lat/lon carries no position")
    }

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
