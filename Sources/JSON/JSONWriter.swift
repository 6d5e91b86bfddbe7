/// Writes one JSON text (RFC 8259) into `output` as it goes, without building a tree first.
///
/// Objects and arrays nest through closures, so every bracket that is opened is closed and the
/// commas come out right; the closure gets the same writer back to go on with. Inside an object
/// only members (`field`, `object(key)`, `array(key)`, `null(key)`) may be written, inside an
/// array or at the top only values: the other way round stops the program, since it is a bug in
/// the caller and the text would not parse.
///
/// Generic over the output rather than fixed to String so a caller that must not allocate per
/// line can write into its own fixed buffer. No existentials, key paths or Foundation: the target
/// has to keep compiling as Embedded Swift.
public struct JSONWriter<Output: TextOutputStream> {
    public private(set) var output: Output
    /// Something was written at this level already, so the next item needs a comma.
    private var needsComma = false
    private var inObject = false

    public init(into output: Output) {
        self.output = output
    }

    // MARK: Values (array elements, or the whole text)

    public mutating func value(_ text: String?) {
        beginValue()
        if let text { writeQuoted(text) } else { output.write("null") }
    }

    public mutating func value<Integer: BinaryInteger>(_ number: Integer?) {
        beginValue()
        output.write(number.map { String($0, radix: 10) } ?? "null")
    }

    /// The shortest text that reads back as the same Double (Swift's `description`, which is
    /// valid JSON: `0.1`, `-0.0`, `1e-05`, `1.5e+300`); NaN and the infinities have no JSON form
    /// and become null.
    public mutating func value(_ number: Double?) {
        beginValue()
        output.write(Self.number(number))
    }

    public mutating func value(_ flag: Bool?) {
        beginValue()
        output.write(flag.map { $0 ? "true" : "false" } ?? "null")
    }

    public mutating func null() {
        beginValue()
        output.write("null")
    }

    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        beginValue()
        nest(open: "{", close: "}", object: true, body)
    }

    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        beginValue()
        nest(open: "[", close: "]", object: false, body)
    }

    // MARK: Members (inside an object)

    /// `"key":"text"`, or `"key":null` for nil.
    public mutating func field(_ key: String, _ text: String?) {
        beginMember(key)
        if let text { writeQuoted(text) } else { output.write("null") }
    }

    public mutating func field<Integer: BinaryInteger>(_ key: String, _ number: Integer?) {
        beginMember(key)
        output.write(number.map { String($0, radix: 10) } ?? "null")
    }

    /// As `value(_: Double?)`: shortest round-trip form, null when nil or not finite.
    public mutating func field(_ key: String, _ number: Double?) {
        beginMember(key)
        output.write(Self.number(number))
    }

    public mutating func field(_ key: String, _ flag: Bool?) {
        beginMember(key)
        output.write(flag.map { $0 ? "true" : "false" } ?? "null")
    }

    public mutating func null(_ key: String) {
        beginMember(key)
        output.write("null")
    }

    public mutating func object(_ key: String, _ body: (inout JSONWriter) -> Void) {
        beginMember(key)
        nest(open: "{", close: "}", object: true, body)
    }

    public mutating func array(_ key: String, _ body: (inout JSONWriter) -> Void) {
        beginMember(key)
        nest(open: "[", close: "]", object: false, body)
    }

    // MARK: Pieces

    /// The text of one JSON number: see `value(_: Double?)`.
    public static func number(_ number: Double?) -> String {
        guard let number, number.isFinite else { return "null" }
        return number.description
    }

    private mutating func beginValue() {
        precondition(!inObject, "JSONWriter: a value inside an object needs a key (use field)")
        if needsComma { output.write(",") }
        needsComma = true
    }

    private mutating func beginMember(_ key: String) {
        precondition(inObject, "JSONWriter: a key outside an object (use value)")
        if needsComma { output.write(",") }
        needsComma = true
        writeQuoted(key)
        output.write(":")
    }

    /// The enclosing level's state lives on the call stack while the body writes the inner one.
    private mutating func nest(open: String, close: String, object: Bool, _ body: (inout JSONWriter) -> Void) {
        let outer = inObject
        output.write(open)
        inObject = object
        needsComma = false
        body(&self)
        output.write(close)
        inObject = outer
        needsComma = true
    }

    /// A string literal: what RFC 8259 requires escaped is, and nothing else. Every byte that
    /// needs it is ASCII, so the scan is over UTF-8 and everything else (DEL, non-ASCII) is
    /// copied in runs as it is.
    private mutating func writeQuoted(_ text: String) {
        output.write("\"")
        let utf8 = text.utf8
        var runStart = utf8.startIndex
        var i = runStart
        while i != utf8.endIndex {
            let byte = utf8[i]
            if let escape = Self.escape(byte) {
                if runStart != i { output.write(String(text[runStart..<i])) }
                output.write(escape)
                runStart = utf8.index(after: i)
            }
            i = utf8.index(after: i)
        }
        if runStart == utf8.startIndex {
            output.write(text)
        } else if runStart != utf8.endIndex {
            output.write(String(text[runStart...]))
        }
        output.write("\"")
    }

    private static func escape(_ byte: UInt8) -> String? {
        switch byte {
        case 0x22: return "\\\""
        case 0x5C: return "\\\\"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x08: return "\\b"
        case 0x0C: return "\\f"
        case ..<0x20: return (byte < 0x10 ? "\\u000" : "\\u001") + String(byte & 0xF, radix: 16)
        default: return nil
        }
    }
}

extension JSONWriter where Output == String {
    /// One object as a String: `JSONWriter.object { w in w.field("lat", 52.5) }`.
    public static func object(_ body: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter(into: "")
        writer.object(body)
        return writer.output
    }

    public static func array(_ body: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter(into: "")
        writer.array(body)
        return writer.output
    }

    /// One string literal, quotes included: for a value spliced into hand-built text.
    public static func quoted(_ text: String) -> String {
        var writer = JSONWriter(into: "")
        writer.value(text)
        return writer.output
    }
}
