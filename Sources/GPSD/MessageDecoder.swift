import Location
/// What one line turned into.
public enum DecodeOutcome: Equatable, Sendable {
    case message(GPSDMessage)
    /// Skipped, with the reason it is counted under and a one-line detail for the first warning.
    case skipped(SkipReason, detail: String)
}

/// Turns one line from gpsd into a message, or says why it was skipped. Pure: no state, no I/O.
public enum MessageDecoder {
    public static func decode(_ line: UnsafeRawBufferPointer) -> DecodeOutcome {
        var start = 0
        while start < line.count, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        guard start < line.count else { return .skipped(.notJSON, detail: "empty line") }
        switch line[start] {
        case UInt8(ascii: "{"):
            break
        case UInt8(ascii: "$"), UInt8(ascii: "!"):
            return .skipped(.nmeaSentence, detail: "NMEA sentence \(preview(line))")
        default:
            return .skipped(.notJSON, detail: "not JSON: \(preview(line))")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return .skipped(.malformedJSON, detail: "malformed JSON (\(error)): \(preview(line))")
        }
        return decode(value)
    }

    public static func decode(_ text: String) -> DecodeOutcome {
        var copy = text
        return copy.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }

    public static func decode(_ value: JSONValue) -> DecodeOutcome {
        guard case .object(let members) = value, case .string(let name)? = members["class"] else {
            return .skipped(.missingClass, detail: "JSON without a string \"class\"")
        }
        let fields = Fields(className: name, members: members)
        do throws(Rejection) {
            switch name {
            case "VERSION": return .message(.version(try version(fields)))
            case "DEVICES": return .message(.devices(try devices(fields)))
            case "DEVICE": return .message(.device(try device(fields)))
            case "WATCH": return .message(.watch(try watch(fields)))
            case "TPV": return .message(.tpv(try tpv(fields)))
            case "SKY": return .message(.sky(try sky(fields)))
            case "GST": return .message(.gst(try gst(fields)))
            case "ERROR": return .message(.error(try fields.string("message") ?? "(no message)"))
            default: return .skipped(.unknownClass, detail: "unknown class \(quoted(name))")
            }
        } catch {
            return .skipped(error.reason, detail: error.detail)
        }
    }

    private static func version(_ f: Fields) throws(Rejection) -> VersionReport {
        VersionReport(release: try f.string("release"), revision: try f.string("rev"),
                      protocolMajor: try f.integer("proto_major", 0...1_000_000),
                      protocolMinor: try f.integer("proto_minor", 0...1_000_000))
    }

    private static func devices(_ f: Fields) throws(Rejection) -> [DeviceReport] {
        guard let list = try f.array("devices") else { return [] }
        var result: [DeviceReport] = []
        for (i, entry) in list.enumerated() {
            guard case .object(let members) = entry else {
                throw Rejection(.wrongType, "DEVICES \"devices\"[\(i)] is \(entry.typeName), expected an object")
            }
            result.append(try device(Fields(className: "DEVICES device", members: members)))
        }
        return result
    }

    private static func device(_ f: Fields) throws(Rejection) -> DeviceReport {
        var report = DeviceReport(path: try f.string("path"), driver: try f.string("driver"))
        switch f.members["activated"] {
        case nil, .null?: break
        // gpsd 3.x sends the activation time as text; older releases sent epoch seconds; 0 = closed.
        case .string?: report.activated = true
        case .number(let v)?: report.activated = v != 0
        case let other?: throw f.wrongType("activated", other, expected: "a time or 0")
        }
        return report
    }

    private static func watch(_ f: Fields) throws(Rejection) -> WatchReport {
        WatchReport(enable: try f.bool("enable"), json: try f.bool("json"), device: try f.string("device"))
    }

    private static func tpv(_ f: Fields) throws(Rejection) -> TPVReport {
        var t = TPVReport()
        t.device = try f.string("device")
        if let m = try f.integer("mode", 0...3) { t.mode = FixMode(rawValue: m) }
        if let s = try f.integer("status", 0...1_000) { t.status = FixStatus(rawValue: s) }
        t.time = try f.time("time")
        if let lat = try f.number("lat") {
            guard abs(lat) <= 90 else { throw Rejection(.latitudeOutOfRange, "TPV lat \(lat) is outside -90...90") }
            t.latitude = lat
        }
        if let lon = try f.number("lon") {
            guard abs(lon) <= 180 else { throw Rejection(.longitudeOutOfRange, "TPV lon \(lon) is outside -180...180") }
            t.longitude = lon
        }
        t.altitudeHAE = try f.number("altHAE")
        // `alt` is the deprecated name of altMSL, still sent by gpsd 3.22 and the only one before.
        let deprecatedAltitude = try f.number("alt")
        t.altitudeMSL = try f.number("altMSL") ?? deprecatedAltitude
        t.eph = try f.errorEstimate("eph")
        t.epx = try f.errorEstimate("epx")
        t.epy = try f.errorEstimate("epy")
        t.epv = try f.errorEstimate("epv")
        t.track = try f.number("track")
        t.speed = try f.number("speed")
        t.climb = try f.number("climb")
        return t
    }

