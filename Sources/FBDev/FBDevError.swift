import Glibc
import DisplayCore
import Syscall

/// Why a framebuffer cannot be driven (now), as one line that names the device and says what to
/// do, plus whether waiting can help.
public enum FBDevError: DisplayError, Sendable {
    /// The device node is not there (no fbdev driver loaded yet, a display not plugged in).
    case noDevice(path: String, SyscallError)
    /// The process may not open it.
    case permission(path: String, SyscallError)
    /// The node answers, but not as a framebuffer (ENOTTY on FBIOGET_VSCREENINFO).
    case notAFramebuffer(path: String, SyscallError)
    /// A pixel layout PulseDot does not write (planar, palette, grey, RGB555, 24 bpp, …).
    case unsupportedLayout(device: String, layout: String)
    /// The driver's numbers do not add up (memory shorter than its rows, a stride too short).
    case inconsistent(device: String, detail: String)
    /// EBUSY on a pan: a DRM master holds the card behind an emulated framebuffer.
    case busy(device: String, SyscallError)
    /// ENODEV/ENXIO: the driver went away.
    case vanished(device: String, SyscallError)
    case system(SyscallError)

    public var recovery: Recovery {
        switch self {
        case .noDevice, .busy, .vanished: return .retry
        default: return .giveUp
        }
    }

    /// Turns a failed framebuffer call into what the caller should do.
    public static func classify(_ error: SyscallError, device: String) -> FBDevError {
        switch error.errno {
        case EBUSY: return .busy(device: device, error)
        case ENODEV, ENXIO: return .vanished(device: device, error)
        default: return .system(error)
        }
    }

    public var description: String {
        switch self {
        case .noDevice(let path, let e):
            return "no framebuffer at \(path) (\(e.message)): is an fbdev driver loaded? (`pulsedot probe` lists what is there); waiting for it"
        case .permission(let path, let e):
            return "\(path): \(e.message): the user needs the video group (or DeviceAllow=char-fb rw in the unit)"
        case .notAFramebuffer(let path, let e):
            return "\(path) is not a framebuffer device (\(e.call): \(e.message))"
        case .unsupportedLayout(let device, let layout):
            return "\(device): pixel layout \(layout) is not supported; PulseDot writes XRGB8888, XBGR8888 (32 bpp) and RGB565, BGR565 (16 bpp) truecolor framebuffers (set another depth with fbset or the video= kernel option, or use output = kms)"
        case .inconsistent(let device, let detail):
            return "\(device): the driver's screen information does not add up: \(detail)"
        case .busy(let device, let e):
            return "\(device) is held by a DRM master (\(e.call): \(e.message)); stop the other display program; retrying"
        case .vanished(let device, let e):
            return "\(device) went away (\(e.call): \(e.message)); waiting for it to come back"
        case .system(let e):
            return e.description
        }
    }
}
