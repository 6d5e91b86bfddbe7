// libFuzzer entry for what a feed's bytes go through before anything trusts them: the CSV reader
// and table (RFC 4180, in chunk sizes the input chooses, so every split point gets explored) and
// the zip reader (central directory, Zip64, inflate, sizes and CRC), its members then read as CSV.
// Built by deploy/fuzz/fuzz-gtfs; not part of the package.
import GTFS

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let control = data[0]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    // Bit 7: a zip, else CSV. Bits 0-5: the chunk size (1...64), bit 6: everything at once.
    let chunk = control & 0x40 == 0 ? Int(control & 0x3F) + 1 : Int.max
    if control & 0x80 == 0 {
        readCSV(MemorySource(body, chunk: chunk))
    } else {
        readZip(body, chunk: chunk)
    }
    return 0
}

private func readCSV(_ source: any ByteSource) {
    let reader = CSVReader(source: source, file: "fuzz.txt", bufferSize: 64, maximumFieldBytes: 256)
    var lastLine = 0, ended = false
    while true {
        do throws(GTFSError) {
            guard try reader.next() else { break }
            precondition(!ended, "a record after the file ended")
            precondition(reader.fields.count <= CSVReader.maximumFields, "too many fields handed out")
            precondition(reader.fields.allSatisfy { $0.utf8.count <= 256 * 3 }, "a field over its limit")
            precondition(reader.line > lastLine, "lines went backwards: \(reader.line) after \(lastLine)")
            lastLine = reader.line
        } catch {
            // Line 0: the source itself failed (a damaged member), which is about no line.
            precondition(error.line == 0 || error.line >= lastLine, "an error before the last record")
            precondition(!error.description.contains("\n"), "an error of more than one line")
            if !error.skippable { ended = true }
        }
        if ended {
            // After a problem that ends the file, the reader says so and stays ended.
            let again = try? reader.next()
            precondition(again != true, "a record after a fatal error")
            break
        }
    }
}

private func readZip(_ bytes: [UInt8], chunk: Int) {
    guard let archive = try? ZipArchive(RandomAccessMemory(bytes, name: "fuzz.zip")) else { return }
    for entry in archive.entries.prefix(8) {
        guard let source = try? archive.open(entry) else { continue }
        // Counted as the CSV reader pulls it: never more than the directory declares.
        let counting = CountingSource(source, chunk: chunk)
        readCSV(counting)
        precondition(counting.total <= entry.uncompressedSize, "more bytes than the entry declares")
    }
}

private final class CountingSource: ByteSource {
    let inner: any ByteSource
    let chunk: Int
    var total: Int64 = 0

    init(_ inner: any ByteSource, chunk: Int) {
        self.inner = inner
        self.chunk = chunk
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(GTFSError) -> Int {
        // A megabyte is enough to reach every state; more is only time.
        guard total < 1 << 20 else { return 0 }
        let n = try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, chunk)]))
        total += Int64(n)
        return n
    }
}
