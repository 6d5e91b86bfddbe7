import Glibc
import Syscall

/// Cuts a byte stream into lines. Bytes are read straight into the framer's own fixed buffer, so
/// memory never grows with what the peer sends: a line longer than `maximumLineLength` is thrown
/// away up to its newline and reported once, however long it runs.
///
/// LF ends a line; a CR just before it is dropped (gpsd sends CR LF). Lines are handed out as
/// borrowed bytes valid only during the callback.
public struct LineFramer {
    /// gpsd 3.22's longest response is 10,240 bytes; 16 KiB leaves room for newer releases.
    public static let defaultMaximumLineLength = 16 * 1024

    public enum Event {
        /// One complete line without its terminator.
        case line(UnsafeRawBufferPointer)
        /// A line longer than the limit ended; `length` counts its bytes without the terminator.
        case oversize(length: Int)
    }

    public let maximumLineLength: Int
    private var storage: [UInt8]
    /// Bytes [0, filled) hold the start of an unfinished line.
    private var filled = 0
    /// While discarding an oversize line: how many bytes of it were seen so far.
    private var discarding: Int?
    /// Whether the last byte discarded was a CR (it belongs to the terminator if LF comes next).
    private var discardedCR = false

    public init(maximumLineLength: Int = LineFramer.defaultMaximumLineLength) {
        precondition(maximumLineLength > 0, "a line framer needs room for at least one byte")
        self.maximumLineLength = maximumLineLength
        // Two extra bytes so a line of exactly the limit plus its CR LF still fits.
        storage = [UInt8](repeating: 0, count: maximumLineLength + 2)
    }

    /// The bytes reserved for line assembly: fixed for the framer's life.
    public var capacity: Int { storage.count }

    /// Bytes of an unfinished line held now.
    public var pendingByteCount: Int { discarding ?? filled }

    /// Whether an oversize line is being discarded.
    public var isDiscarding: Bool { discarding != nil }

    /// Forgets any partial line (a new connection starts clean).
    public mutating func reset() {
        filled = 0
        discarding = nil
    }

    /// Lets `fill` write into the free part of the buffer (at most `limit` bytes) and frames what it
    /// wrote. `fill` returns how many bytes it stored, or nil for none (EAGAIN, EOF...), which is
    /// passed back.
    public mutating func receive<E: Error>(
        limit: Int = .max,
        _ fill: (UnsafeMutableRawBufferPointer) throws(E) -> Int?,
        _ handle: (Event) -> Void
    ) throws(E) -> Int? {
        let start = filled
        let count = try storage.withMutableBytes { (raw) throws(E) -> Int? in
            let room = min(raw.count - start, limit)
            return try fill(UnsafeMutableRawBufferPointer(rebasing: raw[start..<(start + room)]))
        }
        guard let count, count > 0 else { return count }
        scan(newBytes: count, handle)
        return count
    }

    /// Frames `bytes` by copying them through the buffer; for callers that already hold the data.
    public mutating func append(_ bytes: UnsafeRawBufferPointer, _ handle: (Event) -> Void) {
        var offset = 0
        while offset < bytes.count {
            let taken = receive({ (room: UnsafeMutableRawBufferPointer) -> Int? in
                let n = min(room.count, bytes.count - offset)
                room.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + n)]))
                return n
            }, handle)
            offset += taken ?? 0
        }
    }

    private mutating func scan(newBytes: Int, _ handle: (Event) -> Void) {
        let end = filled + newBytes
        var lineStart = 0
        var searchFrom = filled
        storage.withUnsafeBytes { raw in
            while let lf = Self.firstNewline(in: raw, from: searchFrom, to: end) {
                if let seen = discarding {
                    let endsWithCR = lf > lineStart ? raw[lf - 1] == 0x0D : discardedCR
                    handle(.oversize(length: seen + lf - lineStart - (endsWithCR ? 1 : 0)))
                    discarding = nil
                } else {
                    var lineEnd = lf
                    if lineEnd > lineStart && raw[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                    if lineEnd - lineStart > maximumLineLength {
                        handle(.oversize(length: lineEnd - lineStart))
                    } else {
                        handle(.line(UnsafeRawBufferPointer(rebasing: raw[lineStart..<lineEnd])))
                    }
                }
                lineStart = lf + 1
                searchFrom = lineStart
            }
        }
        let rest = end - lineStart
        if rest > 0 { discardedCR = storage[end - 1] == 0x0D }
        if let seen = discarding {
            discarding = seen + rest
            filled = 0
        } else if rest >= storage.count {
            // The buffer is full without a newline: from here on the line is only counted. (Never
            // leaving it full also means `fill` always gets at least one byte of room, so a read
            // of 0 bytes always means end of file.)
            discarding = rest
            filled = 0
        } else {
            if lineStart > 0 && rest > 0 {
                storage.withUnsafeMutableBytes { raw in
                    raw.baseAddress!.copyMemory(from: raw.baseAddress! + lineStart, byteCount: rest)
                }
            }
            filled = rest
        }
    }

    private static func firstNewline(in raw: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        guard from < to else { return nil }
        let found = memchr(raw.baseAddress! + from, 0x0A, to - from)
        guard let found else { return nil }
        return raw.baseAddress!.distance(to: UnsafeRawPointer(found))
    }
}
