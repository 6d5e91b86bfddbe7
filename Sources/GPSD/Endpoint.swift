import Syscall

/// Where gpsd listens: `HOST:PORT`, `HOST`, `[IPv6]:PORT` or `[IPv6]`; the port defaults to 2947.
public struct GPSDEndpoint: Equatable, Sendable, CustomStringConvertible {
    public static let defaultPort: UInt16 = 2947
    public static let `default` = GPSDEndpoint(host: "127.0.0.1", port: defaultPort)

    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible, Sendable {
        public let text: String
        public let problem: String
        public var description: String { "gpsd address \"\(text)\": \(problem) (expected HOST:PORT or [IPv6]:PORT)" }
    }

    public init(parsing text: String) throws(ParseError) {
        func fail(_ problem: String) -> ParseError { ParseError(text: text, problem: problem) }
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw fail("missing ']'") }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw fail("expected ':' after ']'") }
                portText = rest.dropFirst()
            }
            guard host.contains(":") else { throw fail("brackets are for IPv6 addresses") }
        } else if text.filter({ $0 == ":" }).count > 1 {
            throw fail("an IPv6 address needs brackets")
        } else if let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = Substring(text)
        }
        guard !host.isEmpty else { throw fail("empty host") }
        guard !host.contains(where: { $0.isWhitespace || $0 == "/" }) else { throw fail("not a host name or address") }
        var port = Self.defaultPort
        if let portText {
            guard let p = UInt16(portText), p > 0 else { throw fail("port must be 1-65535") }
            port = p
        }
        self.init(host: String(host), port: port)
    }

    /// `127.0.0.1:2947`, `[::1]:2947`: the form it was parsed from.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
