import Glibc

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
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(h)
        fields.tm_min = Int32(m)
        fields.tm_sec = Int32(s)
        return Int64(timegm(&fields))
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for `seconds` since the epoch (for If-Modified-Since the
    /// server's own Last-Modified text is sent back as it came; this is for tests and logs).
    public static func format(_ seconds: Int64) -> String {
        var time = time_t(truncatingIfNeeded: seconds)
        var f = tm()
        _ = gmtime_r(&time, &f)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        func capital(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }
        // tm_wday counts from Sunday; the list above from Monday.
        return "\(capital(weekdays[Int((f.tm_wday + 6) % 7)])), \(two(f.tm_mday)) \(capital(months[Int(f.tm_mon)])) \(f.tm_year + 1900) "
            + "\(two(f.tm_hour)):\(two(f.tm_min)):\(two(f.tm_sec)) GMT"
    }
}
