/// The chunked transfer coding taken apart as bytes arrive (RFC 9112, 7.1): sizes in hex,
/// extensions ignored, each chunk's data handed back where it lies, trailers skipped.
public struct ChunkedDecoder: Sendable {
    private enum State: Sendable {
        case size
        case data(Int64)
        case dataEnd(sawCR: Bool)
        case trailers
        case done
    }

    /// A size line or a trailer line longer than this is not a server speaking HTTP.
    public static let maxLine = 4096
    /// All trailer lines together.
    public static let maxTrailers = 16 << 10

    private var state = State.size
    private var line: [UInt8] = []
    private var trailerBytes = 0

    public init() {}

    /// The last chunk and the trailers have been read: the body is complete.
    public var isDone: Bool {
        if case .done = state { return true }
        return false
    }

    /// Reads from the start of `input`: how many bytes it took, and the part of them that is body
    /// data (an empty range when they were framing). Call again with the rest until all is taken;
    /// after the end it takes nothing.
    public mutating func step(_ input: UnsafeRawBufferPointer) throws(HTTPWireError) -> (consumed: Int, data: Range<Int>) {
        switch state {
        case .done:
            return (0, 0..<0)
        case .data(let remaining):
            let n = Int(min(remaining, Int64(input.count)))
            state = remaining == Int64(n) ? .dataEnd(sawCR: false) : .data(remaining - Int64(n))
            return (n, 0..<n)
        case .dataEnd(let sawCR):
            guard let c = input.first else { return (0, 0..<0) }
            if c == 0x0D, !sawCR {
                state = .dataEnd(sawCR: true)
            } else if c == 0x0A {
                state = .size
            } else {
                throw HTTPWireError(.protocolViolation, "chunk data not followed by CRLF (the chunk is longer than its size says)")
            }
            return (1, 0..<0)
        case .size, .trailers:
            var used = 0
            while used < input.count {
                let c = input[used]
                used += 1
                if c == 0x0A {
                    try endLine()
                    return (used, 0..<0)
                }
                line.append(c)
                if line.count > Self.maxLine { throw HTTPWireError(.tooLarge, "a chunk size or trailer line longer than \(Self.maxLine) bytes") }
            }
            return (used, 0..<0)
        }
    }

    private mutating func endLine() throws(HTTPWireError) {
        if line.last == 0x0D { line.removeLast() }
        defer { line.removeAll(keepingCapacity: true) }
        if case .trailers = state {
            if line.isEmpty { state = .done; return }
            trailerBytes += line.count
            if trailerBytes > Self.maxTrailers { throw HTTPWireError(.tooLarge, "chunked trailers longer than \(Self.maxTrailers) bytes") }
            return
        }
        var size: Int64 = 0
        var digits = 0
        for c in line {
            let v: UInt8
            switch c {
            case 0x30...0x39: v = c - 0x30
            case 0x41...0x46: v = c - 0x41 + 10
            case 0x61...0x66: v = c - 0x61 + 10
            default: v = 0xFF
            }
            if v == 0xFF { break }
            digits += 1
            // 15 hex digits reach 2^60: no chunk is larger, and the sum cannot overflow.
            guard digits <= 15 else { throw HTTPWireError(.protocolViolation, "chunk size with more than 15 hex digits") }
            size = size << 4 | Int64(v)
        }
        guard digits > 0 else {
            let shown = line.withUnsafeBytes { printable($0, max: 40) }
            throw HTTPWireError(.protocolViolation, "chunk size is not a hex number: \(shown)")
        }
        // After the digits only blanks and extensions may follow.
        let rest = line[digits...].drop { $0 == 0x20 || $0 == 0x09 }
        guard rest.isEmpty || rest.first == 0x3B else {
            let shown = line.withUnsafeBytes { printable($0, max: 40) }
            throw HTTPWireError(.protocolViolation, "chunk size is not a hex number: \(shown)")
        }
        state = size == 0 ? .trailers : .data(size)
    }
}
