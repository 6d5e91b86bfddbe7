/// A GET request's bytes. Header values are checked for line breaks here, the one place a value
/// from a file (the API key) or a server (an ETag) reaches the wire, so none can add a header.
public enum HTTPRequest {
    public static func get(_ url: HTTPURL, fields: [(name: String, value: String)]) throws(HTTPWireError) -> [UInt8] {
        var text = "GET \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\n"
        for field in fields {
            // The value is never put in the message: it may be the API key.
            guard !field.value.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
                throw HTTPWireError(.protocolViolation, "the value for request header \(field.name) holds a line break or control character")
            }
            text += "\(field.name): \(field.value)\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }
}
