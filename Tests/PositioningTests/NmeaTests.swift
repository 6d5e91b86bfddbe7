@testable import Positioning
import TestSupport
import XCTest

/// A sentence with its checksum, as a receiver would send it.
func nmea(_ body: String) -> String { NMEAWriter.sentence(body) }

final class NmeaTests: XCTestCase {
    func parse(_ lines: [String], path: String = "test.nmea") throws -> ReplayLog {
        try ReplayLog.parse(Array((lines.joined(separator: "\r\n") + "\r\n").utf8), path: path)
    }

    func testRealSentencesPassTheirChecksumAndAChangedCharacterFails() throws {
        let real = "$GPGGA,202640.000,4404.1306,N,12118.8515,W,2,10,0.98,1127.7,M,-19.6,M,0000,0000*6C"
        let s = try NmeaSentence.parse(Substring(real))
        XCTAssertEqual(s.talker, "GP")
        XCTAssertEqual(s.type, "GGA")
        XCTAssertEqual(s.field(1), "4404.1306")
        XCTAssertEqual(s.fields.count, 14)
        XCTAssertThrowsError(try NmeaSentence.parse(Substring(real.replacingOccurrences(of: "4404.1306", with: "4404.1307")))) { e in
            XCTAssertEqual(e as? NmeaSentence.Problem, .badChecksum(written: "6C", computed: "6D"))
        }
        XCTAssertThrowsError(try NmeaSentence.parse("$GPGGA,202640.000,4404.1306,N")) { e in
            XCTAssertEqual(e as? NmeaSentence.Problem, .missingChecksum)
        }
        XCTAssertThrowsError(try NmeaSentence.parse("hello world*00")) { e in
            XCTAssertEqual(e as? NmeaSentence.Problem, .notNMEA)
        }
        XCTAssertEqual(try NmeaSentence.parse(Substring(nmea("PMTK001,320,2"))).type, "PMTK001")
    }

    func testFieldFormats() throws {
        // The values gpsd 3.22 reports for this log's first fix (gpsfake, see gpsd.md).
        XCTAssertEqual(try NmeaField.angle("4404.1306", "N", latitude: true)!, 44.068843333, accuracy: 1e-9)
        XCTAssertEqual(try NmeaField.angle("12118.8515", "W", latitude: false)!, -121.314191667, accuracy: 1e-9)
        XCTAssertEqual(try NmeaField.angle("3340.8472", "S", latitude: true)!, -33.68078667, accuracy: 1e-8)
        XCTAssertNil(try NmeaField.angle("", "", latitude: true))
        XCTAssertThrowsError(try NmeaField.angle("4471.0", "N", latitude: true)) // 71 minutes
        XCTAssertThrowsError(try NmeaField.angle("4404.13", "X", latitude: true))
        XCTAssertThrowsError(try NmeaField.angle("9100.0", "N", latitude: true))
        XCTAssertThrowsError(try NmeaField.number("1e5", "x"))
        XCTAssertThrowsError(try NmeaField.number("nan", "x"))
        XCTAssertEqual(try NmeaField.timeOfDay("235959.50"), 86_399.5)
        XCTAssertEqual(try NmeaField.timeOfDay("000000"), 0)
        XCTAssertThrowsError(try NmeaField.timeOfDay("246000"))
        XCTAssertEqual(try NmeaField.date("250905")!.year, 2005)
        XCTAssertEqual(try NmeaField.date("130415")!.month, 4)
        XCTAssertEqual(try NmeaField.date("010199")!.year, 1999)
        XCTAssertThrowsError(try NmeaField.date("320115"))
    }

    /// One cycle from a real MT3339 recording: what gpsd makes of it, field by field.
    func testACycleBecomesOneFixLikeGpsdsTPV() throws {
        let log = try parse([
            "$GPGGA,202640.000,4404.1306,N,12118.8515,W,2,10,0.98,1127.7,M,-19.6,M,0000,0000*6C",
            "$GPGSA,A,3,20,16,09,03,07,10,23,19,27,30,,,1.64,0.98,1.31*05",
            "$GPRMC,202640.000,A,4404.1306,N,12118.8515,W,0.03,225.97,130415,,,D*73",
            "$GPZDA,202640.000,13,04,2015,,*54",
        ])
        XCTAssertEqual(log.format, .nmea)
        XCTAssertEqual(log.records.count, 1)
        let fix = try XCTUnwrap(log.records[0].fix)
        XCTAssertEqual(fix.latitude, 44.068843333, accuracy: 1e-9)
        XCTAssertEqual(fix.longitude, -121.314191667, accuracy: 1e-9)
        XCTAssertEqual(fix.mode, .threeD)
        XCTAssertEqual(fix.status, .dgps)
        XCTAssertEqual(fix.horizontalError!, 4.655, accuracy: 1e-9) // gpsd's eph for this fix
        XCTAssertEqual(fix.speed!, 0.015, accuracy: 0.0005)           // gpsd: "speed":0.015
        XCTAssertEqual(fix.track!, 225.97, accuracy: 1e-9)
        XCTAssertEqual(fix.time?.description, "2015-04-13T20:26:40.000Z")
        XCTAssertEqual(log.skips.count("unsupported ZDA"), 1)
        XCTAssertEqual(log.records[0].line, 1)
    }

