import Foundation
import Location
import Syscall
import XCTest
@testable import GPSD

/// From TPV to Fix: which TPVs are positions, which error estimate is used, and the JSON line.
final class FixFromTPVTests: XCTestCase {
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
}
