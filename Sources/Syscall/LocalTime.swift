import Glibc

/// The local time of day for a moment, by the system's time zone rules (TZ, /etc/localtime): what
/// a schedule written as "23:00-05:30" is read in. Daylight-saving changes are the C library's.
public enum LocalTime {
    /// Minutes after local midnight (0 ..< 1440) at `unixSeconds`.
    public static func minuteOfDay(_ unixSeconds: Double) -> Int {
        var t = time_t(unixSeconds.rounded(.down))
        var parts = tm()
        // Read the zone again: an operator who fixes the board's time zone need not restart us.
        tzset()
        // localtime_r fails only for times outside the year range of an Int32 tm_year.
        guard localtime_r(&t, &parts) != nil else { return 0 }
        return Int(parts.tm_hour) * 60 + Int(parts.tm_min)
    }
}
