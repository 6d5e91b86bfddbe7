import Glibc

/// A failed system call: which call, on what object, and the errno it returned.
/// Its description is one line a person can act on, e.g.
/// `open /dev/dri/card0: No such file or directory (errno 2)`.
public struct SyscallError: Error, Equatable, CustomStringConvertible, Sendable {
    public let call: String
    public let object: String
    public let errno: Int32
    /// Said instead of the C library's text where the call succeeded but what it found is wrong
    /// ("a FIFO, not a regular file").
    public let detail: String?

    public init(call: String, object: String, errno: Int32, detail: String? = nil) {
        self.call = call
        self.object = object
        self.errno = errno
        self.detail = detail
    }

    /// The C library's text for this error ("No such file or directory"), or the detail.
    public var message: String { detail ?? Self.message(errno: errno) }

    /// The C library's text for any errno, for messages that report a code without a failed call
    /// of their own (a probe's "unknown (Input/output error)"). The one place strerror is called.
    public static func message(errno code: Int32) -> String { String(cString: strerror(code)) }

    public var description: String {
        if let detail { return object.isEmpty ? "\(call): \(detail)" : "\(call) \(object): \(detail)" }
        return object.isEmpty ? "\(call): \(message) (errno \(errno))" : "\(call) \(object): \(message) (errno \(errno))"
    }
}

/// Runs a raw system call, retrying while it fails with EINTR, and turns -1 into a `SyscallError`
/// naming the call and the object it acted on.
@inlinable
public func syscall<T: BinaryInteger>(_ call: String, _ object: @autoclosure () -> String,
                                     _ body: () -> T) throws(SyscallError) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw SyscallError(call: call, object: object(), errno: code)
    }
}
