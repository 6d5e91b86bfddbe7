import Geo
import Location
import Syscall

/// Gathers the sentences a receiver sends for one instant (GGA, RMC, GSA, GST sharing one UTC time)
/// into one fix, as gpsd's TPV would report it. A timed sentence with another time closes the cycle;
/// GSA carries no time and joins the cycle it appears in.
struct NmeaCycle {
    var timeOfDay: Double?
    var date: (year: Int, month: Int, day: Int)?
    var firstLine = 0

    // GGA
    var ggaPosition: GeoPoint?
    var ggaQuality: Int?
    var hdop: Double?
    var hasAltitude = false
    // RMC
    var rmcPosition: GeoPoint?
    var rmcValid: Bool?
    var rmcMode: Substring = ""
    var speed: Double?
    var track: Double?
    // GSA
    var gsaFixType: Int?
    // GST: 1σ errors in metres
    var sigmaLatitude: Double?
    var sigmaLongitude: Double?

    var isEmpty: Bool { firstLine == 0 }

    /// gpsd 3.22's error model for a fix without GST: eph = HDOP × UERE, with a UERE of 19 m, or
    /// 4.75 m with differential corrections (measured: gpsfake on the test logs gives exactly these).
    static let uere = 19.0, uereDifferential = 4.75
    /// σ → radius holding 95 % of a circular 2-D normal error (√(−2 ln 0.05) = 2.4477).
    static let circular95 = 2.4477
    /// GST figures above this (m) are junk, not an error estimate (a receiver was seen sending
    /// an rms of 228 650).
    static let implausibleSigma = 10_000.0

    /// Adds one sentence; throws for a field that is present but wrong.
    mutating func add(_ s: NmeaSentence, line: Int) throws(NmeaFieldError) {
        if firstLine == 0 { firstLine = line }
        switch s.type {
        case "GGA":
            timeOfDay = try NmeaField.timeOfDay(s.field(0)) ?? timeOfDay
            let lat = try NmeaField.angle(s.field(1), s.field(2), latitude: true)
            let lon = try NmeaField.angle(s.field(3), s.field(4), latitude: false)
            let quality = try NmeaField.integer(s.field(5), "GGA fix quality") ?? 0
            ggaQuality = quality
            if quality > 0, let lat, let lon { ggaPosition = GeoPoint(latitude: lat, longitude: lon) }
            hdop = try NmeaField.number(s.field(7), "GGA HDOP") ?? hdop
            if try NmeaField.number(s.field(8), "GGA altitude") != nil { hasAltitude = true }
        case "RMC":
            timeOfDay = try NmeaField.timeOfDay(s.field(0)) ?? timeOfDay
            let valid = s.field(1) == "A"
            rmcValid = valid
            let lat = try NmeaField.angle(s.field(2), s.field(3), latitude: true)
            let lon = try NmeaField.angle(s.field(4), s.field(5), latitude: false)
            if valid, let lat, let lon { rmcPosition = GeoPoint(latitude: lat, longitude: lon) }
            if let knots = try NmeaField.number(s.field(6), "RMC speed") { speed = knots * 1852.0 / 3600.0 }
            track = try NmeaField.number(s.field(7), "RMC course") ?? track
            date = try NmeaField.date(s.field(8)) ?? date
            rmcMode = s.field(11)
        case "GSA":
            gsaFixType = try NmeaField.integer(s.field(1), "GSA fix type") ?? gsaFixType
            let gsaHDOP = try NmeaField.number(s.field(15), "GSA HDOP")
            hdop = hdop ?? gsaHDOP
        case "GST":
            timeOfDay = try NmeaField.timeOfDay(s.field(0)) ?? timeOfDay
            sigmaLatitude = try NmeaField.number(s.field(5), "GST latitude error")
            sigmaLongitude = try NmeaField.number(s.field(6), "GST longitude error")
        default:
            break
        }
    }

    /// The time a sentence carries, to tell whether it starts a new cycle (nil: none, e.g. GSA).
    static func time(of s: NmeaSentence) throws(NmeaFieldError) -> Double? {
        switch s.type {
        case "GGA", "RMC", "GST": return try NmeaField.timeOfDay(s.field(0))
        default: return nil
        }
    }

    /// gpsd's status for the cycle: GGA's quality indicator, else RMC's mode letter.
    var status: FixStatus {
        switch ggaQuality {
        case 2?: return .dgps
        case 4?: return .rtkFixed
        case 5?: return .rtkFloat
        case 6?: return .deadReckoning
        case 8?: return .simulated
        case 1?: return .normal
        default: break
        }
        switch rmcMode {
        case "D": return .dgps
        case "R": return .rtkFixed
        case "F": return .rtkFloat
        case "E": return .deadReckoning
        case "S": return .simulated
        default: return .normal
        }
    }

    /// The fix this cycle amounts to, or nil when it holds no valid position. `receivedAt` is
    /// filled in when the replay plays it.
    func fix(date knownDate: (year: Int, month: Int, day: Int)?) -> Fix? {
        guard let position = ggaPosition ?? rmcPosition else { return nil }
        var mode: FixMode = hasAltitude ? .threeD : .twoD
        if let t = gsaFixType, t == 2 || t == 3 { mode = t == 3 ? .threeD : .twoD }
        let status = self.status
        var error: Double?
        if let a = sigmaLatitude, let b = sigmaLongitude, a >= 0, b >= 0, a < Self.implausibleSigma, b < Self.implausibleSigma {
            error = Self.circular95 * ((a * a + b * b) / 2).squareRoot()
        } else if let hdop, hdop > 0, hdop < 99 {
            let differential = status == .dgps || status == .rtkFixed || status == .rtkFloat
            error = hdop * (differential ? Self.uereDifferential : Self.uere)
        }
        var time: FixTime?
        if let tod = timeOfDay, let d = date ?? knownDate {
            time = Self.fixTime(year: d.year, month: d.month, day: d.day, timeOfDay: tod)
        }
        return Fix(latitude: position.latitude, longitude: position.longitude, mode: mode, horizontalError: error,
                   track: track, speed: speed, time: time, device: nil,
                   status: status, receivedAt: MonotonicInstant(nanoseconds: 0))
    }

    /// Through FixTime's own ISO 8601 reader, so dates are handled in one place.
    static func fixTime(year: Int, month: Int, day: Int, timeOfDay: Double) -> FixTime? {
        let whole = Int(timeOfDay.rounded(.down))
        let millis = min(Int(((timeOfDay - Double(whole)) * 1000).rounded()), 999)
        func pad(_ v: Int, _ n: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(n - s.count, 0)) + s
        }
        let text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(whole / 3600, 2)):\(pad(whole / 60 % 60, 2)):"
            + "\(pad(whole % 60, 2)).\(pad(millis, 3))Z"
        return FixTime(iso8601: text)
    }
}
