/// One NMEA 0183 sentence whose checksum matched: `$GPGGA,f1,f2,…*HH`. Only what the replay needs;
/// parsing happens once when a replay file is loaded, never per frame.
struct NmeaSentence: Equatable {
    /// "GP", "GN", "GL", … (for proprietary `$P…` sentences the whole address).
    let talker: String
    /// "GGA", "RMC", "GSA", "GST", …
    let type: String
    /// The fields after the address, as text (empty string = empty field).
    let fields: [Substring]

    /// Why a line is not a usable sentence.
    enum Problem: Equatable, Error {
        case notNMEA
        case missingChecksum
        case badChecksum(written: String, computed: String)
    }

    /// Checks and splits one line (without its line ending).
    static func parse(_ line: Substring) throws(Problem) -> NmeaSentence {
        var text = line
        while let last = text.utf8.last, last == 0x0D || last == 0x20 || last == 0x09 { text = text.dropLast() }
        guard let first = text.utf8.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "!"),
              text.utf8.count >= 7 else { throw .notNMEA }
        guard let star = text.utf8.lastIndex(of: UInt8(ascii: "*")) else { throw .missingChecksum }
        let body = text[text.index(after: text.startIndex)..<star]
        let written = text[text.index(after: star)...]
        guard written.utf8.count == 2, let expected = UInt8(written, radix: 16) else {
            throw written.isEmpty ? .missingChecksum : .badChecksum(written: String(written), computed: hex(checksum(body)))
        }
        let computed = checksum(body)
        guard computed == expected else { throw .badChecksum(written: String(written).uppercased(), computed: hex(computed)) }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
        let address = parts[0]
        guard address.utf8.count >= 3, address.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x5A }) else { throw .notNMEA }
        let isProprietary = address.first == "P"
        let type = isProprietary ? String(address) : String(address.suffix(3))
        let talker = isProprietary ? "P" : String(address.dropLast(3))
        return NmeaSentence(talker: talker, type: type, fields: Array(parts.dropFirst()))
    }

    static func checksum(_ body: Substring) -> UInt8 {
        var x: UInt8 = 0
        for b in body.utf8 { x ^= b }
        return x
    }

    static func hex(_ v: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(v >> 4)], digits[Int(v & 15)]])
    }

    /// Field `i` (0-based, after the address); empty when absent.
    func field(_ i: Int) -> Substring { i < fields.count ? fields[i] : "" }
}

/// A field that is present but cannot be what its position says it is.
struct NmeaFieldError: Error, Equatable {
    let detail: String
}

/// Readers for NMEA's field formats. Each returns nil for an empty field and throws for nonsense.
enum NmeaField {
    /// A plain decimal number: digits, one point, an optional sign. No exponents, no "nan".
    static func number(_ f: Substring, _ what: String) throws(NmeaFieldError) -> Double? {
        if f.isEmpty { return nil }
        var digits = 0, points = 0
        for (i, b) in f.utf8.enumerated() {
            switch b {
            case 0x30...0x39: digits += 1
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "-"), UInt8(ascii: "+"): if i != 0 { throw NmeaFieldError(detail: "\(what) \"\(f)\" is not a number") }
            default: throw NmeaFieldError(detail: "\(what) \"\(f)\" is not a number")
            }
        }
        guard digits > 0, points <= 1, let v = Double(String(f)) else {
            throw NmeaFieldError(detail: "\(what) \"\(f)\" is not a number")
        }
        return v
    }

    /// `ddmm.mmmm` + `N`/`S` (latitude) or `dddmm.mmmm` + `E`/`W` (longitude) → signed degrees.
    static func angle(_ f: Substring, _ hemisphere: Substring, latitude: Bool) throws(NmeaFieldError) -> Double? {
        let what = latitude ? "latitude" : "longitude"
        guard let v = try number(f, what) else { return nil }
        guard v >= 0 else { throw NmeaFieldError(detail: "\(what) \"\(f)\" is negative (the hemisphere letter gives the sign)") }
        let degrees = (v / 100).rounded(.down)
        let minutes = v - degrees * 100
        guard minutes < 60 else { throw NmeaFieldError(detail: "\(what) \"\(f)\" has \(minutes) minutes") }
        let value = degrees + minutes / 60
        guard value <= (latitude ? 90 : 180) else { throw NmeaFieldError(detail: "\(what) \"\(f)\" is out of range") }
        switch (latitude, hemisphere) {
        case (true, "N"), (false, "E"): return value
        case (true, "S"), (false, "W"): return -value
        default: throw NmeaFieldError(detail: "\(what) hemisphere \"\(hemisphere)\" is not \(latitude ? "N or S" : "E or W")")
        }
    }

    /// `hhmmss` or `hhmmss.sss` → seconds since midnight UTC.
    static func timeOfDay(_ f: Substring) throws(NmeaFieldError) -> Double? {
        if f.isEmpty { return nil }
        let b = Array(f.utf8)
        guard b.count >= 6, b[0..<6].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw NmeaFieldError(detail: "time \"\(f)\" is not hhmmss")
        }
        func two(_ i: Int) -> Int { Int(b[i] - 0x30) * 10 + Int(b[i + 1] - 0x30) }
        let h = two(0), m = two(2)
        guard let s = try number(f.dropFirst(4), "seconds of time"), h < 24, m < 60, s < 61 else {
            throw NmeaFieldError(detail: "time \"\(f)\" is not a time of day")
        }
        return Double(h * 3600 + m * 60) + s
    }

    /// `ddmmyy` → (year, month, day); two-digit years 80–99 are 19xx, the rest 20xx.
    static func date(_ f: Substring) throws(NmeaFieldError) -> (year: Int, month: Int, day: Int)? {
        if f.isEmpty { return nil }
        let b = Array(f.utf8)
        guard b.count == 6, b.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw NmeaFieldError(detail: "date \"\(f)\" is not ddmmyy")
        }
        func two(_ i: Int) -> Int { Int(b[i] - 0x30) * 10 + Int(b[i + 1] - 0x30) }
        let d = two(0), m = two(2), y = two(4)
        guard (1...31).contains(d), (1...12).contains(m) else { throw NmeaFieldError(detail: "date \"\(f)\" is not a date") }
        return (y >= 80 ? 1900 + y : 2000 + y, m, d)
    }

    /// An integer field (fix quality, fix type).
    static func integer(_ f: Substring, _ what: String) throws(NmeaFieldError) -> Int? {
        if f.isEmpty { return nil }
        guard let v = Int(f) else { throw NmeaFieldError(detail: "\(what) \"\(f)\" is not a whole number") }
        return v
    }
}
