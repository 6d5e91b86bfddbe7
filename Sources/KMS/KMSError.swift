import Glibc
import DisplayCore
import Syscall

/// Why the display cannot be driven (now), as one line that names the device and says what to do,
/// plus what the caller should do about it.
public enum KMSError: DisplayError, Sendable {
    /// No /dev/dri/card* at all (no DRM driver loaded), or the named path does not exist.
    case noDevice(String)
    case notADRMDevice(path: String, SyscallError)
    case noDumbBuffers(device: String)
    /// Devices exist but no connector is connected: wait for a display to be plugged in.
    case noConnectedConnector(device: String, connectors: [String])
    case connectorNotFound(device: String, name: String, available: [String])
    case connectorDisconnected(device: String, name: String)
    case badModeSpec(String)
    case modeNotOffered(device: String, connector: String, requested: String, offered: [DisplayMode])
    case noCrtc(device: String, connector: String)
    /// EACCES/EPERM on a modeset or flip: another DRM master holds the device.
    case busy(device: String, SyscallError)
    /// ENODEV: the device went away (driver unbound, USB display unplugged).
    case vanished(device: String, SyscallError)
    case system(SyscallError)

    public var recovery: Recovery {
        switch self {
        case .noDevice, .noConnectedConnector, .connectorDisconnected, .busy: return .retry
        case .vanished: return .findDeviceAgain
        default: return .giveUp
        }
    }

    /// Turns a failed DRM call into the error a person can act on.
    public static func classify(_ error: SyscallError, device: String) -> KMSError {
        switch error.errno {
        case EACCES, EPERM: return .busy(device: device, error)
        case ENODEV, ENXIO: return .vanished(device: device, error)
        default: return .system(error)
        }
    }

    public var description: String {
        switch self {
        case .noDevice(let what):
            return "no DRM device: \(what) (is a DRM driver loaded? `pulsedot probe` lists what is there); waiting for one"
        case .notADRMDevice(let path, let e):
            return "\(path) is not a usable DRM device: \(e)"
        case .noDumbBuffers(let device):
            return "\(device): the driver offers no dumb buffers; use another device (`pulsedot probe`) or output = fbdev"
        case .noConnectedConnector(let device, let connectors):
            let list = connectors.isEmpty ? "it has no connectors" : "connectors: " + connectors.joined(separator: ", ")
            return "\(device): no display connected (\(list)); waiting for one to be plugged in"
        case .connectorNotFound(let device, let name, let available):
            return "\(device): no connector named \(name) (it has: \(available.isEmpty ? "none" : available.joined(separator: ", ")))"
        case .connectorDisconnected(let device, let name):
            return "\(device): connector \(name) has no display connected; waiting for one to be plugged in"
        case .badModeSpec(let text):
            return "mode \(text): expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1280x800 or 1920x1080@60"
        case .modeNotOffered(let device, let connector, let requested, let offered):
            let list = offered.map { $0.preferred ? "\($0) (preferred)" : "\($0)" }.joined(separator: ", ")
            return "\(device) \(connector): mode \(requested) is not offered; offered: \(list.isEmpty ? "none" : list)"
        case .noCrtc(let device, let connector):
            return "\(device): no CRTC can drive connector \(connector)"
        case .busy(let device, let e) where e.call == "open":
            // Refused at open, the device is not this process's to use: permissions or the
            // service's device cgroup, not another master (which only shows on a modeset).
            return "\(device) may not be opened by this process (open: \(e.message)); check its group (video) and the unit's DeviceAllow=; retrying"
        case .busy(let device, let e):
            return "\(device) is in use by another DRM master (\(e.call): \(e.message)); stop the other display program or switch VT; retrying"
        case .vanished(let device, let e):
            return "\(device) went away (\(e.call): \(e.message)); looking for the card again"
        case .system(let e):
            return e.description
        }
    }
}
