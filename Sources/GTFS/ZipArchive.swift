/// A zip file's table of contents, read from its central directory (APPNOTE 6.3: the end record,
/// Zip64 when a count or offset overflows its 16 or 32 bits) without reading the members. Only
/// what GTFS feeds use is accepted: stored or deflated members, unencrypted, on one disk.
public final class ZipArchive {
    public struct Entry: Equatable, Sendable {
        public let name: String
        public let method: UInt16
        public let crc32: UInt32
        public let compressedSize: Int64
        public let uncompressedSize: Int64
        public let localHeaderOffset: Int64
        public let flags: UInt16
    }

    public let bytes: any RandomAccessBytes
    public let entries: [Entry]
    public var name: String { bytes.name }

    /// A directory of more entries than this is not a feed (GTFS has under 30 files).
    public static let maximumEntries = 10_000

    public init(_ bytes: any RandomAccessBytes) throws(GTFSError) {
        self.bytes = bytes
        let file = bytes.name
        func fail(_ message: String) -> GTFSError { GTFSError(file: file, message: message) }
        // The end record is 22 bytes plus a comment of up to 65535, at the very end.
        let tailLength = Int(min(bytes.size, 22 + 65535))
        guard tailLength >= 22 else { throw fail("not a zip file: \(bytes.size) bytes is too short for one") }
        let tail = try Self.read(bytes, at: bytes.size - Int64(tailLength), count: tailLength)
        var found: Int?
        var i = tailLength - 22
        while i >= 0 {
            if tail.u32(i) == 0x0605_4B50 && i + 22 + Int(tail.u16(i + 20)) <= tailLength { found = i; break }
            i -= 1
        }
        guard let end = found else { throw fail("not a zip file, or a truncated one: no end of central directory record") }
        let endOffset = bytes.size - Int64(tailLength) + Int64(end)
        guard tail.u16(end + 4) == 0 && tail.u16(end + 6) == 0 else { throw fail("a zip split over several disks is not supported") }
        var count = Int64(tail.u16(end + 10))
        var directorySize = Int64(tail.u32(end + 12))
        var directoryOffset = Int64(tail.u32(end + 16))
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            // The Zip64 locator sits just before the end record and points to the Zip64 end record.
            guard endOffset >= 20 else { throw fail("Zip64 end locator missing") }
            let locator = try Self.read(bytes, at: endOffset - 20, count: 20)
            guard locator.u32(0) == 0x0706_4B50 else { throw fail("Zip64 end locator missing") }
            let recordOffset = Int64(bitPattern: locator.u64(8))
            guard recordOffset >= 0, recordOffset + 56 <= endOffset else { throw fail("Zip64 end record outside the file") }
            let record = try Self.read(bytes, at: recordOffset, count: 56)
            guard record.u32(0) == 0x0606_4B50 else { throw fail("Zip64 end record missing at byte \(recordOffset)") }
            count = Int64(bitPattern: record.u64(32))
            directorySize = Int64(bitPattern: record.u64(40))
            directoryOffset = Int64(bitPattern: record.u64(48))
        }
        guard count >= 0, count <= Self.maximumEntries else { throw fail("\(count) entries: too many for a feed") }
        guard directoryOffset >= 0, directorySize >= 0, directorySize <= 64 << 20, directoryOffset + directorySize <= endOffset else {
            throw fail("central directory (\(directorySize) bytes at \(directoryOffset)) lies outside the file: truncated?")
        }
        let directory = try Self.read(bytes, at: directoryOffset, count: Int(directorySize))
        var entries: [Entry] = []
        var p = 0
        for n in 0..<Int(count) {
            guard p + 46 <= directory.count, directory.u32(p) == 0x0201_4B50 else {
                throw fail("central directory entry \(n + 1) of \(count) is damaged")
            }
            let nameLength = Int(directory.u16(p + 28)), extraLength = Int(directory.u16(p + 30)), commentLength = Int(directory.u16(p + 32))
            guard p + 46 + nameLength + extraLength + commentLength <= directory.count else {
                throw fail("central directory entry \(n + 1) runs past the directory's end")
            }
            let name = String(decoding: directory[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            var compressed = Int64(directory.u32(p + 20)), uncompressed = Int64(directory.u32(p + 24))
            var offset = Int64(directory.u32(p + 42))
            // Zip64 extra field: the 64-bit values of exactly those fields that overflowed, in order.
            var e = p + 46 + nameLength
            let extraEnd = e + extraLength
            while e + 4 <= extraEnd {
                let id = directory.u16(e), size = Int(directory.u16(e + 2))
                guard e + 4 + size <= extraEnd else { break }
                if id == 0x0001 {
                    var q = e + 4
                    func next() -> Int64? {
                        guard q + 8 <= e + 4 + size else { return nil }
                        defer { q += 8 }
                        return Int64(bitPattern: directory.u64(q))
                    }
                    if uncompressed == 0xFFFF_FFFF { uncompressed = next() ?? -1 }
                    if compressed == 0xFFFF_FFFF { compressed = next() ?? -1 }
                    if offset == 0xFFFF_FFFF { offset = next() ?? -1 }
                }
                e += 4 + size
            }
            guard compressed >= 0, uncompressed >= 0, offset >= 0, offset < directoryOffset, offset + compressed <= directoryOffset else {
                throw GTFSError(file: file + "/" + name, message: "sizes or offset outside the archive (a truncated or damaged zip)")
            }
            entries.append(Entry(name: name, method: directory.u16(p + 10), crc32: directory.u32(p + 16), compressedSize: compressed,
                                 uncompressedSize: uncompressed, localHeaderOffset: offset, flags: directory.u16(p + 8)))
            p += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// A reader of one member's bytes, inflated as they are read.
    public func open(_ entry: Entry) throws(GTFSError) -> ZipEntrySource {
        try ZipEntrySource(archive: self, entry: entry)
    }

    static func read(_ bytes: any RandomAccessBytes, at offset: Int64, count: Int) throws(GTFSError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var error: GTFSError?
        let n = out.withUnsafeMutableBytes { raw in
            do throws(GTFSError) { return try bytes.read(into: raw, at: offset) } catch let e { error = e; return 0 }
        }
        if let error { throw error }
        guard n == count else { throw GTFSError(file: bytes.name, message: "truncated: \(count) bytes wanted at byte \(offset), \(n) there") }
        return out
    }
}

extension Array where Element == UInt8 {
    /// Little-endian fields, as every zip structure stores them.
    func u16(_ i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func u32(_ i: Int) -> UInt32 { UInt32(u16(i)) | UInt32(u16(i + 2)) << 16 }
    func u64(_ i: Int) -> UInt64 { UInt64(u32(i)) | UInt64(u32(i + 4)) << 32 }
}
