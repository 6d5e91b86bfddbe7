import Glibc

extension FileDescriptor {
    /// The whole content of the file at `path` (configuration files, replay logs: read once at
    /// start-up). Refuses files over `limit` bytes rather than exhausting memory on a wrong path
    /// such as a device node; the error names the file.
    /// Opens `path` for reading only if it is a regular file: without blocking (a FIFO with no
    /// writer would hold the thread for good), and refused with a clear line when it is a FIFO, a
    /// device, a socket or a folder.
    public static func openRegularFile(_ path: String) throws(SyscallError) -> FileDescriptor {
        let fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
        var buffer = Glibc.stat()
        do { _ = try syscall("fstat", path) { fstat(fd.rawValue, &buffer) } } catch {
            fd.close()
            throw error
        }
        let kind: String?
        switch buffer.st_mode & S_IFMT {
        case S_IFREG: kind = nil
        case S_IFIFO: kind = "a FIFO"
        case S_IFDIR: kind = "a folder"
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a file"
        }
        guard let kind else { return fd }
        fd.close()
        throw SyscallError(call: "open", object: path, errno: EINVAL, detail: "\(kind), not a regular file")
    }

    public static func readWholeFile(_ path: String, limit: Int = 256 << 20) throws(SyscallError) -> [UInt8] {
        let fd = try openRegularFile(path)
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
