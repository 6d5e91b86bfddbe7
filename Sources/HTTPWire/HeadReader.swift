/// Collects a response head as its bytes arrive, up to the empty line; what follows it is the
/// start of the body, handed back untouched.
public struct HeadReader: Sendable {
    public static let defaultLimit = 32 << 10

    private var bytes: [UInt8] = []
    private let limit: Int

    public init(limit: Int = HeadReader.defaultLimit) { self.limit = limit }

    /// Takes bytes from `input`: nil while the head is incomplete (all of `input` taken); once it
    /// ends, the parsed head and how many bytes of `input` belonged to it.
    public mutating func take(_ input: UnsafeRawBufferPointer) throws(HTTPWireError) -> (head: ResponseHead, used: Int)? {
        for i in 0..<input.count {
            bytes.append(input[i])
            let n = bytes.count
            // The head ends at CRLF CRLF, or at LF LF where a server ends lines with LF alone.
            guard input[i] == 0x0A else {
                if n > limit { throw HTTPWireError(.tooLarge, "response head longer than \(limit) bytes") }
                continue
            }
            // Blank lines before the status line are tolerated (RFC 9112, 2.2); the check stops at
            // the first other byte, so it costs nothing once the status line has begun.
            if bytes.allSatisfy({ $0 == 0x0D || $0 == 0x0A }) { bytes.removeAll(); continue }
            let endsEmpty = (n >= 2 && bytes[n - 2] == 0x0A) || (n >= 3 && bytes[n - 2] == 0x0D && bytes[n - 3] == 0x0A)
            guard endsEmpty else { continue }
            let head = try bytes.withUnsafeBytes { b in Result { () throws(HTTPWireError) in try ResponseHead(parsing: b) } }.get()
            bytes.removeAll()
            return (head, i + 1)
        }
        return nil
    }

    /// Bytes taken so far of a head not yet complete.
    public var pending: Int { bytes.count }
}
