/// How a response's body is delimited and encoded, from its status and header fields
/// (RFC 9112, 6.3), decided before a byte of it is read.
public struct BodyFraming: Equatable, Sendable {
    public enum Length: Equatable, Sendable {
        /// No body: 1xx, 204, 304.
        case none
        case chunked
        case exactly(Int64)
        /// Up to the connection's end (no length given).
        case untilClose
    }

    public enum Coding: Equatable, Sendable {
        case identity
        case gzip
    }

    public var length: Length
    public var coding: Coding

    public init(length: Length, coding: Coding) {
        self.length = length
        self.coding = coding
    }

    public init(for head: ResponseHead) throws(HTTPWireError) {
        coding = try Self.coding(head)
        if head.status < 200 || head.status == 204 || head.status == 304 {
            length = .none
            return
        }
        var transfer: [String] = []
        var lengths: [String] = []
        for field in head.fields {
            if field.name == "transfer-encoding" { transfer += Self.list(field.value) }
            if field.name == "content-length" { lengths += Self.list(field.value) }
        }
        if !transfer.isEmpty {
            // Only chunked is asked for or understood; anything else would be read wrongly.
            guard transfer == ["chunked"] else {
                throw HTTPWireError(.protocolViolation, "Transfer-Encoding \(transfer.joined(separator: ", ")) (only chunked is understood)")
            }
            length = .chunked
            return
        }
        guard let first = lengths.first else {
            length = .untilClose
            return
        }
        // Repeated values must agree, or the body's end is ambiguous (a smuggling vector).
        guard lengths.allSatisfy({ $0 == first }), first.utf8.count <= 18,
              first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int64(first) else {
            throw HTTPWireError(.protocolViolation, "Content-Length is not one decimal number: \(lengths.joined(separator: ", ").prefix(40))")
        }
        length = .exactly(n)
    }

    private static func coding(_ head: ResponseHead) throws(HTTPWireError) -> Coding {
        var codings: [String] = []
        for field in head.fields where field.name == "content-encoding" { codings += list(field.value) }
        codings.removeAll { $0 == "identity" }
        if codings.isEmpty { return .identity }
        if codings == ["gzip"] || codings == ["x-gzip"] { return .gzip }
        throw HTTPWireError(.protocolViolation, "Content-Encoding \(codings.joined(separator: ", ").prefix(40)) (only gzip was offered)")
    }

    /// A comma-separated field value's members, lower-cased, blanks and empty members dropped.
    static func list(_ value: String) -> [String] {
        value.split(separator: ",").map { part in
            String(part.filter { $0 != " " && $0 != "\t" }).lowercased()
        }.filter { !$0.isEmpty }
    }
}
