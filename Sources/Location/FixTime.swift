/// A receiver's UTC time of fix, as gpsd reports it. Used only to order and de-duplicate fixes:
/// it can jump backwards (spliced logs) or decades ahead (gpsd's week-rollover guard), so anything
/// that animates uses the monotonic arrival time instead.
public struct FixTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var secondsSinceEpoch: Int64
    public var nanoseconds: Int32

    public init(secondsSinceEpoch: Int64, nanoseconds: Int32 = 0) {
        self.secondsSinceEpoch = secondsSinceEpoch
        self.nanoseconds = nanoseconds
    }

    /// Reads `2024-06-01T12:00:03.250Z` (ISO 8601 UTC, fraction optional, up to 9 digits kept).
    public init?(iso8601 text: String) {
        let b = Array(text.utf8)
        guard b.count >= 20, b.count <= 40, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              b.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var v: Int64 = 0
            for i in range {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                v = v * 10 + Int64(b[i] - 0x30)
            }
            return v
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year),
              hour < 24, minute < 60, second <= 60 else { return nil }
        var nanos: Int64 = 0
        let fractionEnd = b.count - 1
        if fractionEnd > 19 {
            guard b[19] == UInt8(ascii: "."), fractionEnd > 20 else { return nil }
            var scale: Int64 = 100_000_000
            for i in 20..<fractionEnd {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                nanos += Int64(b[i] - 0x30) * scale
                scale /= 10
            }
        }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        self.init(secondsSinceEpoch: days * 86_400 + hour * 3_600 + minute * 60 + second, nanoseconds: Int32(nanos))
    }

    /// Reads seconds since 1970 as a number: how gpsd before protocol 3.10 sent `time`.
    public init?(epochSeconds: Double) {
        guard epochSeconds.isFinite, abs(epochSeconds) < 1e15 else { return nil }
        let whole = epochSeconds.rounded(.down)
        var nanos = ((epochSeconds - whole) * 1e9).rounded()
        var seconds = Int64(whole)
        if nanos >= 1e9 { nanos -= 1e9; seconds += 1 }
        self.init(secondsSinceEpoch: seconds, nanoseconds: Int32(nanos))
    }

    /// ISO 8601 UTC with milliseconds, or all nine digits when the time is finer than that.
    public var description: String {
        let days = secondsSinceEpoch >= 0 ? secondsSinceEpoch / 86_400 : (secondsSinceEpoch - 86_399) / 86_400
        let secondOfDay = secondsSinceEpoch - days * 86_400
        let (year, month, day) = Self.civilFromDays(days)
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        let fraction = nanoseconds % 1_000_000 == 0
            ? pad(Int64(nanoseconds / 1_000_000), 3) : pad(Int64(nanoseconds), 9)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3_600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(fraction)Z"
    }

    public static func < (a: FixTime, b: FixTime) -> Bool {
        (a.secondsSinceEpoch, a.nanoseconds) < (b.secondsSinceEpoch, b.nanoseconds)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days-from-civil and its inverse: exact for the proleptic Gregorian calendar.
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