    func testGSTGivesTheErrorUnlessItIsJunk() throws {
        let gst = try parse([
            nmea("GPGGA,150119.000,5104.0859,N,11405.7387,W,1,8,0.94,1102.4,M,-17.5,M,,"),
            nmea("GPGST,150119.000,004.0,008.7,004.7,132.3,006.8,007.2,00014"),
        ])
        // 95 % circle of σ = √((6.8² + 7.2²)/2): 2.4477 × 7.0029.
        XCTAssertEqual(gst.records[0].fix!.horizontalError!, 2.4477 * ((6.8 * 6.8 + 7.2 * 7.2) / 2).squareRoot(), accuracy: 1e-9)
        let junk = try parse([
            nmea("GPGGA,150119.000,5104.0859,N,11405.7387,W,1,8,0.94,1102.4,M,-17.5,M,,"),
            nmea("GPGST,150119.000,228650,228650,228650,0,228650,228650,228650"),
        ])
        XCTAssertEqual(junk.records[0].fix!.horizontalError!, 0.94 * 19, accuracy: 1e-9, "HDOP × gpsd's UERE instead")
        let none = try parse([nmea("GPRMC,150119.000,A,5104.0859,N,11405.7387,W,0.09,194.17,090322,,,A")])
        XCTAssertNil(none.records[0].fix!.horizontalError)
        XCTAssertEqual(none.records[0].fix!.mode, .twoD)
    }

    func testNoFixCyclesAreInstantsWithoutAPosition() throws {
        // A receiver still searching: coordinates present but flagged invalid (GGA quality 0, RMC V).
        let log = try parse([
            nmea("GPRMC,102136.000,V,3340.8472,S,15117.3205,E,0.0,0.0,251112,0.0,W"),
            nmea("GPGGA,102136.000,3340.8472,S,15117.3205,E,0,02,99.0,064.19,M,22.4,M,,"),
            nmea("GPRMC,102137.000,V,3340.8472,S,15117.3205,E,0.0,0.0,251112,0.0,W"),
            nmea("GPGGA,102138.000,3340.8472,S,15117.3205,E,1,05,1.5,064.19,M,22.4,M,,"),
        ])
        XCTAssertEqual(log.records.map { $0.fix == nil }, [true, true, false])
        XCTAssertEqual(log.records.map(\.offset), [0, 1, 2])
        XCTAssertEqual(log.fixCount, 1)
        XCTAssertEqual(log.records[2].fix!.latitude, -33.68078667, accuracy: 1e-8)
    }

    func testBadAndUnknownLinesAreSkippedAndCountedByReason() throws {
        let good = nmea("GPGGA,120000.00,5230.0000,N,01320.0000,E,1,8,1.0,50.0,M,0,M,,")
        var corrupted = good
        corrupted.replaceSubrange(corrupted.range(of: "5230")!, with: "5231")
        let log = try parse([
            "# a comment from the logger",
            good,
            corrupted,
            "$GPGGA,120001.00,5230.0000,N,01320.0000,E,1,8,1.0,50.0,M,0,M,,",
            "garbage that is not NMEA",
            nmea("GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00"),
            nmea("GPGSV,3,2,11,14,25,170,00,16,57,208,39,18,67,296,40,19,40,246,00"),
            nmea("GPGGA,120002.00,52x0.0000,N,01320.0000,E,1,8,1.0,50.0,M,0,M,,"),
            nmea("GPRMC,120003.00,A,5230.0000,Q,01320.0000,E,0.0,0.0,010124,,,A"),
            nmea("GPGGA,120004.00,5230.0060,N,01320.0000,E,1,8,1.0,50.0,M,0,M,,"),
        ])
        XCTAssertEqual(log.skips.count("comment"), 1)
        XCTAssertEqual(log.skips.count("bad checksum"), 1)
        XCTAssertEqual(log.skips.count("missing checksum"), 1)
        XCTAssertEqual(log.skips.count("not NMEA"), 1)
        XCTAssertEqual(log.skips.count("unsupported GSV"), 2)
        XCTAssertEqual(log.skips.count("malformed GGA"), 1)
        XCTAssertEqual(log.skips.count("malformed RMC"), 1)
        XCTAssertEqual(log.skips.total, 8)
        let bad = log.skips.entries.first { $0.reason == "bad checksum" }!
        XCTAssertEqual(bad.firstLine, 3)
        XCTAssertTrue(bad.firstDetail.hasPrefix("*"), bad.firstDetail)
        XCTAssertEqual(log.skips.entries.first { $0.reason == "malformed RMC" }!.firstDetail, "latitude hemisphere \"Q\" is not N or S")
        // The good sentences still make their fixes, and the summary says what was skipped.
        XCTAssertEqual(log.fixCount, 2)
        XCTAssertEqual(log.records.map(\.offset), [0, 4])
        XCTAssertTrue(log.summary.hasPrefix("replay test.nmea: NMEA, 2 fixes over 4 s from 10 lines; skipped 8: 1 comment"), log.summary)
        XCTAssertTrue(log.summary.contains("2 unsupported GSV (first: line 6: GPGSV)"), log.summary)
    }

