import Glibc

/// Replacing a whole file so a reader sees the old contents or the new, never half: the bytes go
/// to a temporary file in the same directory (rename is atomic only within one file system), are
/// fsynced, then renamed over the target. Written for node_exporter's textfile collector, which
/// reads `*.prom`: the temporary name is `.NAME.tmp`, which never ends in `.prom`.
public enum AtomicFile {
    /// The temporary file's path for `name` in `directory`.
    public static func temporaryPath(directory: String, name: String) -> String {
        join(directory, "." + name + ".tmp")
    }

    /// Writes `bytes` as `directory/name` with exactly `mode`: fchmod sets it whatever the umask
    /// (a unit's UMask=0077 would leave the file unreadable to the collector's user). Throws naming
    /// the file the failing call acted on; a failure leaves no temporary file behind. The directory
    /// is not fsynced: after a power cut a lost rename leaves the previous file, and the next write
    /// replaces it.
    public static func write(_ bytes: UnsafeRawBufferPointer, directory: String, name: String,
                             mode: mode_t = 0o644) throws(SyscallError) {
        precondition(!name.isEmpty && !name.contains("/"), "\(name) is not a file name")
        let target = join(directory, name)
        let temporary = temporaryPath(directory: directory, name: name)
        // O_TRUNC: a temporary left by a crash is overwritten. O_NOFOLLOW: never through a link.
        let fd = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: mode)
        do throws(SyscallError) {
            defer { fd.close() }
            _ = try fd.write(bytes)
            _ = try syscall("fchmod", temporary) { Glibc.fchmod(fd.rawValue, mode) }
            _ = try syscall("fsync", temporary) { Glibc.fsync(fd.rawValue) }
        } catch {
            _ = Glibc.unlink(temporary)
            throw error
        }
        do throws(SyscallError) {
            _ = try syscall("rename", target) { Glibc.rename(temporary, target) }
        } catch {
            _ = Glibc.unlink(temporary)
            throw error
        }
    }

    public static func write(_ text: String, directory: String, name: String, mode: mode_t = 0o644) throws(SyscallError) {
        try text.withUTF8Bytes { bytes throws(SyscallError) in try write(bytes, directory: directory, name: name, mode: mode) }
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
