import Config
import Syscall

/// One backlight in /sys/class/backlight: its name, its `max_brightness`, and its `brightness`
/// attribute, written in the device's own steps.
public struct BacklightDevice: Equatable, Sendable {
    public let name: String
    public let maxBrightness: Int
    /// The attribute as this process reaches it (under the sysfs root).
    public let brightnessPath: String

    public static let classFolder = "class/backlight"

    /// The attribute as the service's drop-in names it: ReadWritePaths= resolves the class link
    /// to the device's own folder when the unit starts, and takes no globs.
    public var unitPath: String { "/sys/\(Self.classFolder)/\(name)/brightness" }

    /// The device `name` names, or (nil) the only one, or the first by name.
    public static func find(_ name: String?, in sysfs: Sysfs) throws(BacklightProblem) -> BacklightDevice {
        let folder = sysfs.path(classFolder)
        let chosen: String
        if let name {
            chosen = name
        } else {
            let names: [String]
            do { names = try sysfs.names(in: classFolder) } catch { throw BacklightProblem(error) }
            guard let first = names.first else {
                throw BacklightProblem("no backlight in \(folder) (the panel's driver has none, or is not loaded yet)")
            }
            chosen = first
        }
        let device = folder + "/" + chosen
        guard Directory.isDirectory(device) else {
            let present = (try? sysfs.names(in: classFolder)) ?? []
            throw BacklightProblem("no backlight \(chosen) in \(folder) (there: \(present.isEmpty ? "none" : present.joined(separator: ", ")))")
        }
        let maxText: String
        do { maxText = try Sysfs.readText(device + "/max_brightness") } catch { throw BacklightProblem(error) }
        guard let max = Int(maxText), max > 0 else {
            throw BacklightProblem("\(device)/max_brightness: '\(maxText)' is not a positive number of steps")
        }
        return BacklightDevice(name: chosen, maxBrightness: max, brightnessPath: device + "/brightness")
    }

    /// The device's steps for a level in whole percent; any level above 0 keeps the light on.
    public func steps(percent: Int) -> Int {
        guard percent > 0 else { return 0 }
        return Swift.max(1, Swift.min(maxBrightness, (percent * maxBrightness + 50) / 100))
    }

    public func write(percent: Int) throws(SyscallError) {
        try Sysfs.writeText(String(steps(percent: percent)) + "\n", to: brightnessPath)
    }

    /// What the attribute holds now, in the device's steps.
    public func current() throws(SyscallError) -> Int? {
        Int(try Sysfs.readText(brightnessPath))
    }
}