    func testTimesAcrossMidnightAndBackwards() throws {
        let log = try parse([
            nmea("GPRMC,235958,A,3925.9702,N,11945.9354,W,45.1,153.1,250905,,,A"),
            nmea("GPRMC,000000,A,3925.9479,N,11945.9211,W,44.7,153.6,260905,,,A"),
            nmea("GPRMC,000002,A,3925.9257,N,11945.9068,W,44.6,153.5,260905,,,A"),
            nmea("GPRMC,000001,A,3925.9257,N,11945.9068,W,44.6,153.5,260905,,,A"), // spliced: back 1 s
            nmea("GPRMC,000003,A,3925.9035,N,11945.8925,W,44.6,153.4,260905,,,A"),
        ])
        XCTAssertEqual(log.records.map(\.offset), [0, 2, 4, 4, 6])
        XCTAssertEqual(log.records[1].fix!.time!.description, "2005-09-26T00:00:00.000Z")
        XCTAssertEqual(log.records[0].fix!.speed!, 45.1 * 1852 / 3600, accuracy: 1e-9)
    }

    func testAFileWithoutFixesIsAClearError() {
        XCTAssertThrowsError(try parse([nmea("GPGSV,3,1,11,03,03,111,00"), "junk"], path: "empty.nmea")) { error in
            XCTAssertEqual("\(error)", "empty.nmea: no position fixes in 2 lines of NMEA (skipped 2: 1 unsupported GSV (first: line 1: GPGSV), 1 not NMEA (first: line 2: junk))")
        }
        XCTAssertThrowsError(try ReplayLog.load(path: "/nonexistent/drive.nmea")) { error in
            XCTAssertEqual("\(error)", "replay file: open /nonexistent/drive.nmea: No such file or directory (errno 2)")
        }
    }

    func testGpsdJSONLogs() throws {
        let log = try parse([
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            #"{"class":"TPV","device":"/dev/ttyS0","mode":1}"#,
            #"{"class":"TPV","device":"/dev/ttyS0","mode":2,"time":"2022-03-09T15:01:19.000Z","lat":51.068098333,"lon":-114.095645}"#,
            #"{"class":"TPV","device":"/dev/ttyS0","mode":3,"time":"2022-03-09T15:01:19.000Z","lat":51.068098333,"lon":-114.095645,"eph":4.465,"speed":0.046,"track":194.17}"#,
            #"{"class":"SKY","device":"/dev/ttyS0","hdop":0.94}"#,
            #"{"class":"TPV","device":"/dev/ttyS0","mode":3,"time":"2022-03-09T15:01:20.500Z","lat":51.0681,"lon":-114.0956,"eph":4.5}"#,
            #"{"class":"TPV","mode":3,"lat":"oops"}"#,
            "$GPGGA,not,for,us*00",
        ], path: "drive.json")
        XCTAssertEqual(log.format, .gpsdJSON)
        XCTAssertEqual(log.records.count, 3, "the two TPVs of one instant count once")
        XCTAssertNil(log.records[0].fix)
        XCTAssertEqual(log.records[1].fix?.horizontalError, 4.465, "the more complete TPV of the instant")
        XCTAssertEqual(log.records[1].fix?.mode, .threeD)
        XCTAssertEqual(log.records.map(\.offset), [0, 0, 1.5])
        XCTAssertEqual(log.skips.count("not a TPV"), 2)
        XCTAssertEqual(log.skips.total, 4)
        XCTAssertEqual(log.fixCount, 2)
    }
}