    private static func sky(_ f: Fields) throws(Rejection) -> SkyReport {
        var s = SkyReport(device: try f.string("device"), time: try f.time("time"),
                          satellitesSeen: try f.integer("nSat", 0...10_000),
                          satellitesUsed: try f.integer("uSat", 0...10_000), hdop: try f.errorEstimate("hdop"))
        if let satellites = try f.array("satellites") {
            var used = 0
            for (i, entry) in satellites.enumerated() {
                guard case .object(let sat) = entry else {
                    throw Rejection(.wrongType, "SKY \"satellites\"[\(i)] is \(entry.typeName), expected an object")
                }
                switch sat["used"] {
                case .bool(true)?: used += 1
                case .bool(false)?, nil, .null?: break
                case let other?: throw Rejection(.wrongType, "SKY \"satellites\"[\(i)].used is \(other.typeName), expected a boolean")
                }
            }
            // nSat/uSat came with gpsd 3.20; before that, count the list.
            if s.satellitesSeen == nil { s.satellitesSeen = satellites.count }
            if s.satellitesUsed == nil { s.satellitesUsed = used }
        }
        return s
    }

    private static func gst(_ f: Fields) throws(Rejection) -> GSTReport {
        GSTReport(device: try f.string("device"), time: try f.time("time"), rms: try f.errorEstimate("rms"),
                  major: try f.errorEstimate("major"), minor: try f.errorEstimate("minor"),
                  orientation: try f.number("orient"), latitudeError: try f.errorEstimate("lat"),
                  longitudeError: try f.errorEstimate("lon"), altitudeError: try f.errorEstimate("alt"))
    }

    /// The start of a line, printable, for warnings.
    static func preview(_ line: UnsafeRawBufferPointer) -> String {
        var text = ""
        for byte in line.prefix(60) {
            text += byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + hex(byte)
        }
        return line.count > 60 ? text + "... (\(line.count) bytes)" : text
    }

    private static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
    }

    static func quoted(_ s: String) -> String { "\"" + String(s.prefix(40)) + "\"" }
}

struct Rejection: Error {
    let reason: SkipReason
    let detail: String
    init(_ reason: SkipReason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }
}

/// Typed access to one message's members; a wrong type or impossible value rejects the message
/// with the class and key named. null counts as absent.
struct Fields {
    let className: String
    let members: [String: JSONValue]

    func wrongType(_ key: String, _ value: JSONValue, expected: String) -> Rejection {
        Rejection(.wrongType, "\(className) \"\(key)\" is \(value.typeName), expected \(expected)")
    }

    func number(_ key: String) throws(Rejection) -> Double? {
        switch members[key] {
        case nil, .null?: return nil
        case .number(let v)?:
            guard v.isFinite else { throw Rejection(.nonFiniteNumber, "\(className) \"\(key)\" is too large for a number") }
            return v
        case let other?: throw wrongType(key, other, expected: "a number")
        }
    }

    func errorEstimate(_ key: String) throws(Rejection) -> Double? {
        guard let v = try number(key) else { return nil }
        guard v >= 0 else { throw Rejection(.negativeErrorEstimate, "\(className) \"\(key)\" is negative (\(v))") }
        return v
    }

    func integer(_ key: String, _ range: ClosedRange<Int>) throws(Rejection) -> Int? {
        guard let v = try number(key) else { return nil }
        guard v.rounded() == v, v >= Double(range.lowerBound), v <= Double(range.upperBound) else {
            throw Rejection(.invalidValue, "\(className) \"\(key)\" is \(v), expected a whole number in \(range)")
        }
        return Int(v)
    }

    func string(_ key: String) throws(Rejection) -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case let other?: throw wrongType(key, other, expected: "a string")
        }
    }

    func bool(_ key: String) throws(Rejection) -> Bool? {
        switch members[key] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case let other?: throw wrongType(key, other, expected: "a boolean")
        }
    }

    func array(_ key: String) throws(Rejection) -> [JSONValue]? {
        switch members[key] {
        case nil, .null?: return nil
        case .array(let a)?: return a
        case let other?: throw wrongType(key, other, expected: "an array")
        }
    }

    func time(_ key: String) throws(Rejection) -> FixTime? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let s)?:
            guard let t = FixTime(iso8601: s) else {
                throw Rejection(.invalidValue, "\(className) \"\(key)\" \(MessageDecoder.quoted(s)) is not an ISO 8601 UTC time")
            }
            return t
        case .number(let v)?:
            guard let t = FixTime(epochSeconds: v) else {
                throw Rejection(.invalidValue, "\(className) \"\(key)\" \(v) is not a time")
            }
            return t
        case let other?: throw wrongType(key, other, expected: "a time")
        }
    }
}
