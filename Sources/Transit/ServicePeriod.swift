import GTFS

/// The first and last days a feed runs any service (calendar ranges and added dates), as
/// YYYYMMDD numbers, and how many days of it are left.
public struct ServicePeriod: Equatable, Sendable {
    public let first: Int
    public let last: Int

    public init(first: Int, last: Int) {
        self.first = first
        self.last = last
    }

    /// Days from `today` (days since 1970-01-01) through the last day, today included: 1 on the
    /// last day, 0 or less once the feed has run out.
    public func daysLeft(today: Int) -> Int { CivilDay.day(fromDate: last) - today + 1 }

    /// `service 2019-06-14 to 2019-09-14: 12 days left`, or how long ago it ended.
    public func summary(today: Int) -> String {
        let left = daysLeft(today: today)
        let period = "service \(CivilDay.text(first)) to \(CivilDay.text(last))"
        if left > 0 { return period + ": \(left) day\(left == 1 ? "" : "s") left" }
        let ago = 1 - left
        return period + ": ended \(ago) day\(ago == 1 ? "" : "s") ago"
    }

    /// Today as days since 1970-01-01, by the UTC date (the agency's zone is the daemon's concern).
    public static func today(now: Double) -> Int { Int((now / 86400).rounded(.down)) }
}

extension ServicePeriod {
    /// Days of service left at `instant` (UTC seconds) by the agency's own date there.
    public func daysLeft(at instant: Int64, in zone: TimeZoneRules) -> Int {
        daysLeft(today: CivilDay.day(fromDate: zone.date(at: instant)))
    }

    /// The agency's date at `instant` is after the last day of service (a trip past midnight of
    /// the last day is still that day's; this only warns, the trip is shown all the same).
    public func ended(at instant: Int64, in zone: TimeZoneRules) -> Bool { zone.date(at: instant) > last }

    /// `summary(today:)` with today the agency's date at `instant`.
    public func summary(at instant: Int64, in zone: TimeZoneRules) -> String {
        summary(today: CivilDay.day(fromDate: zone.date(at: instant)))
    }

    /// When the last day of service is over: the origin of the service day after it (local
    /// midnight but on a day whose clocks change), UTC seconds.
    public func endInstant(in zone: TimeZoneRules) -> Int64 {
        zone.serviceDayOrigin(CivilDay.date(fromDay: CivilDay.day(fromDate: last) + 1))
    }

    /// `2019-09-14`.
    public var lastText: String { CivilDay.text(last) }
}
