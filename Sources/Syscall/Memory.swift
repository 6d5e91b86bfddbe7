import Glibc

/// A shared mapping of device memory (a DRM dumb buffer, an fbdev framebuffer). Like
/// `FileDescriptor` it is a plain value: whoever mapped it unmaps it.
public struct MappedMemory: @unchecked Sendable {
    public let base: UnsafeMutableRawPointer
    public let length: Int

    public init(base: UnsafeMutableRawPointer, length: Int) {
        self.base = base; self.length = length
    }

    /// `mmap(NULL, length, PROT_READ|PROT_WRITE, MAP_SHARED, fd, offset)`. Read permission is only
    /// there because some drivers refuse write-only mappings: scan-out memory is never read.
    public static func map(_ fd: FileDescriptor, length: Int, offset: UInt64,
                           what: String) throws(SyscallError) -> MappedMemory {
        let result = Glibc.mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, off_t(Int64(bitPattern: offset)))
        guard let result, result != MAP_FAILED else {
            throw SyscallError(call: "mmap", object: "\(what) on \(fd.name)", errno: Glibc.errno)
        }
        return MappedMemory(base: result, length: length)
    }

    /// The whole file at `path` mapped read-only (`MAP_PRIVATE`): read in place, its pages brought
    /// in by the kernel as they are touched and shared with every other reader of the file, so a
    /// 20 MB font costs only the pages of the glyphs used. The descriptor is closed once mapped.
    public static func mapFile(_ path: String) throws(SyscallError) -> MappedMemory {
        let fd = try FileDescriptor.open(path, O_RDONLY)
        defer { fd.close() }
        let size = try fd.size()
        guard size > 0, size <= Int64(Int.max) else { throw SyscallError(call: "mmap", object: "\(path) (\(size) bytes)", errno: EINVAL) }
        let result = Glibc.mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd.rawValue, 0)
        guard let result, result != MAP_FAILED else {
            throw SyscallError(call: "mmap", object: path, errno: Glibc.errno)
        }
        return MappedMemory(base: result, length: Int(size))
    }

    public func unmap() {
        // munmap fails only on a bad range, which would be a bug in this process: nothing to retry.
        _ = Glibc.munmap(base, length)
    }
}
