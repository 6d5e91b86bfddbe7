import Syscall

/// Where the loop hears that displays came or went: the kernel's uevents for DRM devices, or, in
/// tests, a script.
public protocol HotplugEvents: AnyObject {
    /// Readable when something arrived.
    var descriptor: Int32 { get }
    /// The DRM uevents that arrived, and `.overflow` when some were lost.
    func take() -> [UeventSocket.Received]
}

/// The kernel's uevents, DRM ones only.
public final class KernelHotplug: HotplugEvents {
    private let socket: UeventSocket

    public init() throws(SyscallError) { socket = try UeventSocket() }

    public var descriptor: Int32 { socket.descriptor.rawValue }

    public func take() -> [UeventSocket.Received] {
        // A failing receive is a socket gone wrong: lost events, so everything is looked at again.
        guard let all = try? socket.receive() else { return [.overflow] }
        return all.filter {
            if case .event(let e) = $0 { return e.subsystem == "drm" }
            return true
        }
    }
}

extension Uevent {
    /// Whether this event is about the card at `device` ("/dev/dri/card0"): the card itself
    /// (DEVNAME dri/card0) or one of its connectors (…/drm/card0/card0-HDMI-A-1).
    public func concerns(device: String) -> Bool {
        let card = device.split(separator: "/").last.map(String.init) ?? device
        if let devname, "/dev/" + devname == device || devname.split(separator: "/").last.map(String.init) == card { return true }
        let last = devpath.split(separator: "/").last.map(String.init) ?? ""
        return last == card || last.hasPrefix(card + "-")
    }
}
