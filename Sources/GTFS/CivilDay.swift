/// Days of the proleptic Gregorian calendar counted from 1970-01-01, for the days a feed has left.
public enum CivilDay {
    public static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// 20190614 → days since 1970-01-01 (H. Hinnant's days_from_civil).
    public static func day(fromDate date: Int) -> Int {
        var y = date / 10000
        let m = date / 100 % 100, d = date % 100
        if m <= 2 { y -= 1 }
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// Days since 1970-01-01 → 20190614.
    public static func date(fromDay day: Int) -> Int {
        let z = day + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0)) * 10000 + m * 100 + d
    }

    /// 20190614 → `2019-06-14`.
    public static func text(_ date: Int) -> String {
        let y = date / 10000, m = date / 100 % 100, d = date % 100
        return "\(y)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)"
    }
}
