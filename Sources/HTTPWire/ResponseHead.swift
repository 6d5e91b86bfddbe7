/// A response's status line and header fields, as read off the wire before the body.
public struct ResponseHead: Equatable, Sendable {
    public var status: Int
    public var reason: String
    /// HTTP/1.0 servers end bodies without a length by closing.
    public var minorVersion: Int
    /// Names lower-cased, values with the surrounding blanks taken off, in the order received.
    public var fields: [(name: String, value: String)]

    public static func == (a: ResponseHead, b: ResponseHead) -> Bool {
        a.status == b.status && a.reason == b.reason && a.minorVersion == b.minorVersion
            && a.fields.map({ $0.name }) == b.fields.map({ $0.name }) && a.fields.map({ $0.value }) == b.fields.map({ $0.value })
    }

    public static let maxFields = 128

    /// The first field named `name` (lower-case).
    public func value(_ name: String) -> String? {
        for field in fields where field.name == name { return field.value }
        return nil
    }

    /// Parses a whole head: the status line and the fields, each line ended by CRLF (a bare LF
    /// is taken too, as RFC 9112 lets a recipient), the empty line excluded.
    public init(parsing bytes: UnsafeRawBufferPointer) throws(HTTPWireError) {
        var lines: [UnsafeRawBufferPointer] = []
        var start = 0
        for i in 0..<bytes.count where bytes[i] == 0x0A {
            var end = i
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            lines.append(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = i + 1
        }
        if start < bytes.count { lines.append(UnsafeRawBufferPointer(rebasing: bytes[start...])) }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let first = lines.first else { throw HTTPWireError(.protocolViolation, "empty response head") }
        (minorVersion, status, reason) = try Self.statusLine(first)
        guard lines.count - 1 <= Self.maxFields else {
            throw HTTPWireError(.tooLarge, "more than \(Self.maxFields) header fields")
        }
        fields = []
        for line in lines.dropFirst() { fields.append(try Self.field(line)) }
    }

    private static func statusLine(_ line: UnsafeRawBufferPointer) throws(HTTPWireError) -> (Int, Int, String) {
        let prefix: [UInt8] = Array("HTTP/1.".utf8)
        guard line.count >= 12, line.starts(with: prefix), line[7] == 0x30 || line[7] == 0x31, line[8] == 0x20 else {
            throw HTTPWireError(.protocolViolation, "not an HTTP/1.x status line: \(printable(line, max: 40))")
        }
        var status = 0
        for i in 9..<12 {
            guard line[i] >= 0x30 && line[i] <= 0x39 else {
                throw HTTPWireError(.protocolViolation, "status code is not three digits: \(printable(line, max: 40))")
            }
            status = status * 10 + Int(line[i] - 0x30)
        }
        guard status >= 100 else { throw HTTPWireError(.protocolViolation, "status code \(status) below 100") }
        guard line.count == 12 || line[12] == 0x20 else {
            throw HTTPWireError(.protocolViolation, "status code is not three digits: \(printable(line, max: 40))")
        }
        let reason = line.count > 13 ? printable(UnsafeRawBufferPointer(rebasing: line[13...]), max: 80) : ""
        return (Int(line[7] - 0x30), status, reason)
    }

    private static func field(_ line: UnsafeRawBufferPointer) throws(HTTPWireError) -> (name: String, value: String) {
        guard let first = line.first, first != 0x20, first != 0x09 else {
            throw HTTPWireError(.protocolViolation, "a header line folded onto the one before (obsolete, refused)")
        }
        guard let colon = line.firstIndex(of: 0x3A), colon > 0 else {
            throw HTTPWireError(.protocolViolation, "a header line without a name and colon: \(printable(line, max: 40))")
        }
        var name: [UInt8] = []
        for c in line[..<colon] {
            guard HTTPFieldName.isToken(c) else { throw HTTPWireError(.protocolViolation, "a header name with a character names cannot have: \(printable(line, max: 40))") }
            name.append(c >= 0x41 && c <= 0x5A ? c + 0x20 : c)
        }
        var lo = colon + 1, hi = line.count
        while lo < hi, line[lo] == 0x20 || line[lo] == 0x09 { lo += 1 }
        while hi > lo, line[hi - 1] == 0x20 || line[hi - 1] == 0x09 { hi -= 1 }
        for c in line[lo..<hi] where (c < 0x20 && c != 0x09) || c == 0x7F {
            throw HTTPWireError(.protocolViolation, "header \(String(decoding: name, as: UTF8.self)) holds a control character")
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: UnsafeRawBufferPointer(rebasing: line[lo..<hi]), as: UTF8.self))
    }
}

/// Bytes a server sent, fit for a one-line message: printable ASCII kept, anything else as `?`,
/// cut at `max` characters.
public func printable(_ bytes: UnsafeRawBufferPointer, max: Int) -> String {
    var out = ""
    for (i, c) in bytes.enumerated() {
        if i == max { out += "…"; break }
        out.unicodeScalars.append(Unicode.Scalar(c >= 0x20 && c < 0x7F ? c : 0x3F))
    }
    return out
}
