import Glibc

extension FileSystem {
    /// Bytes an unprivileged writer may still use on the file system holding `path` (statvfs's
    /// f_bavail, not f_bfree: the blocks reserved for root are not the importer's to count on).
    /// fstatvfs on the opened path: in Swift `statvfs` names the struct before the function.
    public static func availableBytes(_ path: String) throws(SyscallError) -> Int64 {
        let fd = try FileDescriptor.open(path, O_RDONLY)
        defer { fd.close() }
        var info = Glibc.statvfs()
        _ = try syscall("statvfs", path) { Glibc.fstatvfs(fd.rawValue, &info) }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
