import Location
import XCTest
@testable import GPSD

/// Every class gpsd 3.22 sends that the client reads, and every way a line is skipped.
final class MessageDecoderTests: XCTestCase {
    func message(_ line: String, file: StaticString = #filePath, line number: UInt = #line) -> GPSDMessage? {
        switch MessageDecoder.decode(line) {
        case .message(let m): return m
        case .skipped(let reason, let detail):
            XCTFail("skipped (\(reason)): \(detail)", file: file, line: number)
            return nil
        }
    }

    func skipReason(_ line: String) -> SkipReason? {
        if case .skipped(let reason, _) = MessageDecoder.decode(line) { return reason }
        return nil
    }

    func testVersion() {
        XCTAssertEqual(message(GPSDSamples.version),
                       .version(VersionReport(release: "3.22", revision: "3.22", protocolMajor: 3, protocolMinor: 14)))
    }

    func testDevicesAndDevice() {
        XCTAssertEqual(message(GPSDSamples.devices), .devices([DeviceReport(path: "/dev/pts/2", driver: nil, activated: true)]))
        XCTAssertEqual(message(GPSDSamples.noDevices), .devices([]))
        XCTAssertEqual(message(#"{"class":"DEVICES"}"#), .devices([]))
        XCTAssertEqual(message(GPSDSamples.deviceActivated), .device(DeviceReport(path: "/dev/pts/2", driver: "NMEA0183", activated: true)))
        XCTAssertEqual(message(GPSDSamples.deviceGone), .device(DeviceReport(path: "/dev/pts/2", activated: false)))
        XCTAssertEqual(message(#"{"class":"DEVICE","path":"/dev/x","activated":1234567890.5}"#),
                       .device(DeviceReport(path: "/dev/x", activated: true)), "older gpsd sent epoch seconds")
        XCTAssertEqual(message(#"{"class":"DEVICE","path":"/dev/x"}"#), .device(DeviceReport(path: "/dev/x")))
        XCTAssertEqual(skipReason(#"{"class":"DEVICE","activated":true}"#), .wrongType)
        XCTAssertEqual(skipReason(#"{"class":"DEVICES","devices":{}}"#), .wrongType)
        XCTAssertEqual(skipReason(#"{"class":"DEVICES","devices":["/dev/x"]}"#), .wrongType)
    }

    func testWatchAndError() {
        XCTAssertEqual(message(GPSDSamples.watch), .watch(WatchReport(enable: true, json: true, device: nil)))
        XCTAssertEqual(message(GPSDSamples.error), .error("No such device as /dev/nonexist"))
        XCTAssertEqual(message(#"{"class":"ERROR"}"#), .error("(no message)"))
        XCTAssertEqual(skipReason(#"{"class":"WATCH","enable":"yes"}"#), .wrongType)
    }

    func testTPVWithEveryFieldGpsdSends() {
        var t = TPVReport()
        t.device = "/dev/pts/2"
        t.mode = .threeD
        t.status = .dgps
        t.time = FixTime(iso8601: "2034-11-27T20:26:43.000Z")
        t.latitude = 44.068841667
        t.longitude = -121.314191667
        t.altitudeHAE = 1108.1
        t.altitudeMSL = 1127.7
        t.eph = 4.655
        t.epx = 1.919
        t.epy = 2.470
        t.epv = 5.923
        t.track = 171.47
        t.speed = 0.010
        t.climb = 0
        XCTAssertEqual(message(GPSDSamples.tpv3D), .tpv(t))
        XCTAssertEqual(message(GPSDSamples.tpvNoFix), .tpv({ var n = TPVReport(); n.device = "/dev/pts/2"; n.mode = .noFix; return n }()))
        XCTAssertEqual(message(#"{"class":"TPV"}"#), .tpv(TPVReport()), "every field is optional")
        XCTAssertEqual(message(#"{"class":"TPV","alt":12.5}"#), .tpv({ var n = TPVReport(); n.altitudeMSL = 12.5; return n }()),
                       "the deprecated alt stands in for altMSL")
    }

    func testSkyCountsFromNSatOrFromTheList() {
        XCTAssertEqual(message(GPSDSamples.sky), .sky(SkyReport(device: "/dev/pts/2", satellitesSeen: 3, satellitesUsed: 2, hdop: 0.84)))
        guard case .sky(let big)? = message(GPSDSamples.skyLine(satellites: 95)) else { return XCTFail() }
        XCTAssertEqual(big.satellitesSeen, 95)
        XCTAssertEqual(big.satellitesUsed, 48)
        XCTAssertEqual(big.time, FixTime(iso8601: "2024-06-01T12:00:04.000Z"))
        XCTAssertEqual(message(#"{"class":"SKY","hdop":1.1}"#), .sky(SkyReport(hdop: 1.1)))
        XCTAssertEqual(skipReason(#"{"class":"SKY","satellites":[1,2]}"#), .wrongType)
        XCTAssertEqual(skipReason(#"{"class":"SKY","satellites":[{"used":"yes"}]}"#), .wrongType)
        XCTAssertEqual(skipReason(#"{"class":"SKY","uSat":2.5}"#), .invalidValue)
    }

    func testGSTIncludingJunkValuesReceiversSend() {
        XCTAssertEqual(message(GPSDSamples.gst), .gst(GSTReport(
            device: "/dev/pts/2", time: FixTime(iso8601: "2024-06-01T12:00:04.000Z"), rms: 1.5, major: 3, minor: 2,
            orientation: 45, latitudeError: 2.5, longitudeError: 1.8, altitudeError: 4)))
        // Seen from a real receiver: rms 228650 and no time. Odd but finite: kept.
        XCTAssertEqual(message(#"{"class":"GST","device":"/dev/ttyUSB0","rms":228650.000}"#),
                       .gst(GSTReport(device: "/dev/ttyUSB0", rms: 228650)))
        XCTAssertEqual(skipReason(#"{"class":"GST","lat":-1.0}"#), .negativeErrorEstimate)
    }

    func testUnknownClassesAndNonJSONLinesAreSkippedWithReasons() {
        XCTAssertEqual(skipReason(GPSDSamples.att), .unknownClass)
        XCTAssertEqual(skipReason(#"{"class":"TOFF","device":"/dev/pps0"}"#), .unknownClass)
        XCTAssertEqual(skipReason(GPSDSamples.nmeaLine), .nmeaSentence)
        XCTAssertEqual(skipReason("!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26"), .nmeaSentence)
        XCTAssertEqual(skipReason("hello"), .notJSON)
        XCTAssertEqual(skipReason(""), .notJSON)
        XCTAssertEqual(skipReason("   "), .notJSON)
        XCTAssertEqual(skipReason("[1,2]"), .notJSON)
        XCTAssertEqual(skipReason("{\"class\":\"TPV\""), .malformedJSON)
        XCTAssertEqual(skipReason(#"{"class":"TPV","lat":NaN}"#), .malformedJSON)
        XCTAssertEqual(skipReason(#"{"mode":3}"#), .missingClass)
        XCTAssertEqual(skipReason(#"{"class":3}"#), .missingClass)
        XCTAssertEqual(skipReason(#"  {"class":"WATCH"}"#), nil, "leading blanks are fine")
    }

    func testBinaryGarbageIsNotJSONAndItsPreviewIsPrintable() {
        let bytes: [UInt8] = [0x00, 0xFF, 0x1B, 0x5B, 0x32, 0x4A, 0x7B]
        let outcome = bytes.withUnsafeBytes { MessageDecoder.decode($0) }
        guard case .skipped(.notJSON, let detail) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(detail, "not JSON: \\x00\\xff\\x1b[2J{")
        let brace: [UInt8] = [0x7B, 0xFF, 0x00]
        XCTAssertEqual(brace.withUnsafeBytes { MessageDecoder.decode($0) }.reason, .malformedJSON)
    }

    func testWrongJSONTypesInEveryFieldTheClientReads() {
        let numberFields = ["lat", "lon", "eph", "epx", "epy", "epv", "track", "speed", "climb", "altHAE", "altMSL", "alt", "mode", "status"]
        for key in numberFields {
            for wrong in ["\"1\"", "true", "[1]", "{\"v\":1}"] {
                let line = #"{"class":"TPV","mode":2,"lat":1,"lon":2,"\#(key)":\#(wrong)}"#
                guard case .skipped(let reason, let detail) = MessageDecoder.decode(line) else { XCTFail(line); continue }
                XCTAssertEqual(reason, .wrongType, line)
                XCTAssertTrue(detail.contains("TPV \"\(key)\""), detail)
            }
        }
        XCTAssertEqual(skipReason(#"{"class":"TPV","device":42}"#), .wrongType)
        XCTAssertEqual(skipReason(#"{"class":"TPV","time":true}"#), .wrongType)
        XCTAssertEqual(skipReason(#"{"class":"VERSION","release":3.22}"#), .wrongType)
        XCTAssertEqual(message(#"{"class":"TPV","lat":null,"mode":null}"#), .tpv(TPVReport()), "null reads as absent")
    }

    func testHugeNumbersNaNAndRanges() {
        XCTAssertEqual(skipReason(#"{"class":"TPV","mode":3,"lat":1e400,"lon":1}"#), .nonFiniteNumber)
        XCTAssertEqual(skipReason(#"{"class":"TPV","mode":3,"lat":1,"lon":-1e999}"#), .nonFiniteNumber)
        XCTAssertEqual(skipReason(#"{"class":"TPV","speed":1e309}"#), .nonFiniteNumber)
        XCTAssertEqual(skipReason(#"{"class":"TPV","mode":3,"lat":1e300,"lon":1}"#), .latitudeOutOfRange)
        XCTAssertEqual(skipReason(#"{"class":"TPV","mode":3,"lat":90.0000001,"lon":1}"#), .latitudeOutOfRange)
        XCTAssertEqual(skipReason(#"{"class":"TPV","mode":3,"lat":-90.5,"lon":1}"#), .latitudeOutOfRange)
        XCTAssertEqual(skipReason(#"{"class":"TPV","mode":3,"lat":1,"lon":180.5}"#), .longitudeOutOfRange)
        XCTAssertEqual(skipReason(#"{"class":"TPV","mode":3,"lat":1,"lon":-1e300}"#), .longitudeOutOfRange)
        XCTAssertNil(skipReason(#"{"class":"TPV","mode":3,"lat":90,"lon":-180}"#), "the limits themselves are valid")
        XCTAssertEqual(skipReason(#"{"class":"TPV","mode":99999999999999999999}"#), .invalidValue)
        XCTAssertEqual(skipReason(#"{"class":"TPV","mode":4}"#), .invalidValue)
        XCTAssertEqual(skipReason(#"{"class":"TPV","mode":2.5}"#), .invalidValue)
        XCTAssertEqual(skipReason(#"{"class":"TPV","mode":-1}"#), .invalidValue)
        XCTAssertEqual(skipReason(#"{"class":"TPV","status":1e30}"#), .invalidValue)
        for key in ["eph", "epx", "epy", "epv"] {
            XCTAssertEqual(skipReason(#"{"class":"TPV","mode":3,"lat":1,"lon":1,"\#(key)":-0.1}"#), .negativeErrorEstimate, key)
        }
        XCTAssertEqual(message(#"{"class":"TPV","status":42}"#), .tpv({ var t = TPVReport(); t.status = FixStatus(rawValue: 42); return t }()),
                       "a status code from a newer gpsd is kept")
    }

    func testTimeFormats() {
        XCTAssertEqual(skipReason(#"{"class":"TPV","time":"yesterday"}"#), .invalidValue)
        XCTAssertEqual(skipReason(#"{"class":"TPV","time":"2024-13-01T00:00:00Z"}"#), .invalidValue)
        XCTAssertEqual(skipReason(#"{"class":"TPV","time":1e300}"#), .invalidValue)
        guard case .tpv(let t)? = message(#"{"class":"TPV","time":1717243203.25}"#) else { return XCTFail() }
        XCTAssertEqual(t.time, FixTime(secondsSinceEpoch: 1_717_243_203, nanoseconds: 250_000_000))
    }
}

extension DecodeOutcome {
    var reason: SkipReason? {
        if case .skipped(let r, _) = self { return r }
        return nil
    }
}
