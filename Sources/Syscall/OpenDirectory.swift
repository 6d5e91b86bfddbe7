import Glibc

extension FileDescriptor {
    /// Opens the directory `path` for opening files inside it by relative names (`readWholeFile(at:)`).
    /// The descriptor keeps naming the directory it opened: renamed, or its path pointed at another
    /// one, it is still that directory that files are read from.
    public static func openDirectory(_ path: String) throws(SyscallError) -> FileDescriptor {
        try open(path, O_RDONLY | O_DIRECTORY)
    }

    /// The whole content of the file at `relativePath` inside this open directory (openat), at most
    /// `limit` bytes (more is EFBIG, like `readWholeFile(_:limit:)`). Errors name the directory's
    /// name joined with `relativePath`.
    public func readWholeFile(at relativePath: String, limit: Int) throws(SyscallError) -> [UInt8] {
        let fileName = name.hasSuffix("/") ? name + relativePath : name + "/" + relativePath
        let fd = try syscall("open", fileName) { openat(rawValue, relativePath, O_RDONLY | O_CLOEXEC) }
        let file = FileDescriptor(rawValue: fd, name: fileName)
        defer { file.close() }
        var bytes: [UInt8] = []
        // Map tiles are tens of kilobytes: one read usually takes the whole file.
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { chunk.deallocate() }
        while let n = try file.read(into: chunk), n > 0 {
            guard bytes.count + n <= limit else { throw SyscallError(call: "read", object: fileName, errno: EFBIG) }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
        }
        return bytes
    }
}
