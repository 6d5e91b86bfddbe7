import HTTPWire
import Syscall

/// Fetches one URL over HTTP/1.1, a new connection each time (a feed every 15 s gains nothing from
/// keeping one open, and a half-dead kept connection is one more failure to handle).
public enum FeedClient {
    public static func fetch(_ url: HTTPURL, options: FetchOptions, validators: Validators = Validators()) throws(FetchError) -> FetchedFeed {
        var deadline = Deadline(whole: options.timeout, stall: options.stallTimeout)
        var context: TLSContext?
        var current = url
        var chain = [url.description]
        while true {
            if current.isTLS, context == nil { context = try TLSContext(caFile: options.caFile, url: current.description) }
            let connection = try Connection.open(current, context: context, proxy: options.proxy, deadline: &deadline)
            try connection.write(request(current, origin: url, options: options, validators: validators), deadline: &deadline)
            var reader = ResponseReader(connection: connection)
            let head = try reader.head(deadline: &deadline)
            switch head.status {
            case 301, 302, 303, 307, 308:
                guard let location = head.value("location") else {
                    throw FetchError(.protocolViolation, url: connection.url, "redirect \(head.status) without a Location")
                }
                let next: HTTPURL
                do { next = try current.resolving(location) } catch { throw FetchError(.protocolViolation, url: connection.url, "redirect to a URL that cannot be fetched: \(error.message)") }
                if chain.contains(next.description) {
                    throw FetchError(.protocolViolation, url: url.description, "redirect loop: \((chain + [next.description]).joined(separator: " -> "))")
                }
                guard chain.count <= options.maxRedirects else {
                    throw FetchError(.protocolViolation, url: url.description, "more than \(options.maxRedirects) redirects (last to \(next.description))")
                }
                chain.append(next.description)
                current = next
            case 304:
                return feed(head, body: .notModified, wire: 0, url: current, deadline: deadline, validators: validators, redirects: chain.count - 1)
            case 200:
                let sink = try reader.body(head, limit: options.maxBytes, deadline: &deadline)
                let fresh = Validators(etag: head.value("etag"), lastModified: head.value("last-modified"))
                return feed(head, body: .fresh(sink.bytes), wire: sink.received, url: current, deadline: deadline, validators: fresh, redirects: chain.count - 1)
            default:
                let reason = head.reason.isEmpty ? "" : " " + head.reason
                throw FetchError(.httpStatus, url: current.description, "HTTP \(head.status)\(reason)", status: head.status)
            }
        }
    }

    private static func request(_ url: HTTPURL, origin: HTTPURL, options: FetchOptions, validators: Validators) throws(FetchError) -> [UInt8] {
        var fields: [(name: String, value: String)] = [
            ("User-Agent", options.userAgent),
            ("Accept", "application/x-protobuf, application/octet-stream;q=0.9, */*;q=0.1"),
            ("Accept-Encoding", "gzip"),
            ("Connection", "close"),
        ]
        if let etag = validators.etag { fields.append(("If-None-Match", etag)) }
        if let date = validators.lastModified { fields.append(("If-Modified-Since", date)) }
        // The key goes only where it was configured to go, never to another host a redirect names.
        if let key = options.apiKey, url.sameOrigin(origin) { fields.append((key.header, key.value)) }
        do { return try HTTPRequest.get(url, fields: fields) } catch { throw FetchError(.setup, url: url.description, error.message) }
    }

    private static func feed(_ head: ResponseHead, body: FetchedFeed.Body, wire: Int64, url: HTTPURL, deadline: Deadline,
                             validators: Validators, redirects: Int) -> FetchedFeed {
        let age = head.value("age").flatMap { $0.utf8.count <= 12 ? Int64($0) : nil }
        return FetchedFeed(url: url.description, status: head.status, body: body, duration: deadline.started.duration(to: .now()),
                           serverDate: head.value("date").flatMap { HTTPDate.parse($0) }, age: age,
                           validators: validators, wireBytes: wire, redirects: redirects)
    }
}

/// Reads one response off a connection: the head (interim 1xx ones passed over), then the body
/// as its framing says, the bytes after the head first.
struct ResponseReader {
    let connection: Connection
    private var buffer = [UInt8](repeating: 0, count: 16 << 10)
    private var leftover = 0..<0

    init(connection: Connection) { self.connection = connection }

