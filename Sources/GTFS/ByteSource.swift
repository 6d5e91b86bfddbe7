import Glibc
import Syscall

/// Bytes read front to back in chunks the reader chooses: a file, a zip member being inflated, or
/// bytes in memory. A class so one reader can hold any of them.
public protocol ByteSource: AnyObject {
    /// Fills the start of `buffer`; returns how many bytes it wrote, 0 only at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(GTFSError) -> Int
}

/// A file read sequentially; closed when the source goes.
public final class FileSource: ByteSource {
    private let fd: FileDescriptor
    public let name: String

    public init(path: String, name: String? = nil) throws(GTFSError) {
        self.name = name ?? path
        do { fd = try FileDescriptor.openRegularFile(path) } catch {
            throw GTFSError(file: name ?? path, message: "cannot open: \(error.message)")
        }
    }

    deinit { fd.close() }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(GTFSError) -> Int {
        do { return try fd.read(into: buffer) ?? 0 } catch {
            throw GTFSError(file: name, message: "cannot read: \(error.message)")
        }
    }
}

/// Bytes already in memory, handed out at most `chunk` at a time, so tests and the fuzzer can put
/// every chunk boundary anywhere in a record.
public final class MemorySource: ByteSource {
    private let bytes: [UInt8]
    private let chunk: Int
    private var offset = 0

    public init(_ bytes: [UInt8], chunk: Int = .max) {
        self.bytes = bytes
        self.chunk = max(chunk, 1)
    }

    public convenience init(_ text: String, chunk: Int = .max) { self.init(Array(text.utf8), chunk: chunk) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(GTFSError) -> Int {
        let n = min(buffer.count, chunk, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { raw in
            buffer.baseAddress!.copyMemory(from: raw.baseAddress! + offset, byteCount: n)
        }
        offset += n
        return n
    }
}
