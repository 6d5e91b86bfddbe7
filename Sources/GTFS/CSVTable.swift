/// A CSV file whose first record names its columns: columns are found by name (in any order,
/// unknown ones ignored), and every row is checked against the header's length. Errors name the
/// file, the line, the column and the field.
public final class CSVTable {
    public let file: String
    public let header: [String]
    private let reader: CSVReader
    private var columns: [String: Int] = [:]

    /// Reads the header. A file without one (empty) is an error: GTFS files always name their columns.
    public init(source: any ByteSource, file: String) throws(GTFSError) {
        self.file = file
        reader = CSVReader(source: source, file: file)
        guard try reader.next() else { throw GTFSError(file: file, line: 1, message: "empty file: no header line naming the columns") }
        // Producers pad names with spaces now and then; the names themselves never hold any.
        header = reader.fields.map { String($0.unicodeScalars.filter { $0 != " " && $0 != "\t" }) }
        for (i, name) in header.enumerated() where columns[name] == nil { columns[name] = i }
    }

    /// The line of the row `next` last read.
    public var line: Int { reader.line }

    /// The index of column `name`, if the header has it.
    public func column(_ name: String) -> Int? { columns[name] }

    /// The index of a column the file cannot be used without.
    public func require(_ name: String) throws(GTFSError) -> Int {
        guard let i = columns[name] else {
            throw GTFSError(file: file, line: 1, field: name, message: "required column missing (the header has: \(header.joined(separator: ", ")))")
        }
        return i
    }

    /// Reads the next row; false at the end. A row with more or fewer fields than the header is
    /// thrown as a skippable error, and the next call reads on.
    public func next() throws(GTFSError) -> Bool {
        guard try reader.next() else { return false }
        let count = reader.fields.count
        if count < header.count {
            throw GTFSError(file: file, line: reader.line, column: count + 1, field: header[count],
                            message: "short row: \(count) fields where the header names \(header.count)", skippable: true)
        }
        if count > header.count {
            throw GTFSError(file: file, line: reader.line, column: header.count + 1,
                            message: "long row: \(count) fields where the header names \(header.count)", skippable: true)
        }
        return true
    }

    /// The current row's value in `column`; nil when the column is absent or the field empty
    /// (GTFS gives an empty field the meaning of an absent one). Surrounding spaces are dropped.
    public func value(_ column: Int?) -> String? {
        guard let column, column < reader.fields.count else { return nil }
        let text = reader.fields[column]
        if text.isEmpty { return nil }
        guard text.utf8.first == 0x20 || text.utf8.last == 0x20 else { return text }
        let trimmed = text.utf8.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed()
        return trimmed.isEmpty ? nil : String(decoding: Array(trimmed), as: UTF8.self)
    }

    /// The skippable error for a value in the current row, naming its column and field.
    public func problem(_ column: Int, _ message: String) -> GTFSError {
        GTFSError(file: file, line: reader.line, column: column + 1, field: column < header.count ? header[column] : nil,
                  message: message, skippable: true)
    }

    /// A required value: present, else a skippable error naming the field.
    public func required(_ column: Int) throws(GTFSError) -> String {
        guard let text = value(column) else { throw problem(column, "empty, and the field is required") }
        return text
    }
}
