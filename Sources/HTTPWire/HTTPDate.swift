/// HTTP dates (RFC 9110, 5.6.7): the IMF-fixdate servers send (`Sun, 06 Nov 1994 08:49:37 GMT`)
/// and, as recipients must, the obsolete RFC 850 and asctime forms. Seconds since the epoch, UTC.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    public static func parse(_ text: String) -> Int64? {
        let words = text.split { $0 == " " || $0 == "," || $0 == "-" || $0 == "\t" }.map { $0.lowercased() }
        var day: Int?, month: Int?, year: Int?, clock: (Int, Int, Int)?
        for word in words {
            if word == "gmt" || word == "utc" { continue }
            if let m = months.firstIndex(of: String(word.prefix(3))), word.count == 3 { month = m + 1; continue }
            if weekdays.contains(String(word.prefix(3))) { continue }
            if word.contains(":") {
                let parts = word.split(separator: ":").compactMap { Int($0) }
                guard parts.count == 3, clock == nil else { return nil }
                clock = (parts[0], parts[1], parts[2])
                continue
            }
            guard let n = Int(word), word.utf8.count <= 4 else { return nil }
            if word.utf8.count <= 2, day == nil { day = n } else if year == nil { year = word.utf8.count == 2 ? (n < 70 ? 2000 + n : 1900 + n) : n } else { return nil }
        }
        guard let day, let month, let year, let (h, m, s) = clock,
              (1...31).contains(day), (0...23).contains(h), (0...59).contains(m), (0...60).contains(s) else { return nil }
        return daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day)) * 86400 + Int64(h * 3600 + m * 60 + s)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for `seconds` since the epoch (for If-Modified-Since the
    /// server's own Last-Modified text is sent back as it came; this is for tests and logs).
    public static func format(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rest = seconds - days * 86400
        let (y, mo, d) = civil(fromDays: days)
        let weekday = weekdays[Int(((days % 7) + 7 + 3) % 7)]
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(weekday.prefix(1).uppercased() + weekday.dropFirst()), \(two(d)) \(months[Int(mo) - 1].prefix(1).uppercased() + months[Int(mo) - 1].dropFirst()) \(y) "
            + "\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60)) GMT"
    }

    /// Howard Hinnant's days-from-civil: days since 1970-01-01 in the proleptic Gregorian calendar.
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
