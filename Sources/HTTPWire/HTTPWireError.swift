/// Why bytes from an HTTP server, or a URL, were refused: one line, without the URL (the client
/// puts it in front) and without any header value the client sent.
public struct HTTPWireError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// A URL the client cannot fetch (scheme, host, port, characters).
        case url
        /// A status line, a header or the body's framing that HTTP/1.1 does not allow.
        case protocolViolation
        /// A head, a line or a body larger than the limit set for it.
        case tooLarge
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
