import DisplayCore
import Glibc
import Syscall

/// How frames reach the panel.
public enum UpdateStrategy: String, Sendable {
    /// Two dumb buffers and page flips with events; the back buffer gets this and the previous
    /// frame's damage.
    case flip
    /// One scanned-out buffer, damage copied in place and flushed with DirtyFB's tight clips
    /// (SPI/USB panels, virtual GPUs: a page flip there pushes the whole frame).
    case damage

    /// What the card showed when asked: a vblank wait (0 = it worked, else the errno) and a
    /// DirtyFB call (0 = supported, else the errno, ENOSYS = none).
    public static func choose(_ mode: UpdateMode, vblankErrno: Int32, dirtyErrno: Int32) -> (UpdateStrategy, reason: String) {
        func why(_ code: Int32) -> String { SyscallError.message(errno: code) }
        switch mode {
        case .flip:
            return (.flip, "update = flip (configured)")
        case .damage:
            if dirtyErrno != 0 {
                return (.damage, "update = damage (configured), but DirtyFB fails (\(why(dirtyErrno))): changes show only if the driver scans the buffer out directly")
            }
            return (.damage, "update = damage (configured)")
        case .auto:
            if vblankErrno == 0 {
                return (.flip, "update = auto chose flip: the CRTC has a working vblank")
            }
            if dirtyErrno == 0 {
                return (.damage, "update = auto chose damage: no vblank on this CRTC (\(why(vblankErrno))) and the driver takes DirtyFB")
            }
            return (.flip, "update = auto chose flip: no vblank (\(why(vblankErrno))) and no DirtyFB (\(why(dirtyErrno))); a timer paces frames")
        }
    }
}
