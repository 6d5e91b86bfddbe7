import Glibc

/// Creating directories (output folders for frames and demos).
public enum Directory {
    /// Creates `path` and any missing parents, like `mkdir -p`; an existing directory is fine.
    /// Throws naming the directory that could not be made (e.g. a file of that name exists).
    public static func create(_ path: String, mode: mode_t = 0o755) throws(SyscallError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            if Glibc.mkdir(prefix, mode) != 0 {
                let code = Glibc.errno
                guard code == EEXIST, isDirectory(prefix) else {
                    throw SyscallError(call: "mkdir", object: prefix, errno: code == EEXIST ? ENOTDIR : code)
                }
            }
            prefix += "/"
        }
    }

    /// Whether `path` exists and is a directory (following symbolic links).
    public static func isDirectory(_ path: String) -> Bool {
        // open(O_DIRECTORY) rather than stat: Swift cannot tell Glibc's stat() from struct stat.
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { return false }
        Glibc.close(fd)
        return true
    }
}
