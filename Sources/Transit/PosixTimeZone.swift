import GTFS

/// The POSIX TZ rule at the end of a TZif file (`CET-1CEST,M3.5.0,M10.5.0/3`, `<-03>3`): the
/// offsets for every instant after the file's last transition. Debian's "slim" zone files stop
/// listing transitions as soon as the rule can produce them, so this is not an afterthought.
struct PosixTimeZone: Sendable, Equatable {
    /// Seconds east of UTC (POSIX writes them west, with the sign the other way).
    let standard: Int
    let daylight: Int?
    let start: DateRule?
    let end: DateRule?

    /// A day of the year and the local time of the change on it.
    struct DateRule: Sendable, Equatable {
        enum Day: Sendable, Equatable {
            /// `Jn`: 1...365, February 29 never counted.
            case julian(Int)
            /// `n`: 0...365, February 29 counted.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday d (0 Sunday) of week w (5: the last) of month m.
            case month(Int, week: Int, weekday: Int)
        }

        let day: Day
        /// Seconds after local midnight; RFC 8536 allows -167...167 hours.
        let time: Int

        /// Days since 1970-01-01 of this rule's day in `year`.
        func dayNumber(year: Int) -> Int {
            let january1 = CivilDay.day(fromDate: year * 10000 + 101)
            let leap = CivilDay.days(inMonth: 2, year: year) == 29
            switch day {
            case .julian(let n): return january1 + n - 1 + (leap && n >= 60 ? 1 : 0)
            case .zeroBased(let n): return january1 + n
            case .month(let m, let w, let d):
                let first = CivilDay.day(fromDate: year * 10000 + m * 100 + 1)
                // 1970-01-01 was a Thursday (4).
                let weekdayOfFirst = ((first + 4) % 7 + 7) % 7
                var dayOfMonth = 1 + (d - weekdayOfFirst + 7) % 7 + (w - 1) * 7
                while dayOfMonth > CivilDay.days(inMonth: m, year: year) { dayOfMonth -= 7 }
                return first + dayOfMonth - 1
            }
        }
    }

    init?(_ text: String) {
        var p = Parser(bytes: Array(text.utf8))
        guard p.name(), let std = p.offset() else { return nil }
        standard = -std
        if p.atEnd {
            daylight = nil
            start = nil
            end = nil
            return
        }
        guard p.name() else { return nil }
        var dst = standard + 3600
        if !p.atEnd, p.peek != UInt8(ascii: ",") {
            guard let o = p.offset() else { return nil }
            dst = -o
        }
        daylight = dst
        if p.atEnd {
            // POSIX leaves the default to the implementation; glibc's is the US rule.
            start = DateRule(day: .month(3, week: 2, weekday: 0), time: 7200)
            end = DateRule(day: .month(11, week: 1, weekday: 0), time: 7200)
            return
        }
        guard p.take(UInt8(ascii: ",")), let s = p.rule(), p.take(UInt8(ascii: ",")), let e = p.rule(), p.atEnd else { return nil }
        start = s
        end = e
    }

    func offset(at instant: Int64) -> Int {
        guard let daylight, let start, let end else { return standard }
        let year = CivilDay.date(fromDay: Int(floorDivide(instant + Int64(standard), 86400))) / 10000
        // The start is written in standard time, the end in daylight time.
        let begins = Int64(start.dayNumber(year: year)) * 86400 + Int64(start.time - standard)
        let ends = Int64(end.dayNumber(year: year)) * 86400 + Int64(end.time - daylight)
        let inDaylight = begins < ends ? (instant >= begins && instant < ends) : !(instant >= ends && instant < begins)
        return inDaylight ? daylight : standard
    }

    private struct Parser {
        let bytes: [UInt8]
        var i = 0

        var atEnd: Bool { i >= bytes.count }
        var peek: UInt8 { bytes[i] }

        mutating func take(_ b: UInt8) -> Bool {
            guard !atEnd, bytes[i] == b else { return false }
            i += 1
            return true
        }

        /// `CET` (three or more letters) or `<-03>`.
        mutating func name() -> Bool {
            if take(UInt8(ascii: "<")) {
                let from = i
                while !atEnd, bytes[i] != UInt8(ascii: ">") { i += 1 }
                return i - from >= 3 && take(UInt8(ascii: ">"))
            }
            let from = i
            while !atEnd, (bytes[i] | 0x20) >= UInt8(ascii: "a"), (bytes[i] | 0x20) <= UInt8(ascii: "z") { i += 1 }
            return i - from >= 3
        }

        mutating func number() -> Int? {
            let from = i
            var v = 0
            while !atEnd, bytes[i] >= 48, bytes[i] <= 57 {
                v = v * 10 + Int(bytes[i] - 48)
                i += 1
            }
            return i > from ? v : nil
        }

        /// `[+-]hh[:mm[:ss]]` in seconds.
        mutating func offset() -> Int? {
            var sign = 1
            if take(UInt8(ascii: "-")) { sign = -1 } else { _ = take(UInt8(ascii: "+")) }
            guard let h = number(), h <= 167 else { return nil }
            var seconds = h * 3600
            if take(UInt8(ascii: ":")) {
                guard let m = number(), m < 60 else { return nil }
                seconds += m * 60
                if take(UInt8(ascii: ":")) {
                    guard let s = number(), s < 60 else { return nil }
                    seconds += s
                }
            }
            return sign * seconds
        }

        mutating func rule() -> DateRule? {
            let day: DateRule.Day
            if take(UInt8(ascii: "J")) {
                guard let n = number(), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else if take(UInt8(ascii: "M")) {
                guard let m = number(), (1...12).contains(m), take(UInt8(ascii: ".")), let w = number(), (1...5).contains(w),
                      take(UInt8(ascii: ".")), let d = number(), d <= 6 else { return nil }
                day = .month(m, week: w, weekday: d)
            } else {
                guard let n = number(), n <= 365 else { return nil }
                day = .zeroBased(n)
            }
            var time = 7200
            if take(UInt8(ascii: "/")) {
                guard let t = offset() else { return nil }
                time = t
            }
            return DateRule(day: day, time: time)
        }
    }
}
