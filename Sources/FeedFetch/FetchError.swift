import HTTPWire

/// A fetch that failed: what kind of failure (for the metrics' counters), the URL (never the API
/// key, which travels in a header and is never put in a message) and what went wrong, in one line.
public struct FetchError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Int, CaseIterable, Equatable, Sendable {
        /// The whole fetch took longer than its timeout, or nothing arrived for the no-progress one.
        case timeout
        /// The server answered with a status other than 200 or 304 (after redirects).
        case httpStatus
        /// The TLS handshake failed or the certificate was refused.
        case tls
        /// The body, decoded, grew past the limit (a gzip bomb, an endless chunked body).
        case tooLarge
        /// The host did not resolve, or no address took the connection.
        case connect
        /// The server's bytes are not HTTP/1.1 as it is written, a redirect loop, a cut body.
        case protocolViolation
        /// Nothing went out: the API key credential or the CA file could not be read.
        case setup

        /// The metrics' label.
        public var name: String {
            switch self {
            case .timeout: return "timeout"
            case .httpStatus: return "http_status"
            case .tls: return "tls"
            case .tooLarge: return "too_large"
            case .connect: return "connect"
            case .protocolViolation: return "protocol"
            case .setup: return "setup"
            }
        }
    }

    public let kind: Kind
    /// The URL fetched when it failed (after redirects, the one that failed).
    public let url: String
    public let message: String
    /// For `httpStatus`, the status; 0 otherwise.
    public let status: Int

    public init(_ kind: Kind, url: String, _ message: String, status: Int = 0) {
        self.kind = kind
        self.url = url
        // One line whatever the server or the C library said.
        self.message = String(message.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
        self.status = status
    }

    init(_ error: HTTPWireError, url: String) {
        self.init(error.kind == .tooLarge ? .tooLarge : .protocolViolation, url: url, error.message)
    }

    public var description: String { "\(url): \(message)" }
}
