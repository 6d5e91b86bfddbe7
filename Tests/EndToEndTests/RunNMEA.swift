import Foundation
import TestSupport
import XCTest

/// NMEA written by the run tests themselves (valid checksums, one GGA+RMC cycle per second) for a
/// vehicle driving a straight line, and the positions those sentences carry exactly as a reader
/// of ddmm.mmmmm gets them back.
struct DriveNMEA {
    private(set) var lines: [String] = []
    private(set) var fixes: [(lat: Double, lon: Double)] = []
    private var clock = 10 * 3600

    static func sentence(_ body: String) -> String { NMEAWriter.sentence(body) }

    private var time: String { NMEAWriter.time(clock) }

    mutating func fix(lat: Double, lon: Double, knots: Double = 20, course: Double = 60) {
        let (la, latValue) = NMEAWriter.coordinate(lat, width: 2, positive: "N", negative: "S")
        let (lo, lonValue) = NMEAWriter.coordinate(lon, width: 3, positive: "E", negative: "W")
        lines.append(Self.sentence("GPGGA,\(time),\(la),\(lo),1,08,1.0,50.0,M,0.0,M,,"))
        lines.append(Self.sentence("GPRMC,\(time),A,\(la),\(lo),\(String(format: "%.1f,%.1f", knots, course)),150624,,,A"))
        fixes.append((latValue, lonValue))
        clock += 1
    }

    mutating func noFix() {
        lines.append(Self.sentence("GPGGA,\(time),,,,,0,00,99.9,,,,,,"))
        lines.append(Self.sentence("GPRMC,\(time),V,,,,,,,150624,,,N"))
        clock += 1
    }

    /// `count` fixes from (lat, lon), each `step` degrees further north-east: about 11 m apart for 0.0001.
    static func straight(from lat: Double, _ lon: Double, count: Int, step: Double = 0.0001) -> DriveNMEA {
        var drive = DriveNMEA()
        for i in 0..<count { drive.fix(lat: lat + Double(i) * step * 0.6, lon: lon + Double(i) * step) }
        return drive
    }

    var route: Route { Route(points: fixes) }

    func write(to url: URL) throws {
        try (lines.joined(separator: "\r\n") + "\r\n").write(to: url, atomically: true, encoding: .utf8)
    }
}
