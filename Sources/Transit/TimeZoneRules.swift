import GTFS
import Syscall

/// One IANA time zone read from its TZif file (RFC 8536): the UTC offset at any instant, and the
/// instant of a local time. A service day is counted in the agency's zone, which is seldom the
/// board's own, and the C library answers only for the process's zone: `localtime_r` reads the
/// rules `tzset` loaded from TZ, so asking it about another zone means `setenv("TZ")`, which
/// races every `getenv` and `localtime` in the daemon's other threads. Reading the file ourselves
/// gives an immutable value any thread may ask, with no global state touched.
public struct TimeZoneRules: Sendable {
    public let name: String
    /// Instants (UTC seconds) where the offset changes, ascending, and the type from each on.
    let transitions: [Int64]
    let transitionTypes: [UInt8]
    /// Seconds east of UTC of each local time type.
    let offsets: [Int32]
    /// The rule after the last transition (the file's footer), when the file gives one.
    let footer: PosixTimeZone?

    /// Where Debian's tzdata keeps the files.
    public static let systemDirectory = "/usr/share/zoneinfo"

    /// Reads `<directory>/<name>`: `America/Fortaleza`, as agency_timezone gives it.
    public static func load(_ name: String, directory: String = systemDirectory) throws(TransitError) -> TimeZoneRules {
        guard !name.isEmpty, !name.hasPrefix("/"), !containsDotDot(name) else {
            throw .timeZone(name: name, message: "not a zone name like Europe/Berlin")
        }
        let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        let bytes: [UInt8]
        do { bytes = try FileDescriptor.readWholeFile(path, limit: 1 << 20) } catch { throw .timeZone(name: name, message: error.description) }
        return try parse(bytes, name: name, path: path)
    }

    private static func containsDotDot(_ name: String) -> Bool {
        name.split(separator: "/", omittingEmptySubsequences: false).contains { $0.utf8.elementsEqual("..".utf8) }
    }

    /// The TZif bytes of a file; `path` only names it in errors.
    public static func parse(_ bytes: [UInt8], name: String, path: String) throws(TransitError) -> TimeZoneRules {
        func fail(_ message: String) -> TransitError { .timeZone(name: name, message: "\(path): \(message)") }
        var reader = ByteReader(bytes: bytes)
        guard let header = reader.header() else { throw fail("not a TZif file (no 'TZif' header)") }
        // Version 1 files have 32-bit times only; later ones repeat the data with 64-bit times
        // and a footer, which is what is read when present.
        var counts = header.counts
        var wide = false
        if header.version >= 2 {
            guard reader.skip(counts.dataSize(timeBytes: 4)), let second = reader.header() else { throw fail("truncated version 1 data") }
            counts = second.counts
            wide = true
        }
        let timeBytes = wide ? 8 : 4
        guard counts.typecnt > 0, reader.remaining >= counts.dataSize(timeBytes: timeBytes) else {
            throw fail("truncated data (\(counts.timecnt) transitions, \(counts.typecnt) types)")
        }
        var transitions: [Int64] = []
        transitions.reserveCapacity(counts.timecnt)
        for _ in 0..<counts.timecnt { transitions.append(wide ? reader.int64() : Int64(reader.int32())) }
        var types: [UInt8] = []
        for _ in 0..<counts.timecnt {
            let t = reader.byte()
            guard Int(t) < counts.typecnt else { throw fail("a transition names local time type \(t) of \(counts.typecnt)") }
            types.append(t)
        }
        var offsets: [Int32] = []
        for _ in 0..<counts.typecnt {
            offsets.append(reader.int32())
            _ = reader.skip(2)
        }
        _ = reader.skip(counts.charcnt + counts.leapcnt * (timeBytes + 4) + counts.isstdcnt + counts.isutcnt)
        var footer: PosixTimeZone?
        if wide, let text = reader.footer(), !text.isEmpty {
            guard let rule = PosixTimeZone(text) else { throw fail("footer is not a POSIX TZ rule: '\(text)'") }
            footer = rule
        }
        for i in transitions.indices.dropFirst() where transitions[i] <= transitions[i - 1] {
            throw fail("transition times out of order at \(i)")
        }
        return TimeZoneRules(name: name, transitions: transitions, transitionTypes: types, offsets: offsets, footer: footer)
    }

