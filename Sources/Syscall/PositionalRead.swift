import Glibc

extension FileDescriptor {
    /// Reads at `offset` without moving the file position (pread): a zip's central directory and
    /// its members are read where they lie, each reader with its own offset on one descriptor.
    /// Returns the bytes read, 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SyscallError) -> Int {
        try syscall("pread", name) { Glibc.pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// The size of the open file (fstat), for a reader that must find its end.
    public func size() throws(SyscallError) -> Int64 {
        var buffer = Glibc.stat()
        _ = try syscall("fstat", name) { Glibc.fstat(rawValue, &buffer) }
        return Int64(buffer.st_size)
    }
}
