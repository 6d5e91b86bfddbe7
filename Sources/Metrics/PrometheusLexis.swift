/// The text format's small rules in one place: which names are legal, how label values and HELP
/// text are escaped, how a value is spelled. Escaping walks Unicode scalars, not Characters: "\r\n"
/// is one Character, and its newline must still be escaped.
enum PrometheusLexis {
    static func isMetricName(_ name: String) -> Bool {
        isName(name, allowingColon: true)
    }

    /// Label names starting with "__" are Prometheus's own.
    static func isLabelName(_ name: String) -> Bool {
        isName(name, allowingColon: false) && !name.hasPrefix("__")
    }

    private static func isName(_ name: String, allowingColon: Bool) -> Bool {
        var first = true
        for byte in name.utf8 {
            let letter = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F
                || (allowingColon && byte == 0x3A)
            let digit = byte >= 0x30 && byte <= 0x39
            if !(letter || (!first && digit)) { return false }
            first = false
        }
        return !first
    }

    static func appendLabelValue(_ value: String, to text: inout String) {
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": text += "\\\\"
            case "\"": text += "\\\""
            case "\n": text += "\\n"
            default: text.unicodeScalars.append(scalar)
            }
        }
    }

    /// HELP text escapes only backslash and newline: a quote there is literal.
    static func appendHelp(_ help: String, to text: inout String) {
        for scalar in help.unicodeScalars {
            switch scalar {
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            default: text.unicodeScalars.append(scalar)
            }
        }
    }

    /// Go's ParseFloat reads what Prometheus writes: integral values without a decimal point (Swift
    /// would say "3.0"), infinities as +Inf and -Inf. Past 2^53 a Double is no longer a count one by
    /// one, so large values keep Swift's shortest round-trip spelling ("1e+20").
    static func float(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value == .infinity { return "+Inf" }
        if value == -.infinity { return "-Inf" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return value.description
    }
}
