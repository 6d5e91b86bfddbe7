/// A GET request's bytes. Header names and values are checked here, the one place a value from a
/// file (the API key and its header's name) or a server (an ETag) reaches the wire, so none can
/// add a header or change how the message is framed.
public enum HTTPRequest {
    public static func get(_ url: HTTPURL, fields: [(name: String, value: String)]) throws(HTTPWireError) -> [UInt8] {
        var text = "GET \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\n"
        for field in fields {
            guard let problem = HTTPFieldName.problem(field.name) else {
                // The value is never put in the message: it may be the API key.
                guard !field.value.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
                    throw HTTPWireError(.protocolViolation, "the value for request header \(field.name) holds a line break or control character")
                }
                text += "\(field.name): \(field.value)\r\n"
                continue
            }
            throw HTTPWireError(.protocolViolation, "request header \(HTTPFieldName.printable(field.name)): \(problem)")
        }
        text += "\r\n"
        return Array(text.utf8)
    }
}

/// A header field's name as RFC 9110 has it: a token (letters, digits and ``!#$%&'*+-.^_`|~``).
public enum HTTPFieldName {
    /// Names a configured header may not take: the request's own framing and target (a second
    /// Host, a Content-Length or Transfer-Encoding a proxy would believe, a Connection that hides
    /// other headers from it).
    public static let reserved = ["host", "content-length", "transfer-encoding", "connection"]

    /// Why `name` cannot be a header's name; nil when it can.
    public static func problem(_ name: String) -> String? {
        if name.isEmpty { return "an empty name" }
        guard name.utf8.allSatisfy(isToken) else { return "not a header name (RFC 9110: letters, digits and !#$%&'*+-.^_`|~ only)" }
        return nil
    }

    /// Why `name` cannot carry a value taken from a configuration (an API key); nil when it can.
    public static func configuredProblem(_ name: String) -> String? {
        if let problem = problem(name) { return problem }
        if reserved.contains(name.lowercased()) { return "\(name) frames or routes the request itself: it cannot carry a key" }
        return nil
    }

    public static func isToken(_ c: UInt8) -> Bool {
        switch c {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
        default: return false
        }
    }

    /// A name fit for a one-line message: control characters escaped.
    public static func printable(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\r": out += "\\r"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\x" + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return "'" + out + "'"
    }
}
