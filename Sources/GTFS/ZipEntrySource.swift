import CZlib

/// One zip member's bytes, read from the archive in fixed chunks and inflated (raw deflate, zlib)
/// straight into the reader's buffer, so no member is ever whole in memory. Never yields more than
/// the size the central directory declares (a zip bomb stops there), and at the end checks the
/// size and the CRC-32 the directory gives.
public final class ZipEntrySource: ByteSource {
    public let entry: ZipArchive.Entry
    private let bytes: any RandomAccessBytes
    private let file: String
    private var stream: UnsafeMutablePointer<z_stream>?
    private let input: UnsafeMutableRawBufferPointer
    private var nextInput: Int64
    private var inputLeft: Int64
    private var produced: Int64 = 0
    private var crc: UInt = 0
    private var done = false

    init(archive: ZipArchive, entry: ZipArchive.Entry) throws(GTFSError) {
        self.entry = entry
        bytes = archive.bytes
        file = archive.name + "/" + entry.name
        guard entry.flags & 1 == 0 else { throw GTFSError(file: file, message: "encrypted: a feed must not be") }
        guard entry.method == 0 || entry.method == 8 else {
            throw GTFSError(file: file, message: "compression method \(entry.method) is not supported (stored or deflate only)")
        }
        let local = try ZipArchive.read(bytes, at: entry.localHeaderOffset, count: 30)
        guard local.u32(0) == 0x0403_4B50 else { throw GTFSError(file: file, message: "local header missing at byte \(entry.localHeaderOffset)") }
        nextInput = entry.localHeaderOffset + 30 + Int64(local.u16(26)) + Int64(local.u16(28))
        inputLeft = entry.compressedSize
        guard nextInput + inputLeft <= bytes.size else {
            throw GTFSError(file: file, message: "data runs past the end of the archive (truncated)")
        }
        input = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        if entry.method == 8 {
            // z_stream keeps a pointer to itself in its state: it must not move, hence the heap.
            let s = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            s.initialize(to: z_stream())
            // -15: raw deflate, as zip stores it, without zlib's header.
            guard inflateInit2_(s, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                s.deallocate()
                input.deallocate()
                throw GTFSError(file: file, message: "zlib could not start inflating")
            }
            stream = s
        }
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deallocate()
        }
        input.deallocate()
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(GTFSError) -> Int {
        if done || buffer.isEmpty { return 0 }
        let n = try (stream == nil ? readStored(into: buffer) : inflate(into: buffer))
        if n > 0 {
            crc = crc32(crc, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(n))
            produced += Int64(n)
        }
        if produced > entry.uncompressedSize {
            throw GTFSError(file: file, message: "inflates to more than the \(entry.uncompressedSize) bytes its directory entry declares (a damaged zip or a zip bomb)")
        }
        if n == 0 || done { try finish() }
        return n
    }

    private func readStored(into buffer: UnsafeMutableRawBufferPointer) throws(GTFSError) -> Int {
        let want = Int(min(Int64(buffer.count), inputLeft))
        if want == 0 { done = true; return 0 }
        let n = try bytes.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want]), at: nextInput)
        guard n == want else { throw GTFSError(file: file, message: "truncated: the archive ends inside this member") }
        nextInput += Int64(n)
        inputLeft -= Int64(n)
        return n
    }

    private func inflate(into buffer: UnsafeMutableRawBufferPointer) throws(GTFSError) -> Int {
        guard let stream else { return 0 }
        stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
        while stream.pointee.avail_out > 0 {
            if stream.pointee.avail_in == 0 && inputLeft > 0 {
                let want = Int(min(Int64(input.count), inputLeft))
                let n = try bytes.read(into: UnsafeMutableRawBufferPointer(rebasing: input[..<want]), at: nextInput)
                guard n == want else { throw GTFSError(file: file, message: "truncated: the archive ends inside this member") }
                nextInput += Int64(n)
                inputLeft -= Int64(n)
                stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
                stream.pointee.avail_in = UInt32(n)
            }
            let before = stream.pointee.avail_out
            let code = CZlib.inflate(stream, Z_NO_FLUSH)
            if code == Z_STREAM_END { done = true; break }
            guard code == Z_OK || code == Z_BUF_ERROR else {
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(code)"
                throw GTFSError(file: file, message: "damaged deflate data after \(produced) bytes: \(message)")
            }
            if stream.pointee.avail_out == before && stream.pointee.avail_in == 0 && inputLeft == 0 {
                throw GTFSError(file: file, message: "truncated: the deflate stream ends before its last block")
            }
        }
        return buffer.count - Int(stream.pointee.avail_out)
    }

    private func finish() throws(GTFSError) {
        done = true
        guard produced == entry.uncompressedSize else {
            throw GTFSError(file: file, message: "\(produced) bytes where its directory entry declares \(entry.uncompressedSize) (a damaged zip)")
        }
        guard UInt32(truncatingIfNeeded: crc) == entry.crc32 else {
            throw GTFSError(file: file, message: "CRC-32 mismatch: the member's bytes are damaged")
        }
    }
}