    mutating func head(deadline: inout Deadline) throws(FetchError) -> ResponseHead {
        var reader = HeadReader()
        var total = 0
        while true {
            let n = try readSome(deadline: &deadline, doing: total == 0 ? "waiting for the response" : "reading the response head")
            guard n > 0 else {
                throw FetchError(.protocolViolation, url: connection.url,
                                 total == 0 ? "the server closed the connection without a response" : "the server closed the connection inside the response head (after \(total) bytes)")
            }
            total += n
            var start = 0
            while start < n {
                let found: (head: ResponseHead, used: Int)?
                do {
                    found = try buffer.withBytes { (b) throws(HTTPWireError) -> (head: ResponseHead, used: Int)? in
                        try reader.take(UnsafeRawBufferPointer(rebasing: b[start..<n]))
                    }
                } catch { throw FetchError(error, url: connection.url) }
                guard let found else { break }
                start += found.used
                if found.head.status >= 200 || found.head.status == 101 {
                    leftover = start..<n
                    return found.head
                }
            }
        }
    }

    mutating func body(_ head: ResponseHead, limit: Int, deadline: inout Deadline) throws(FetchError) -> BodySink {
        let framing: BodyFraming
        do { framing = try BodyFraming(for: head) } catch { throw FetchError(error, url: connection.url) }
        var expected: Int64?
        if case .exactly(let n) = framing.length {
            expected = n
            // Before a byte of it: a plain body declared over the limit cannot fit.
            if framing.coding == .identity, n > Int64(limit) {
                throw FetchError(.tooLarge, url: connection.url, "body of \(n) bytes (Content-Length) larger than the limit of \(limit) bytes")
            }
        }
        let sink = try BodySink(coding: framing.coding, limit: limit, expected: expected, url: connection.url)
        switch framing.length {
        case .none:
            break
        case .exactly(let total):
            var remaining = total
            while remaining > 0 {
                let range = try next(deadline: &deadline)
                guard !range.isEmpty else {
                    throw FetchError(.protocolViolation, url: connection.url, "body truncated: \(total - remaining) of \(total) bytes (Content-Length) before the connection closed")
                }
                let take = Int(min(Int64(range.count), remaining))
                try deliver(range.lowerBound..<(range.lowerBound + take), to: sink)
                remaining -= Int64(take)
            }
        case .untilClose:
            while true {
                let range = try next(deadline: &deadline)
                if range.isEmpty { break }
                try deliver(range, to: sink)
            }
        case .chunked:
            var decoder = ChunkedDecoder()
            while !decoder.isDone {
                var range = try next(deadline: &deadline)
                guard !range.isEmpty else {
                    throw FetchError(.protocolViolation, url: connection.url, "chunked body truncated after \(sink.received) bytes (no last chunk before the connection closed)")
                }
                while !range.isEmpty, !decoder.isDone {
                    let step: (consumed: Int, data: Range<Int>)
                    do {
                        step = try buffer.withBytes { (b) throws(HTTPWireError) -> (consumed: Int, data: Range<Int>) in
                            try decoder.step(UnsafeRawBufferPointer(rebasing: b[range]))
                        }
                    } catch { throw FetchError(error, url: connection.url) }
                    if !step.data.isEmpty { try deliver((range.lowerBound + step.data.lowerBound)..<(range.lowerBound + step.data.upperBound), to: sink) }
                    range = (range.lowerBound + step.consumed)..<range.upperBound
                }
            }
        }
        try sink.finish()
        return sink
    }

    private func deliver(_ range: Range<Int>, to sink: BodySink) throws(FetchError) {
        try buffer.withBytes { (b) throws(FetchError) in try sink.take(UnsafeRawBufferPointer(rebasing: b[range])) }
    }

    /// The bytes left after the head, else the next read's; empty at the end of the stream.
    private mutating func next(deadline: inout Deadline) throws(FetchError) -> Range<Int> {
        if !leftover.isEmpty {
            defer { leftover = 0..<0 }
            return leftover
        }
        let n = try readSome(deadline: &deadline, doing: "reading the body")
        return 0..<n
    }

    private mutating func readSome(deadline: inout Deadline, doing: String) throws(FetchError) -> Int {
        let connection = self.connection
        return try buffer.withMutableBytes { (b) throws(FetchError) -> Int in
            try connection.read(into: b, deadline: &deadline, doing: doing)
        }
    }
}
