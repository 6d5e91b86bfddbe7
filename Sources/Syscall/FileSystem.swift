import Glibc

/// Naming files: renaming one over another (atomic within a file system) and removing one.
public enum FileSystem {
    public static func rename(_ from: String, to: String) throws(SyscallError) {
        _ = try syscall("rename", "\(from) to \(to)") { Glibc.rename(from, to) }
    }

    /// Removes `path`; a path that does not exist is no error.
    public static func remove(_ path: String) throws(SyscallError) {
        if Glibc.unlink(path) == 0 || Glibc.errno == ENOENT { return }
        throw SyscallError(call: "unlink", object: path, errno: Glibc.errno)
    }
}
