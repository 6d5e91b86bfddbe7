import HTTPWire

/// How one fetch may go: its time, its size, its redirects, whom it trusts, the key it sends.
public struct FetchOptions: Sendable {
    /// The whole fetch, connect to last byte, redirects included.
    public var timeout: Duration = .seconds(10)
    /// Nothing received for this long (connecting, waiting for the head, inside the body) ends it.
    public var stallTimeout: Duration = .seconds(5)
    /// The decoded body's limit.
    public var maxBytes = 16 << 20
    public var maxRedirects = 5
    /// PEM certificates trusted instead of the system's; nil: /etc/ssl/certs.
    public var caFile: String? = nil
    public var apiKey: APIKey? = nil
    /// An HTTP proxy every fetch tunnels through with CONNECT; nil: straight to the server.
    public var proxy: HTTPURL? = nil
    public var userAgent = "pulsedot"

    public init() {}

    /// With the whole fetch's `timeout`, the no-progress one half of it, at most 5 s.
    public init(timeout: Duration) {
        self.timeout = timeout
        stallTimeout = min(.seconds(5), timeout / 2)
    }
}

/// A header carrying an API key. Its value is never printed, logged or put in an error: the
/// description shows the header's name alone. It is sent only to the configured URL's origin,
/// never to another host a redirect points at.
public struct APIKey: Sendable, CustomStringConvertible {
    public let header: String
    let value: String

    public init(header: String, value: String) {
        self.header = header
        self.value = value
    }

    public var description: String { "\(header): (hidden)" }
}

/// What a 200 said about its body, sent back on the next request so an unchanged feed costs
/// a 304 and no body.
public struct Validators: Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// A fetch that got an answer: the body (or word that it has not changed) and the facts that
/// tell how fresh it is.
public struct FetchedFeed: Sendable {
    public enum Body: Sendable, Equatable {
        case fresh([UInt8])
        /// 304: the body fetched last is still the current one.
        case notModified
    }

    /// The URL that answered (after redirects).
    public var url: String
    public var status: Int
    public var body: Body
    /// Connect to last byte.
    public var duration: Duration
    /// The server's Date field, seconds since the epoch.
    public var serverDate: Int64?
    /// The Age field: seconds a cache held the answer.
    public var age: Int64?
    /// What to send next time: the new ones on a 200, those sent on a 304.
    public var validators: Validators
    /// The body's bytes on the wire (before inflating; chunk framing left out).
    public var wireBytes: Int64
    public var redirects: Int
}
