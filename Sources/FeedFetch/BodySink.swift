import CZlib
import HTTPWire

/// Where a response's body goes as it arrives: decoded (gzip inflated here) and counted against
/// the limit piece by piece, so a gzip bomb or an endless chunked body stops at the limit, with
/// at most one output piece (64 KiB) decoded past it and nothing of it kept.
final class BodySink {
    private(set) var bytes: [UInt8] = []
    /// Bytes as they came off the wire, before inflating.
    private(set) var received: Int64 = 0
    let limit: Int
    let url: String
    private var stream: UnsafeMutablePointer<z_stream>?
    private var streamEnded = false
    private var piece: UnsafeMutableRawBufferPointer

    init(coding: BodyFraming.Coding, limit: Int, expected: Int64?, url: String) throws(FetchError) {
        self.limit = limit
        self.url = url
        piece = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        if coding == .gzip {
            // z_stream keeps a pointer to itself in its state: it must not move, hence the heap.
            let s = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            s.initialize(to: z_stream())
            // 15 + 16: a gzip header and trailer around the deflate data, checked by zlib.
            guard inflateInit2_(s, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                s.deallocate()
                piece.deallocate()
                throw FetchError(.setup, url: url, "zlib could not start inflating")
            }
            stream = s
        }
        if let expected { bytes.reserveCapacity(Int(min(expected, Int64(limit)))) }
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deallocate()
        }
        piece.deallocate()
    }

    func take(_ data: UnsafeRawBufferPointer) throws(FetchError) {
        guard !data.isEmpty else { return }
        received += Int64(data.count)
        guard let stream else {
            try keep(data)
            return
        }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: data.baseAddress!.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(data.count)
        while stream.pointee.avail_in > 0 {
            if streamEnded {
                // A second gzip member follows the first (RFC 1952 allows several).
                guard inflateReset(stream) == Z_OK else { throw FetchError(.protocolViolation, url: url, "gzip body: zlib could not restart") }
                streamEnded = false
            }
            stream.pointee.next_out = piece.baseAddress!.assumingMemoryBound(to: UInt8.self)
            stream.pointee.avail_out = UInt32(piece.count)
            let code = inflate(stream, Z_NO_FLUSH)
            let produced = piece.count - Int(stream.pointee.avail_out)
            try keep(UnsafeRawBufferPointer(rebasing: piece[0..<produced]))
            if code == Z_STREAM_END { streamEnded = true; continue }
            guard code == Z_OK || code == Z_BUF_ERROR else {
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(code)"
                throw FetchError(.protocolViolation, url: url, "gzip body damaged after \(bytes.count) bytes: \(message)")
            }
            if code == Z_BUF_ERROR && produced == 0 { break }
        }
    }

    /// The body is complete on the wire: a gzip stream must be complete too.
    func finish() throws(FetchError) {
        if stream != nil, !streamEnded {
            throw FetchError(.protocolViolation, url: url, "gzip body ends before its last block (truncated after \(bytes.count) bytes)")
        }
    }

    private func keep(_ data: UnsafeRawBufferPointer) throws(FetchError) {
        guard bytes.count + data.count <= limit else {
            throw FetchError(.tooLarge, url: url, "body larger than the limit of \(limit) bytes (stopped after \(received) bytes received)")
        }
        bytes.append(contentsOf: data)
    }
}
