/// One problem in a feed, said in one line: the file, the line and column where it is (0 when it
/// is about the whole file or the whole line), the field's name when known, and what is wrong.
/// `skippable`: the problem spoils one row only, and reading can go on after it.
public struct GTFSError: Error, Equatable, CustomStringConvertible, Sendable {
    public let file: String
    public let line: Int
    public let column: Int
    public let field: String?
    public let message: String
    public let skippable: Bool

    public init(file: String, line: Int = 0, column: Int = 0, field: String? = nil, message: String, skippable: Bool = false) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.message = message
        self.skippable = skippable
    }

    /// `stops.txt:12:4 (stop_lat): 'x' is not a number`, in the compiler's order so editors jump to it.
    public var description: String {
        var text = file
        if line > 0 {
            text += ":\(line)"
            if column > 0 { text += ":\(column)" }
        }
        if let field { text += " (\(field))" }
        return Self.oneLine(text + ": " + message)
    }

    /// Control characters shown as escapes: a value quoted from a field, or a zip member's name,
    /// may hold a line break, and a problem is always said in one line.
    public static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = Array("0123456789abcdef")
                out += "\\x" + String(hex[Int(scalar.value >> 4)]) + String(hex[Int(scalar.value & 0xF)])
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
