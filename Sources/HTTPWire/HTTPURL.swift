/// An `http://` or `https://` URL split into what a request needs: where to connect, what to send
/// as Host and as the request target. Credentials in the URL are refused rather than carried: a
/// URL is printed in errors and logs, so a secret belongs in the API key credential instead.
public struct HTTPURL: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var isTLS: Bool
    /// The host as connected to: a name, an IPv4 address, or an IPv6 address without brackets.
    public var host: String
    public var port: UInt16
    /// Path and query, never empty ("/" at least); the fragment is dropped (never sent).
    public var target: String

    public static let maxLength = 4096

    public init(parsing text: String) throws(HTTPWireError) {
        guard text.utf8.count <= Self.maxLength else { throw HTTPWireError(.url, "URL longer than \(Self.maxLength) bytes") }
        for byte in text.utf8 where byte <= 0x20 || byte >= 0x7F {
            throw HTTPWireError(.url, "URL holds a space, a control or a non-ASCII byte (percent-encode it)")
        }
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            isTLS = true
            rest = text.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            isTLS = false
            rest = text.dropFirst(7)
        } else {
            throw HTTPWireError(.url, "URL must start with https:// or http://")
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = rest[authorityEnd...]
        if let hash = path.firstIndex(of: "#") { path = path[..<hash] }
        guard !authority.contains("@") else {
            throw HTTPWireError(.url, "URL carries credentials (user@): give them as the API key credential instead")
        }
        var hostPart = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw HTTPWireError(.url, "URL has an IPv6 address without its ]") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw HTTPWireError(.url, "URL has text after its IPv6 address") }
                portText = after.dropFirst()
            }
            guard hostPart.contains(":") else { throw HTTPWireError(.url, "URL has brackets around what is not an IPv6 address") }
        } else if let colon = authority.firstIndex(of: ":") {
            hostPart = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { throw HTTPWireError(.url, "URL has no host") }
        if !authority.hasPrefix("[") {
            for c in hostPart.utf8 {
                let ok = (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2E || c == 0x5F
                guard ok else { throw HTTPWireError(.url, "URL host has a character a host name cannot have") }
            }
        }
        host = String(hostPart).lowercased()
        if let portText, !portText.isEmpty {
            guard portText.utf8.count <= 5, portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let value = Int(portText), value >= 1, value <= 65535 else {
                throw HTTPWireError(.url, "URL port is not a number from 1 to 65535")
            }
            port = UInt16(value)
        } else {
            port = isTLS ? 443 : 80
        }
        target = path.isEmpty ? "/" : (path.hasPrefix("?") ? "/" + path : String(path))
    }

    /// The default port is left out, as browsers send it.
    public var hostHeader: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return port == (isTLS ? 443 : 80) ? shown : "\(shown):\(port)"
    }

    /// The URL as fetched (normalised: lower-case scheme and host, the default port left out).
    public var description: String { (isTLS ? "https://" : "http://") + hostHeader + target }

    /// Same scheme, host and port: where a redirect may keep the API key.
    public func sameOrigin(_ other: HTTPURL) -> Bool { isTLS == other.isTLS && host == other.host && port == other.port }

    /// A redirect's Location resolved against this URL: absolute, scheme-relative (`//host/p`),
    /// absolute path (`/p`) or relative to this URL's folder (`p`, `../p` kept as the server wrote it).
    public func resolving(_ location: String) throws(HTTPWireError) -> HTTPURL {
        let lower = location.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") { return try HTTPURL(parsing: location) }
        guard !location.isEmpty else { throw HTTPWireError(.protocolViolation, "redirect with an empty Location") }
        if location.hasPrefix("//") { return try HTTPURL(parsing: (isTLS ? "https:" : "http:") + location) }
        let base = (isTLS ? "https://" : "http://") + hostHeader
        if location.hasPrefix("/") { return try HTTPURL(parsing: base + location) }
        if location.hasPrefix("?") {
            let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
            return try HTTPURL(parsing: base + path + location)
        }
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "/"
        let folder = path.lastIndex(of: "/").map { path[...$0] } ?? "/"
        return try HTTPURL(parsing: base + folder + location)
    }
}
