import Glibc
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
    /// FBIOBLANK: powers the screen down (`true`) or up again. EINVAL: the driver cannot (efifb,
    /// simplefb).
    func setBlanked(_ blanked: Bool) throws(SyscallError)
    /// Unmaps (if mapped) and closes the device.
    func close()
}

extension FramebufferDevice {
    /// Both screen informations, for the output and the probe alike. ENOTTY or EINVAL here means
    /// the node is no framebuffer; other failures are classified against the device's path.
    func screenInfo() throws(FBDevError) -> (VariableScreenInfo, FixedScreenInfo) {
        do {
            return (try variableInfo(), try fixedInfo())
        } catch {
            if error.errno == ENOTTY || error.errno == EINVAL { throw .notAFramebuffer(path: path, error) }
            throw FBDevError.classify(error, device: path)
        }
    }

    /// Whether FBIO_WAITFORVSYNC really waits for a vblank. The first wait ends at one, so each
    /// later one lasts a whole frame where the driver really waits; DRM's fbdev emulation answers
    /// at once on drivers without a vblank interrupt (bochs, cirrus). The shortest of three
    /// decides, so a busy machine that delays one answer does not pass for a vblank. Four waits:
    /// up to four frames.
    func vsyncWaitsForAFrame(clock: () -> Int64) throws(SyscallError) -> Bool {
        try waitForVSync()
        var shortest = Int64.max
        for _ in 0..<vsyncProbeWaits {
            let begin = clock()
            try waitForVSync()
            shortest = min(shortest, clock() - begin)
        }
        return shortest >= shortestFrameNanoseconds
    }
}

/// Under a millisecond between two vblanks is no vblank (no panel refreshes at 1000 Hz).
let shortestFrameNanoseconds: Int64 = 1_000_000

/// Waits timed after the first when asking whether FBIO_WAITFORVSYNC waits (the shortest decides).
let vsyncProbeWaits = 3
