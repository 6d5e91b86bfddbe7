import Glibc

/// Which file a path named at one moment: the device and inode together. A file installed by
/// rename gets a new inode, so comparing identities tells a replaced file from the one still open.
public struct FileIdentity: Hashable, Sendable, CustomStringConvertible {
    public let device: UInt64
    public let inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    public var description: String { "device \(device) inode \(inode)" }
}

/// What stat(2) says about a path (symbolic links followed), in the few fields the daemon uses.
public struct FileStatus: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case regularFile, directory, other
    }

    public let identity: FileIdentity
    public let kind: Kind
    public let size: Int64
    /// Nanoseconds since the epoch: with the size, the only sign of a file rewritten in place.
    public let modificationTime: Int64

    /// Throws naming the path when it cannot be examined (missing, a component not a directory,
    /// no permission).
    public init(path: String) throws(SyscallError) {
        var buffer = Glibc.stat()
        // fstatat with no flags is stat(2) by a name Swift can call: `stat(…)` means the struct.
        _ = try syscall("stat", path) { fstatat(AT_FDCWD, path, &buffer, 0) }
        // dev_t, ino_t and off_t differ in width between 32- and 64-bit ARM and x86-64.
        identity = FileIdentity(device: UInt64(truncatingIfNeeded: buffer.st_dev),
                                inode: UInt64(truncatingIfNeeded: buffer.st_ino))
        switch buffer.st_mode & S_IFMT {
        case S_IFREG: kind = .regularFile
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        size = Int64(buffer.st_size)
        modificationTime = Int64(buffer.st_mtim.tv_sec) * 1_000_000_000 + Int64(buffer.st_mtim.tv_nsec)
    }
}