    /// Seconds east of UTC at `instant` (UTC seconds since 1970).
    public func offset(at instant: Int64) -> Int {
        guard let last = transitions.last, instant >= transitions[0] else {
            // Before the first transition (or with none): the first type, unless only the footer knows.
            if transitions.isEmpty, let footer { return footer.offset(at: instant) }
            return Int(offsets[0])
        }
        if instant >= last, let footer { return footer.offset(at: instant) }
        var low = 0, high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= instant { low = middle } else { high = middle - 1 }
        }
        return Int(offsets[Int(transitionTypes[low])])
    }

    /// The instant a local wall-clock time (seconds since 1970 as if the zone were UTC) names.
    /// Offsets a day either side are the only candidates (zones change by hours, not days); in a
    /// repeated hour (autumn) the earlier instant is taken, in a gap (spring) the offset before
    /// the gap, which lands as far after the gap as the time was into it.
    public func instant(local: Int64) -> Int64 {
        let before = Int64(offset(at: local - 86400)), after = Int64(offset(at: local + 86400))
        var best: Int64?
        for o in [before, after] where Int64(offset(at: local - o)) == o {
            best = min(best ?? Int64.max, local - o)
        }
        return best ?? local - before
    }

    /// The local calendar date (YYYYMMDD) at `instant`.
    public func date(at instant: Int64) -> Int {
        let local = instant + Int64(offset(at: instant))
        return CivilDay.date(fromDay: Int(floorDivide(local, 86400)))
    }

    /// GTFS's origin of a service day: "noon minus 12 h" in this zone, so a day whose clocks
    /// change still counts its times from the same instant the timetable does (an hour off
    /// midnight on those two days of the year).
    public func serviceDayOrigin(_ date: Int) -> Int64 {
        let noon = Int64(CivilDay.day(fromDate: date)) * 86400 + 12 * 3600
        return instant(local: noon) - 12 * 3600
    }
}

func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

/// Big-endian fields of a TZif file, read forward; past the end every read gives zero, and the
/// caller checks the sizes before reading.
private struct ByteReader {
    let bytes: [UInt8]
    var position = 0

    struct Counts {
        let isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt: Int

        func dataSize(timeBytes: Int) -> Int {
            timecnt * (timeBytes + 1) + typecnt * 6 + charcnt + leapcnt * (timeBytes + 4) + isstdcnt + isutcnt
        }
    }

    var remaining: Int { bytes.count - position }

    mutating func header() -> (version: Int, counts: Counts)? {
        guard remaining >= 44, bytes[position] == 0x54, bytes[position + 1] == 0x5A,
              bytes[position + 2] == 0x69, bytes[position + 3] == 0x66 else { return nil }
        let v = bytes[position + 4]
        let version = v == 0 ? 1 : Int(v) - 0x30
        position += 20
        var c: [Int] = []
        for _ in 0..<6 { c.append(Int(UInt32(bitPattern: int32()))) }
        return (version, Counts(isutcnt: c[0], isstdcnt: c[1], leapcnt: c[2], timecnt: c[3], typecnt: c[4], charcnt: c[5]))
    }

    mutating func skip(_ n: Int) -> Bool {
        guard n <= remaining else { position = bytes.count; return false }
        position += n
        return true
    }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func int32() -> Int32 {
        var v: UInt32 = 0
        for _ in 0..<4 { v = v << 8 | UInt32(byte()) }
        return Int32(bitPattern: v)
    }

    mutating func int64() -> Int64 {
        var v: UInt64 = 0
        for _ in 0..<8 { v = v << 8 | UInt64(byte()) }
        return Int64(bitPattern: v)
    }

    /// The text between the newlines after the 64-bit data.
    mutating func footer() -> String? {
        guard remaining >= 2, bytes[position] == 0x0A else { return nil }
        let start = position + 1
        guard let end = bytes[start...].firstIndex(of: 0x0A) else { return nil }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
