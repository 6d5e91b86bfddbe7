import Glibc

/// Runs a C library call that reports failure as a negative errno (libdrm's mode-setting calls:
/// `drmModeSetCrtc`, `drmModePageFlip`, `drmModeDirtyFB`, …), retrying EINTR, and turns a failure
/// into a `SyscallError` naming the call and its object. Older libdrm versions return -1 and leave
/// the code in errno; -1 reads the same either way (errno then holds EPERM or the real code).
@inlinable
@discardableResult
public func negativeErrnoCall(_ call: String, _ object: @autoclosure () -> String,
                              _ body: () -> Int32) throws(SyscallError) -> Int32 {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = result == -1 ? Glibc.errno : -result
        if code == EINTR { continue }
        throw SyscallError(call: call, object: object(), errno: code)
    }
}

/// For C library calls that return NULL and set errno (`drmModeGetResources`, `opendir`, …).
@inlinable
public func pointerCall<T>(_ call: String, _ object: @autoclosure () -> String,
                           _ body: () -> T?) throws(SyscallError) -> T {
    while true {
        Glibc.errno = 0
        if let result = body() { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        // Some libraries return NULL without setting errno (libdrm on a short allocation).
        throw SyscallError(call: call, object: object(), errno: code == 0 ? ENOMEM : code)
    }
}
