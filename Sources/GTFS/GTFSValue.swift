/// GTFS's value types read from their text: times, dates, colours, numbers. Each returns nil for
/// text that is not one, and the importer says which field and why.
public enum GTFSValue {
    /// `H:MM:SS` or `HH:MM:SS` as seconds past midnight of the service day. Hours may pass 24 (a
    /// trip running past midnight belongs to the day it started).
    public static func time(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, (1...3).contains(parts[0].count), parts[1].count == 2, parts[2].count == 2,
              let h = digits(parts[0]), let m = digits(parts[1]), let s = digits(parts[2]), m < 60, s < 60 else { return nil }
        return h * 3600 + m * 60 + s
    }

    /// `YYYYMMDD` as the number 20190614, checked to be a day of the calendar.
    public static func date(_ text: String) -> Int? {
        guard text.utf8.count == 8, let value = digits(Substring(text)) else { return nil }
        let year = value / 10000, month = value / 100 % 100, day = value % 100
        guard year >= 1900, (1...12).contains(month), (1...CivilDay.days(inMonth: month, year: year)).contains(day) else { return nil }
        return value
    }

    /// `RRGGBB` (no `#`, either case) as 0xRRGGBB.
    public static func color(_ text: String) -> Int? {
        guard text.utf8.count == 6 else { return nil }
        var value = 0
        for byte in text.utf8 {
            let digit: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte) - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte) - 87
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte) - 55
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }

    /// A whole number (a sign allowed), without the `Int` parser's acceptance of `+`.
    public static func integer(_ text: String) -> Int? {
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || (first >= 48 && first <= 57) else { return nil }
        return Int(text)
    }

    /// A finite decimal number.
    public static func number(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    private static func digits(_ text: Substring) -> Int? {
        var value = 0
        for byte in text.utf8 {
            guard byte >= 48 && byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return text.isEmpty ? nil : value
    }
}
