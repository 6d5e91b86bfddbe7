import Foundation
import TestSupport

/// NMEA 0183 sentences with correct checksums, written by the tests themselves so the gpsd tests
/// stand alone: a route that moves, fixes that start, degrade and drop out.
struct NMEAFeed {
    private(set) var sentences: [String] = []
    /// Seconds since midnight of `date` (2024-06-01: after gpsd's 1024-week rollover guard).
    private(set) var clock = 12 * 3600
    let date = "010624"

    private var time: String { NMEAWriter.time(clock) }

    static func latitude(_ degrees: Double) -> String {
        NMEAWriter.coordinate(degrees, width: 2, positive: "N", negative: "S").text
    }

    static func longitude(_ degrees: Double) -> String {
        NMEAWriter.coordinate(degrees, width: 3, positive: "E", negative: "W").text
    }

    /// One second without a fix: what receivers send while searching.
    mutating func noFix() {
        sentences.append(NMEAWriter.sentence("GPGGA,\(time),,,,,0,00,99.99,,,,,,"))
        sentences.append(NMEAWriter.sentence("GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99"))
        sentences.append(NMEAWriter.sentence("GPRMC,\(time),V,,,,,,,\(date),,,N"))
        clock += 1
    }

    struct Accuracy {
        var rms: Double, major: Double, minor: Double, orientation: Double
        var latitudeError: Double, longitudeError: Double, altitudeError: Double
    }

    /// One second with a fix. 2D fixes have no altitude; `accuracy` adds a GST sentence.
    mutating func fix(latitude: Double, longitude: Double, threeD: Bool, hdop: Double, knots: Double, course: Double,
                      altitude: Double = 48.5, satellites: Int = 8, accuracy: Accuracy? = nil) {
        let position = Self.latitude(latitude) + "," + Self.longitude(longitude)
        let alt = threeD ? String(format: "%.1f,M,39.6,M", altitude) : ",,,"
        sentences.append(NMEAWriter.sentence("GPGGA,\(time),\(position),1,\(String(format: "%02d", satellites)),\(String(format: "%.1f", hdop)),\(alt),,"))
        let used = (1...satellites).map { String(format: "%02d", $0) } + Array(repeating: "", count: 12 - satellites)
        sentences.append(NMEAWriter.sentence("GPGSA,A,\(threeD ? 3 : 2),\(used.joined(separator: ",")),\(String(format: "%.1f,%.1f,%.1f", hdop * 1.6, hdop, hdop * 1.3))"))
        if let a = accuracy {
            sentences.append(NMEAWriter.sentence("GPGST,\(time)," + String(format: "%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f",
                                                                     a.rms, a.major, a.minor, a.orientation, a.latitudeError, a.longitudeError, a.altitudeError)))
        }
        sentences.append(NMEAWriter.sentence("GPRMC,\(time),A,\(position),\(String(format: "%.2f,%.2f", knots, course)),\(date),,,A"))
        clock += 1
    }

    /// Satellites in view: `seen` of them, the first `used` of them in the fix (GSV lists them all).
    mutating func satellitesInView(_ seen: Int) {
        let pages = (seen + 3) / 4
        for page in 0..<pages {
            var body = "GPGSV,\(pages),\(page + 1),\(String(format: "%02d", seen))"
            for i in (page * 4)..<min(seen, page * 4 + 4) {
                body += String(format: ",%02d,%02d,%03d,%02d", i + 1, 10 + i * 5 % 80, i * 40 % 360, 20 + i % 25)
            }
            sentences.append(NMEAWriter.sentence(body))
        }
    }

    var text: String { sentences.joined(separator: "\r\n") + "\r\n" }

    func write(to directory: URL, name: String = "feed.nmea") throws -> URL {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// The scenario every gpsd comparison uses: searching, a 2D start, 3D on a moving route with GST,
    /// the fix lost in a tunnel, then regained. `leadIn` seconds of searching come first.
    static func journey(leadIn: Int = 20) -> NMEAFeed {
        var feed = NMEAFeed()
        for _ in 0..<leadIn { feed.noFix() }
        // A car heading east-north-east from Berlin's Alexanderplatz at 13.9 m/s (27 knots).
        var lat = 52.521918, lon = 13.413215
        func step() {
            lat += 0.0000625
            lon += 0.000185
        }
        for _ in 0..<4 {
            feed.fix(latitude: lat, longitude: lon, threeD: false, hdop: 4.5, knots: 27, course: 62.5, satellites: 4)
            step()
        }
        for i in 0..<12 {
            feed.satellitesInView(11)
            let accuracy = Accuracy(rms: 1.5 + Double(i) / 10, major: 3.2, minor: 2.1, orientation: 45, latitudeError: 2.5 + Double(i) / 10,
                                    longitudeError: 1.8, altitudeError: 4.4)
            feed.fix(latitude: lat, longitude: lon, threeD: true, hdop: 1.2, knots: 27, course: 62.5, altitude: 40 + Double(i), accuracy: accuracy)
            step()
        }
        for _ in 0..<4 { feed.noFix() }
        for _ in 0..<6 {
            feed.fix(latitude: lat, longitude: lon, threeD: true, hdop: 0.9, knots: 20, course: 75.25, satellites: 9,
                     accuracy: Accuracy(rms: 0.8, major: 1.1, minor: 0.9, orientation: 120, latitudeError: 0.9, longitudeError: 1.0, altitudeError: 1.9))
            step()
        }
        return feed
    }
}
