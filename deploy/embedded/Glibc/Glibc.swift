// The names the daemon takes from the hosted toolchain's Glibc overlay, for the Embedded build:
// the C headers re-exported, plus the few Swift wrappers the overlay adds over them (errno as a
// variable, the variadic calls, the pointer macros Swift cannot import).
@_exported import CGlibc

public var errno: Int32 {
    get { _pulsedot_errno().pointee }
    set { _pulsedot_errno().pointee = newValue }
}

public func open(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { _pulsedot_open(path, flags, 0) }
public func open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 { _pulsedot_open(path, flags, mode) }
public func openat(_ dir: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { _pulsedot_openat(dir, path, flags, 0) }
public func openat(_ dir: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    _pulsedot_openat(dir, path, flags, mode)
}
public func fcntl(_ fd: Int32, _ command: Int32) -> Int32 { _pulsedot_fcntl(fd, command) }
public func fcntl(_ fd: Int32, _ command: Int32, _ value: Int32) -> Int32 { _pulsedot_fcntl_int(fd, command, value) }
public func ioctl(_ fd: Int32, _ request: UInt, _ value: Int32) -> Int32 { _pulsedot_ioctl_int(fd, request, value) }
public func ioctl(_ fd: Int32, _ request: UInt, _ value: UnsafeMutableRawPointer?) -> Int32 {
    _pulsedot_ioctl_pointer(fd, request, value)
}
public func ioctl(_ fd: Int32, _ request: UInt) -> Int32 { _pulsedot_ioctl(fd, request) }

public var MAP_FAILED: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: -1) }

// The file-type bits as mode_t, as the hosted overlay declares them (the C macros import as Int32).
public var S_IFMT: mode_t { mode_t(0o170000) }
public var S_IFDIR: mode_t { mode_t(0o040000) }
public var S_IFREG: mode_t { mode_t(0o100000) }
public var S_IFCHR: mode_t { mode_t(0o020000) }
public var S_IFBLK: mode_t { mode_t(0o060000) }
public var S_IFIFO: mode_t { mode_t(0o010000) }
public var S_IFSOCK: mode_t { mode_t(0o140000) }

public var environ: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { _pulsedot_environ() }

/// The program's arguments, as the hosted standard library's CommandLine gives them.
public enum CommandLine {
    public static var arguments: [String] {
        (0..<Int(_pulsedot_argument_count())).map { String(cString: _pulsedot_argument(Int32($0))) }
    }
}
