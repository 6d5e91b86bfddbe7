import Glibc

/// `ioctl(2)` through the one error path: a failure names the request ("ioctl KDSETMODE") and the
/// device it was sent to, because "Inappropriate ioctl for device" alone tells nobody which of a
/// dozen requests on which of several devices went wrong.
extension FileDescriptor {
    /// A request whose argument is a plain integer passed by value (KDSETMODE, VT_ACTIVATE, …).
    @discardableResult
    public func ioctl(_ request: UInt, _ requestName: String, value: Int32) throws(SyscallError) -> Int32 {
        let fd = rawValue
        return try syscall("ioctl " + requestName, name) { Glibc.ioctl(fd, request, value) }
    }

    /// A request that reads or fills a structure in place (FBIOGET_VSCREENINFO, FIONREAD, …).
    /// `T` must be the exact C layout the request expects; the kernel copies `MemoryLayout<T>.size`
    /// bytes as encoded in the request number, not as Swift knows it.
    @discardableResult
    public func ioctl<T>(_ request: UInt, _ requestName: String, _ argument: inout T) throws(SyscallError) -> Int32 {
        let fd = rawValue
        return try withUnsafeMutablePointer(to: &argument) { (pointer) throws(SyscallError) -> Int32 in
            try syscall("ioctl " + requestName, name) { Glibc.ioctl(fd, request, UnsafeMutableRawPointer(pointer)) }
        }
    }
}
