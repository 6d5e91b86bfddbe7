import Glibc
import Syscall

/// Bytes read where they lie, as a zip reader needs: the central directory at the end, each
/// member at its offset. A file (pread), or bytes in memory for the fuzzer.
public protocol RandomAccessBytes: AnyObject {
    var name: String { get }
    var size: Int64 { get }
    /// Fills `buffer` from `offset`; fewer bytes only at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(GTFSError) -> Int
}

public final class RandomAccessFile: RandomAccessBytes {
    public let name: String
    public let size: Int64
    private let fd: FileDescriptor

    public init(path: String) throws(GTFSError) {
        name = path
        do {
            fd = try FileDescriptor.openRegularFile(path)
        } catch {
            throw GTFSError(file: path, message: "cannot open: \(error.message)")
        }
        do { size = try fd.size() } catch {
            fd.close()
            throw GTFSError(file: path, message: "cannot read its size: \(error.message)")
        }
    }

    deinit { fd.close() }

    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(GTFSError) -> Int {
        var done = 0
        while done < buffer.count {
            let n: Int
            do { n = try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), at: offset + Int64(done)) } catch {
                throw GTFSError(file: name, message: "cannot read at byte \(offset + Int64(done)): \(error.message)")
            }
            if n == 0 { break }
            done += n
        }
        return done
    }
}

public final class RandomAccessMemory: RandomAccessBytes {
    public let name: String
    private let bytes: [UInt8]
    public var size: Int64 { Int64(bytes.count) }

    public init(_ bytes: [UInt8], name: String) {
        self.bytes = bytes
        self.name = name
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(GTFSError) -> Int {
        guard offset >= 0, offset < size else { return 0 }
        let n = min(buffer.count, bytes.count - Int(offset))
        bytes.withUnsafeBytes { raw in buffer.baseAddress!.copyMemory(from: raw.baseAddress! + Int(offset), byteCount: n) }
        return n
    }
}
