import Glibc

/// Creating directories (output folders for frames and demos) and listing them (device nodes).
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

    /// The names in the directory `path`, without "." and "..", in the order the file system
    /// gives them (callers that need an order sort). Throws naming the directory when it cannot be
    /// opened (missing, not a directory, no permission) or read.
    public static func entries(_ path: String) throws(SyscallError) -> [String] {
        let directory = try pointerCall("opendir", path) { Glibc.opendir(path) }
        defer { _ = Glibc.closedir(directory) }
        var names: [String] = []
        while true {
            // readdir returns NULL both at the end and on an error: only errno tells them apart.
            Glibc.errno = 0
            guard let entry = Glibc.readdir(directory) else {
                let code = Glibc.errno
                if code != 0 { throw SyscallError(call: "readdir", object: path, errno: code) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }
}
