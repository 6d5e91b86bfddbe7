/// RFC 4180 records read from a `ByteSource` through one fixed buffer, so a file of any size costs
/// the buffer and one record. Quoted fields may hold commas, doubled quotes and line breaks; lines
/// end in CRLF, LF or a lone CR; a UTF-8 byte order mark before the first record is dropped; an
/// empty line is no record (feeds often end with one).
///
/// A problem inside one record (a quote in an unquoted field, text after a closing quote, bytes
/// that are not UTF-8) is thrown as a skippable `GTFSError` once the whole record is read, so the
/// next call goes on with the next record. A problem that leaves no next record to find (a quote
/// never closed, a field beyond `maximumFieldBytes`, a source that fails) ends the file: `next`
/// throws it and then returns false.
public final class CSVReader {
    public static let defaultMaximumFieldBytes = 1 << 16
    public static let maximumFields = 1 << 10

    /// The file the errors name.
    public let file: String
    /// The fields of the record `next` last returned.
    public private(set) var fields: [String] = []
    /// The line the record starts on (1 for the first); a quoted line break counts as a line.
    public private(set) var line = 0

    private let source: any ByteSource
    private let maximumFieldBytes: Int
    private let buffer: UnsafeMutableRawBufferPointer
    private var position = 0
    private var end = 0
    private var atEnd = false
    private var started = false
    private var finished = false
    private var nextLine = 1
    private var field: [UInt8] = []

    public init(source: any ByteSource, file: String, bufferSize: Int = 64 << 10,
                maximumFieldBytes: Int = CSVReader.defaultMaximumFieldBytes) {
        self.source = source
        self.file = file
        self.maximumFieldBytes = maximumFieldBytes
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bufferSize, 4), alignment: 1)
        field.reserveCapacity(256)
    }

    deinit { buffer.deallocate() }

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }

    /// Reads the next record into `fields` and `line`; false at the end of the file.
    public func next() throws(GTFSError) -> Bool {
        if finished { return false }
        if !started {
            started = true
            try fill(atLeast: 3)
            if end - position >= 3, buffer[position] == 0xEF, buffer[position + 1] == 0xBB, buffer[position + 2] == 0xBF {
                position += 3
            }
        }
        fields.removeAll(keepingCapacity: true)
        field.removeAll(keepingCapacity: true)
        line = nextLine
        var state = State.fieldStart
        var problem: GTFSError?
        var quoteLine = 0
        var invalidColumn = 0
        while true {
            if position == end {
                try fill(atLeast: 1)
                if position == end { break }
            }
            let byte = buffer[position]
            position += 1
            switch state {
            case .fieldStart, .unquoted:
                switch byte {
                case UInt8(ascii: ","):
                    try emit(&invalidColumn)
                    state = .fieldStart
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    try endLine(byte)
                    if state == .fieldStart && fields.isEmpty {
                        line = nextLine
                        continue
                    }
                    try emit(&invalidColumn)
                    return try finish(problem, invalidColumn)
                case UInt8(ascii: "\""):
                    if state == .fieldStart {
                        state = .quoted
                        quoteLine = nextLine
                    } else {
                        problem = problem ?? rowError(column: fields.count + 1, "a quote inside an unquoted field (quote the whole field and double the quote)")
                        try append(byte)
                    }
                default:
                    state = .unquoted
                    try append(byte)
                }
            case .quoted:
                if byte == UInt8(ascii: "\"") {
                    state = .quoteInQuoted
                } else {
                    if byte == UInt8(ascii: "\n") {
                        nextLine += 1
                    } else if byte == UInt8(ascii: "\r") {
                        let crlf = try peekLineFeed()
                        if !crlf { nextLine += 1 }
                    }
                    try append(byte)
                }
            case .quoteInQuoted:
                switch byte {
                case UInt8(ascii: "\""):
                    try append(byte)
                    state = .quoted
                case UInt8(ascii: ","):
                    try emit(&invalidColumn)
                    state = .fieldStart
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    try endLine(byte)
                    try emit(&invalidColumn)
                    return try finish(problem, invalidColumn)
                default:
                    problem = problem ?? rowError(column: fields.count + 1, "text after the closing quote")
                    state = .unquoted
                    try append(byte)
                }
            }
        }
        // The end of the file.
        switch state {
        case .quoted:
            let opened = GTFSError(file: file, line: quoteLine, column: fields.count + 1,
                                   message: "quoted field never closed: the file ends inside it (an unmatched quote)")
            finished = true
            throw opened
        case .fieldStart where fields.isEmpty:
            finished = true
            return false
        default:
            try emit(&invalidColumn)
            return try finish(problem, invalidColumn)
        }
    }

    private func rowError(column: Int, _ message: String) -> GTFSError {
        GTFSError(file: file, line: line, column: column, message: message, skippable: true)
    }

    private func finish(_ problem: GTFSError?, _ invalidColumn: Int) throws(GTFSError) -> Bool {
        if let problem { throw problem }
        if invalidColumn > 0 { throw rowError(column: invalidColumn, "not UTF-8 text") }
        return true
    }

    private func append(_ byte: UInt8) throws(GTFSError) {
        guard field.count < maximumFieldBytes else {
            finished = true
            throw GTFSError(file: file, line: line, column: fields.count + 1,
                            message: "field longer than \(maximumFieldBytes) bytes (an unmatched quote, or not a CSV file)")
        }
        field.append(byte)
    }

    private func emit(_ invalidColumn: inout Int) throws(GTFSError) {
        guard fields.count < Self.maximumFields else {
            finished = true
            throw GTFSError(file: file, line: line, message: "more than \(Self.maximumFields) fields in one record (not a CSV file?)")
        }
        if let text = String(validating: field, as: UTF8.self) {
            fields.append(text)
        } else {
            if invalidColumn == 0 { invalidColumn = fields.count + 1 }
            fields.append(String(decoding: field, as: UTF8.self))
        }
        field.removeAll(keepingCapacity: true)
    }

    /// After a CR: a following LF belongs to the same line break.
    /// Past a line's end (LF, CR or CRLF: `byte` was its first byte).
    private func endLine(_ byte: UInt8) throws(GTFSError) {
        if byte == UInt8(ascii: "\r"), try peekLineFeed() { position += 1 }
        nextLine += 1
    }

    private func peekLineFeed() throws(GTFSError) -> Bool {
        if position == end { try fill(atLeast: 1) }
        return position < end && buffer[position] == UInt8(ascii: "\n")
    }

    /// Moves what is left to the front and reads until `count` bytes wait or the source ends.
    private func fill(atLeast count: Int) throws(GTFSError) {
        if atEnd || end - position >= count { return }
        if position > 0 {
            let left = end - position
            if left > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + position, byteCount: left) }
            position = 0
            end = left
        }
        while end - position < count && end < buffer.count {
            let n: Int
            do { n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...])) } catch {
                // What the source could not give (a damaged zip member) ends the file here.
                finished = true
                throw error
            }
            if n == 0 {
                atEnd = true
                return
            }
            end += n
        }
    }
}
