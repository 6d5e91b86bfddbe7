import Syscall

/// The narrow seam between the output logic and the kernel: every framebuffer call PulseDot makes.
/// `LinuxFramebuffer` talks to /dev/fb*; the unit tests use an in-memory device. Failures are
/// `SyscallError`s naming the call; `FBDevError.classify` says what to do about them.
public protocol FramebufferDevice: AnyObject {
    /// The device path ("/dev/fb0"), for every message.
    var path: String { get }
    /// FBIOGET_VSCREENINFO.
    func variableInfo() throws(SyscallError) -> VariableScreenInfo
    /// FBIOGET_FSCREENINFO.
    func fixedInfo() throws(SyscallError) -> FixedScreenInfo
    /// Maps the first `length` bytes of framebuffer memory, shared. PulseDot only ever writes it.
    func map(length: Int) throws(SyscallError) -> UnsafeMutableRawPointer
    /// FBIOPAN_DISPLAY: show the virtual screen from (`xoffset`, `yoffset`) on.
    func pan(xoffset: Int, yoffset: Int) throws(SyscallError)
    /// FBIO_WAITFORVSYNC on the first CRTC: returns after the next vertical blank. ENOTTY, EINVAL
    /// or EOPNOTSUPP: the driver cannot tell.
    func waitForVSync() throws(SyscallError)
    /// Unmaps (if mapped) and closes the device.
    func close()
}
