import Raster

// The value parsers every settings key is built from. Each returns the parsed value or throws a
// `SettingProblem` saying what is allowed; the table adds key, value, file and line.

/// An interval of allowed numbers, as the table shows it ("0 ≤ value < 11").
struct NumberRange: Sendable {
    var lower: Double?
    var lowerInclusive = true
    var upper: Double?
    var upperInclusive = true

    static func atLeast(_ v: Double) -> NumberRange { NumberRange(lower: v) }
    static func above(_ v: Double) -> NumberRange { NumberRange(lower: v, lowerInclusive: false) }
    static func closed(_ a: Double, _ b: Double) -> NumberRange { NumberRange(lower: a, upper: b) }
    static func halfOpen(_ a: Double, _ b: Double) -> NumberRange { NumberRange(lower: a, upper: b, upperInclusive: false) }
    static let any = NumberRange()

    func contains(_ v: Double) -> Bool {
        if let lower, lowerInclusive ? v < lower : v <= lower { return false }
        if let upper, upperInclusive ? v > upper : v >= upper { return false }
        return true
    }

    var text: String {
        switch (lower, upper) {
        case let (l?, u?): return "\(formatNumber(l)) \(lowerInclusive ? "≤" : "<") value \(upperInclusive ? "≤" : "<") \(formatNumber(u))"
        case let (l?, nil): return "value \(lowerInclusive ? "≥" : ">") \(formatNumber(l))"
        case let (nil, u?): return "value \(upperInclusive ? "≤" : "<") \(formatNumber(u))"
        case (nil, nil): return "any number"
        }
    }
}

/// Numbers as people write them: decimal with an optional sign, fraction and exponent. No hex
/// floats, no `nan`, and `inf` only where a key says so.
func parseNumber(_ text: String, range: NumberRange, unit: String? = nil) throws(SettingProblem) -> Double {
    let allowed = unit.map { "\(range.text), in \($0)" } ?? range.text
    guard isDecimal(text), let v = Double(text), v.isFinite else {
        throw SettingProblem("not a number (allowed: \(allowed))")
    }
    guard range.contains(v) else { throw SettingProblem("out of range (\(allowed))") }
    return v
}

private func isDecimal(_ text: String) -> Bool {
    var digits = 0, i = text.utf8.startIndex
    let u = text.utf8
    if i < u.endIndex, u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") { i = u.index(after: i) }
    var seenDot = false
    while i < u.endIndex {
        let c = u[i]
        if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { digits += 1 }
        else if c == UInt8(ascii: "."), !seenDot { seenDot = true }
        else { break }
        i = u.index(after: i)
    }
    guard digits > 0 else { return false }
    if i < u.endIndex, u[i] == UInt8(ascii: "e") || u[i] == UInt8(ascii: "E") {
        i = u.index(after: i)
        if i < u.endIndex, u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") { i = u.index(after: i) }
        var expDigits = 0
        while i < u.endIndex, u[i] >= UInt8(ascii: "0") && u[i] <= UInt8(ascii: "9") { expDigits += 1; i = u.index(after: i) }
        if expDigits == 0 { return false }
    }
    return i == u.endIndex
}

/// A duration in seconds: a number, optionally followed by `s` ("1.5" or "1.5s").
func parseDuration(_ text: String, range: NumberRange, allowInfinity: Bool = false) throws(SettingProblem) -> Double {
    if allowInfinity && text == "inf" { return .infinity }
    let number = text.hasSuffix("s") ? String(text.dropLast()) : text
    do {
        return try parseNumber(number, range: range, unit: "seconds")
    } catch {
        let allowed = range.text + ", in seconds" + (allowInfinity ? ", or inf" : "")
        throw SettingProblem(error.text.hasPrefix("out of range") ? "out of range (\(allowed))" : "not a duration (allowed: \(allowed))")
    }
}

/// `#RRGGBB` or `#RRGGBBAA` (sRGB, straight alpha).
func parseColor(_ text: String) throws(SettingProblem) -> Color {
    let hex = Array(text.utf8)
    guard hex.first == UInt8(ascii: "#"), hex.count == 7 || hex.count == 9 else {
        throw SettingProblem("not a colour (expected #RRGGBB or #RRGGBBAA)")
    }
    var bytes: [UInt8] = []
    var i = 1
    while i < hex.count {
        guard let hi = hexDigit(hex[i]), let lo = hexDigit(hex[i + 1]) else {
            throw SettingProblem("not a colour (expected #RRGGBB or #RRGGBBAA with hexadecimal digits)")
        }
        bytes.append(hi << 4 | lo)
        i += 2
    }
    return Color(r: bytes[0], g: bytes[1], b: bytes[2], a: bytes.count == 4 ? bytes[3] : 255)
}

private func hexDigit(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
}

package func formatColor(_ c: Color) -> String {
    func hex(_ v: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(v >> 4)], digits[Int(v & 15)]])
    }
    return "#" + hex(c.r) + hex(c.g) + hex(c.b) + (c.a == 255 ? "" : hex(c.a))
}

/// `X,Y` (spaces allowed around either number).
func parsePoint(_ text: String) throws(SettingProblem) -> (x: Double, y: Double) {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { trimmed(String($0)) }
    guard parts.count == 2, isDecimal(parts[0]), isDecimal(parts[1]),
          let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite else {
        throw SettingProblem("not a point (expected X,Y in points, e.g. 0,2)")
    }
    return (x, y)
}

/// One word out of a fixed list.
func parseChoice<T>(_ text: String, _ choices: [(String, T)]) throws(SettingProblem) -> T {
    guard let hit = choices.first(where: { $0.0 == text }) else {
        throw SettingProblem("not one of \(choices.map({ $0.0 }).joined(separator: ", "))")
    }
    return hit.1
}

/// Shortest text that parses back to the same number ("1", "5.3", "inf").
package func formatNumber(_ v: Double) -> String {
    if v == .infinity { return "inf" }
    if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
    return String(v)
}

func trimmed(_ s: String) -> String {
    var sub = Substring(s)
    while let f = sub.first, f == " " || f == "\t" { sub = sub.dropFirst() }
    while let l = sub.last, l == " " || l == "\t" { sub = sub.dropLast() }
    return String(sub)
}
