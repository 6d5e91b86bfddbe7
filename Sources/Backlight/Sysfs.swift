import Glibc
import Syscall

/// Where sysfs is: /sys on a board, a folder shaped like it in the tests (QEMU's machines have no
/// backlight), set by `$PULSEDOT_SYSFS_ROOT`. The small attribute files read and written here.
public struct Sysfs: Sendable, Equatable {
    public static let rootVariable = "PULSEDOT_SYSFS_ROOT"

    public let root: String

    public init(root: String = "/sys") {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
    }

    /// `$PULSEDOT_SYSFS_ROOT`, else /sys.
    public static func fromEnvironment() -> Sysfs {
        guard let root = Environment.value(rootVariable), !root.isEmpty else { return Sysfs() }
        return Sysfs(root: root)
    }

    public func path(_ relative: String) -> String { root + "/" + relative }

    /// The names in a folder, sorted (readdir's order differs between file systems); a missing
    /// folder has none.
    func names(in relative: String) throws(SyscallError) -> [String] {
        do {
            return try Directory.entries(path(relative)).sorted()
        } catch {
            if error.errno == ENOENT { return [] }
            throw error
        }
    }

    /// An attribute's text without its line end.
    static func readText(_ path: String) throws(SyscallError) -> String {
        let bytes = try FileDescriptor.readWholeFile(path, limit: 4096)
        var text = Substring(String(decoding: bytes, as: UTF8.self))
        while let last = text.last, last == "\n" || last == " " || last == "\t" { text = text.dropLast() }
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        return String(text)
    }

    /// An attribute replaced by `text`, as `echo N > FILE` does it (never created: a missing
    /// attribute is an error, not a new file).
    static func writeText(_ text: String, to path: String) throws(SyscallError) {
        let fd = try FileDescriptor.open(path, O_WRONLY | O_TRUNC)
        defer { fd.close() }
        _ = try text.withUTF8Bytes { bytes throws(SyscallError) in try fd.write(bytes) }
    }

    static func exists(_ path: String) -> Bool { (try? FileStatus(path: path)) != nil }
}

/// Why the backlight or the light sensor cannot be used now, as one line naming the file.
public struct BacklightProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    /// The errno behind it, when a system call failed (EROFS, EACCES: the unit's sandbox).
    public let errno: Int32?

    public init(_ description: String, errno: Int32? = nil) {
        self.description = description
        self.errno = errno
    }

    init(_ error: SyscallError) {
        self.init(error.description, errno: error.errno)
    }
}
