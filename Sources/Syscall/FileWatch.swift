import Glibc

/// One file watched through inotify for being written, replaced, created or removed: its folder is
/// watched, so a file an onboard computer writes by rename (the atomic way) is seen as well as one
/// written in place, and a file that does not exist yet is seen when it appears. Never blocks:
/// `changed()` reads what the kernel queued since the last call.
public final class FileWatch {
    public let path: String
    private let descriptor: FileDescriptor
    private let name: [UInt8]
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)

    /// Watches `path`, whose folder must exist.
    public init(path: String) throws(SyscallError) {
        self.path = path
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { $0 == path.utf8.startIndex ? "/" : String(path[..<$0]) } ?? "."
        name = Array(slash.map { path.utf8[path.utf8.index(after: $0)...] } ?? path.utf8[...])
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SyscallError(call: "inotify_init1", object: path, errno: errno) }
        descriptor = FileDescriptor(rawValue: fd, name: "inotify \(folder)")
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
        guard inotify_add_watch(fd, folder, mask) >= 0 else {
            let code = errno
            descriptor.close()
            throw SyscallError(call: "inotify_add_watch", object: folder, errno: code)
        }
    }

    deinit {
        descriptor.close()
        buffer.deallocate()
    }

    /// Whether the file was written, replaced, created or removed since the last call.
    public func changed() throws(SyscallError) -> Bool {
        var seen = false
        while true {
            guard let count = try descriptor.read(into: buffer), count > 0 else { return seen }
            // struct inotify_event: wd, mask, cookie, len (host-order 32-bit each), then len bytes
            // of name, NUL-padded.
            var offset = 0
            while offset + 16 <= count {
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                let start = offset + 16
                var end = start
                while end < start + length, end < count, buffer[end] != 0 { end += 1 }
                if end - start == name.count, buffer[start..<end].elementsEqual(name) { seen = true }
                offset = start + length
            }
        }
    }
}
