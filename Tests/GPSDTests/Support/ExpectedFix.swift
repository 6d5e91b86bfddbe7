import Foundation
import XCTest

/// What a gpsd TPV means as a fix, computed from gpsd's own JSON with the rules of the issue
/// (mode 2/3 with lat and lon; eph, else the larger of epx and epy), for comparisons.
struct ExpectedFix: CustomStringConvertible {
    var lat: Double, lon: Double, mode: Int
    var eph: Double?, track: Double?, speed: Double?
    var time: String?, device: String?, status: String

    init?(tpv o: [String: Any]) {
        guard o["class"] as? String == "TPV", let mode = o["mode"] as? Int, mode >= 2,
              let lat = o["lat"] as? Double, let lon = o["lon"] as? Double else { return nil }
        self.lat = lat
        self.lon = lon
        self.mode = mode
        let epx = o["epx"] as? Double, epy = o["epy"] as? Double
        eph = o["eph"] as? Double ?? ((epx != nil || epy != nil) ? max(epx ?? 0, epy ?? 0) : nil)
        track = o["track"] as? Double
        speed = o["speed"] as? Double
        time = o["time"] as? String
        device = o["device"] as? String
        let names = [1: "normal", 2: "dgps", 3: "rtk-fixed", 4: "rtk-float", 5: "dead-reckoning", 6: "gnss-dead-reckoning", 7: "time-only", 8: "simulated"]
        status = (o["status"] as? Int).map { names[$0] ?? "status-\($0)" } ?? "normal"
    }

    /// A line of `pulsedot watch` output, read back with Foundation.
    init?(watchLine o: [String: Any]) {
        guard let lat = o["lat"] as? Double, let lon = o["lon"] as? Double, let mode = o["mode"] as? Int,
              let status = o["status"] as? String else { return nil }
        self.lat = lat
        self.lon = lon
        self.mode = mode
        eph = o["eph"] as? Double
        track = o["track"] as? Double
        speed = o["speed"] as? Double
        time = o["time"] as? String
        device = o["device"] as? String
        self.status = status
    }

    var description: String { "\(lat),\(lon) mode \(mode) eph \(eph.map { "\($0)" } ?? "-") \(time ?? "no time")" }

    /// Equal as the issue asks: lat/lon to 1e-9°, mode, eph; and the rest exactly.
    func matches(_ other: ExpectedFix) -> Bool {
        func same(_ a: Double?, _ b: Double?) -> Bool {
            switch (a, b) {
            case (nil, nil): true
            case let (a?, b?): abs(a - b) <= 1e-9
            default: false
            }
        }
        return abs(lat - other.lat) <= 1e-9 && abs(lon - other.lon) <= 1e-9 && mode == other.mode && same(eph, other.eph)
            && same(track, other.track) && same(speed, other.speed) && time == other.time && device == other.device
            && status == other.status
    }
}

/// Asserts two fix lists are equal element by element, naming the first difference.
func assertSameFixes(_ got: [ExpectedFix], _ expected: [ExpectedFix], _ what: String,
                     file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(got.count, expected.count, "\(what): \(got.count) fixes, gpsd reported \(expected.count)", file: file, line: line)
    for (i, (g, e)) in zip(got, expected).enumerated() where !g.matches(e) {
        XCTFail("\(what): fix \(i) is \(g), gpsd reported \(e)", file: file, line: line)
        return
    }
}
