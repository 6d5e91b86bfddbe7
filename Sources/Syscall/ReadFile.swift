import Glibc

extension FileDescriptor {
    /// The whole content of the file at `path` (configuration files, replay logs: read once at
    /// start-up). Refuses files over `limit` bytes rather than exhausting memory on a wrong path
    /// such as a device node; the error names the file.
    public static func readWholeFile(_ path: String, limit: Int = 256 << 20) throws(SyscallError) -> [UInt8] {
        let fd = try FileDescriptor.open(path, O_RDONLY)
        defer { fd.close() }
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { chunk.deallocate() }
        // A blocking regular file never returns EAGAIN (nil); treat it like the end all the same.
        while let n = try fd.read(into: chunk), n > 0 {
            guard bytes.count + n <= limit else { throw SyscallError(call: "read", object: path, errno: EFBIG) }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
        }
        return bytes
    }
}
