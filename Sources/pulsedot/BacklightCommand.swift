import Backlight
import Config
import Syscall

/// `pulsedot backlight [--config FILE] [--set …] [--drop-in]`: the backlights and light sensors
/// the daemon could drive and follow, which ones the configuration picks, and the systemd drop-in
/// the board needs for the service to write its backlight.
let backlightUsage = Usage(
    command: "backlight", summary: "list backlights and light sensors; print the service's drop-in for the backlight",
    options: [
        .config,
        .set,
        .flag("drop-in", "print only the systemd drop-in that lets pulsedot.service write the chosen backlight (\(BacklightDropIn.path))"),
    ],
    notes: """
        Reads /sys/class/backlight and /sys/bus/iio/devices (under $\(Sysfs.rootVariable) when set). Exit 1
        when the configured backlight is not there. The drop-in goes to \(BacklightDropIn.path) (make its
        folder first); then systemctl daemon-reload and systemctl restart pulsedot.
        """)

func backlightCommand(_ parsed: Arguments) -> Int32 {
    guard parsed.positional.isEmpty else { return fail("backlight: unexpected argument '\(parsed.positional[0])'") }
    let settings: BrightnessSettings
    do { settings = try serviceConfiguration(parsed).settings.display.brightness } catch { return fail("backlight: \(error)") }
    let sysfs = Sysfs.fromEnvironment()
    let chosen: BacklightDevice
    do {
        chosen = try BacklightDevice.find(settings.backlight, in: sysfs)
    } catch {
        if parsed.has("drop-in") {
            writeError("pulsedot: backlight: \(error)\n")
            return 1
        }
        print("backlight: none usable: \(error)")
        printSensors(settings, sysfs: sysfs)
        return 1
    }
    if parsed.has("drop-in") {
        print(BacklightDropIn.text(for: chosen), terminator: "")
        return 0
    }
    let names = (try? Directory.entries(sysfs.path(BacklightDevice.classFolder)).sorted()) ?? [chosen.name]
    for name in names {
        guard let device = try? BacklightDevice.find(name, in: sysfs) else { continue }
        let now = (try? device.current()).flatMap { $0 }.map { "\($0)" } ?? "unreadable"
        let mark = name == chosen.name ? "  (chosen: [display] backlight = \(settings.backlight ?? "auto"))" : ""
        print("backlight \(name): brightness \(now) of max_brightness \(device.maxBrightness)\(mark)")
    }
    printSensors(settings, sysfs: sysfs)
    print("the service writes \(chosen.unitPath) through the drop-in `pulsedot backlight --drop-in` prints (\(BacklightDropIn.path))")
    return 0
}

private func printSensors(_ settings: BrightnessSettings, sysfs: Sysfs) {
    do {
        let sensor = try LightSensor.find(settings.ambientSensor, in: sysfs)
        let light: String
        do { light = "\(formatNumber(try sensor.lux())) lx" } catch { light = "unreadable (\(error))" }
        print("light sensor \(sensor.name): \(light)  ([display] ambientSensor = \(settings.ambientSensor ?? "auto"))")
    } catch {
        print("light sensor: \(error)")
    }
}
