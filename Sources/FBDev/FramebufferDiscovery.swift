import Glibc
import Syscall

public enum FramebufferDiscovery {
    /// The framebuffer nodes in `directory`, in number order (fb2 before fb10).
    public static func paths(in directory: String = "/dev") -> [String] {
        // A directory that is missing or may not be listed simply has no framebuffers.
        let names = (try? Directory.entries(directory)) ?? []
        let numbers = names.compactMap { name in name.hasPrefix("fb") ? Int(name.dropFirst(2)) : nil }
        return numbers.sorted().map { "\(directory)/fb\($0)" }
    }

    /// Opens the configured framebuffer device, turning open failures into what to do about them.
    public static func openDevice(_ path: String) throws(FBDevError) -> LinuxFramebuffer {
        do {
            return try LinuxFramebuffer(path: path)
        } catch {
            switch error.errno {
            case ENOENT, ENXIO, ENODEV: throw .noDevice(path: path, error)
            case EACCES, EPERM: throw .permission(path: path, error)
            default: throw .system(error)
            }
        }
    }

    /// Opens and prepares the configured framebuffer (nothing is shown until `start()`).
    public static func open(_ configuration: FBDevConfiguration, log: @escaping (String) -> Void = { _ in },
                            opener: (String) throws(FBDevError) -> FramebufferDevice = { (p) throws(FBDevError) in try openDevice(p) })
        throws(FBDevError) -> FBDevOutput {
        let device = try opener(configuration.device)
        do {
            return try FBDevOutput(device: device, configuration: configuration, log: log)
        } catch {
            device.close()
            throw error
        }
    }
}
