import Syscall

/// An ambient-light sensor of the Industrial I/O subsystem (/sys/bus/iio/devices/iio:deviceN):
/// `in_illuminance_input` in lux where the driver converts, else `in_illuminance_raw` with its
/// `_offset` and `_scale` as the IIO ABI defines them: lux = (raw + offset) × scale.
public struct LightSensor: Equatable, Sendable {
    public let name: String
    let folder: String

    public static let busFolder = "bus/iio/devices"

    /// The device `name` names, or (nil) the first by name with an illuminance channel.
    public static func find(_ name: String?, in sysfs: Sysfs) throws(BacklightProblem) -> LightSensor {
        let bus = sysfs.path(busFolder)
        if let name {
            let folder = bus + "/" + name
            guard hasIlluminance(folder) else {
                throw BacklightProblem("\(folder): no light sensor there (neither in_illuminance_input nor in_illuminance_raw)")
            }
            return LightSensor(name: name, folder: folder)
        }
        let names: [String]
        do { names = try sysfs.names(in: busFolder) } catch { throw BacklightProblem(error) }
        guard let found = names.first(where: { hasIlluminance(bus + "/" + $0) }) else {
            throw BacklightProblem("no light sensor in \(bus) (no IIO device with in_illuminance_input or in_illuminance_raw)")
        }
        return LightSensor(name: found, folder: bus + "/" + found)
    }

    static func hasIlluminance(_ folder: String) -> Bool {
        Sysfs.exists(folder + "/in_illuminance_input") || Sysfs.exists(folder + "/in_illuminance_raw")
    }

    /// The light now, in lux (a sensor unplugged, or its driver unbound, fails naming the file).
    public func lux() throws(BacklightProblem) -> Double {
        let input = folder + "/in_illuminance_input"
        if Sysfs.exists(input) { return try number(input) }
        let raw = try number(folder + "/in_illuminance_raw")
        let offset = Sysfs.exists(folder + "/in_illuminance_offset") ? try number(folder + "/in_illuminance_offset") : 0
        let scale = Sysfs.exists(folder + "/in_illuminance_scale") ? try number(folder + "/in_illuminance_scale") : 1
        return Swift.max(0, (raw + offset) * scale)
    }

    private func number(_ path: String) throws(BacklightProblem) -> Double {
        let text: String
        do { text = try Sysfs.readText(path) } catch { throw BacklightProblem(error) }
        guard let value = Double(text), value.isFinite else {
            throw BacklightProblem("\(path): '\(text)' is not a number")
        }
        return value
    }
}
