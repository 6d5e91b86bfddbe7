import Backlight
import Foundation
import Glibc
import Syscall
import TestSupport
import XCTest

/// A folder shaped like sysfs (QEMU's machines offer no backlight): backlights found by name or
/// as the first, percent written in the device's steps, a sensor read in lux, and each failure as
/// one line naming the file.
final class SysfsTreeTests: XCTestCase {
    var root: URL!
    var sysfs: Sysfs { Sysfs(root: root.path) }

    override func setUpWithError() throws {
        root = try TestEnvironment.temporaryDirectory("sysfs")
        addTeardownBlock { [root] in try? FileManager.default.removeItem(at: root!) }
    }

    func put(_ relative: String, _ text: String) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    func backlight(_ name: String, max: Int, now: Int = 0) throws {
        try put("class/backlight/\(name)/max_brightness", "\(max)\n")
        try put("class/backlight/\(name)/brightness", "\(now)\n")
    }

    func testBacklightsByNameOrTheFirstAndPercentInTheirSteps() throws {
        XCTAssertThrowsError(try BacklightDevice.find(nil, in: sysfs)) { error in
            XCTAssertEqual("\(error)", "no backlight in \(self.root.path)/class/backlight (the panel's driver has none, or is not loaded yet)")
        }
        try backlight("rpi_backlight", max: 255, now: 255)
        try backlight("10-0045", max: 31)
        let first = try BacklightDevice.find(nil, in: sysfs)
        XCTAssertEqual(first.name, "10-0045", "the first by name")
        XCTAssertEqual(first.unitPath, "/sys/class/backlight/10-0045/brightness")
        let pi = try BacklightDevice.find("rpi_backlight", in: sysfs)
        XCTAssertEqual(pi.maxBrightness, 255)
        XCTAssertEqual([0, 1, 20, 50, 100].map(pi.steps(percent:)), [0, 3, 51, 128, 255])
        XCTAssertEqual([0, 1, 2, 50, 100].map(first.steps(percent:)), [0, 1, 1, 16, 31], "any level above 0 keeps the light on")
        try pi.write(percent: 20)
        XCTAssertEqual(try read("class/backlight/rpi_backlight/brightness"), "51\n")
        XCTAssertEqual(try pi.current(), 51)
        XCTAssertThrowsError(try BacklightDevice.find("backlight-lvds", in: sysfs)) { error in
            XCTAssertEqual("\(error)", "no backlight backlight-lvds in \(self.root.path)/class/backlight (there: 10-0045, rpi_backlight)")
        }
        try put("class/backlight/broken/max_brightness", "0\n")
        XCTAssertThrowsError(try BacklightDevice.find("broken", in: sysfs)) { error in
            XCTAssertEqual("\(error)", "\(self.root.path)/class/backlight/broken/max_brightness: '0' is not a positive number of steps")
        }
    }

    func testAWriteIsNeverACreate() throws {
        try put("class/backlight/pwm/max_brightness", "7\n")
        let device = try BacklightDevice.find(nil, in: sysfs)
        XCTAssertThrowsError(try device.write(percent: 50)) { error in
            XCTAssertEqual((error as? SyscallError)?.errno, ENOENT)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: device.brightnessPath))
    }

    func testLightSensorsInLux() throws {
        XCTAssertThrowsError(try LightSensor.find(nil, in: sysfs)) { error in
            XCTAssertEqual("\(error)", "no light sensor in \(self.root.path)/bus/iio/devices (no IIO device with in_illuminance_input or in_illuminance_raw)")
        }
        try put("bus/iio/devices/iio:device0/in_temp_raw", "20\n")
        try put("bus/iio/devices/iio:device1/in_illuminance_raw", "300\n")
        try put("bus/iio/devices/iio:device1/in_illuminance_scale", "0.5\n")
        try put("bus/iio/devices/iio:device1/in_illuminance_offset", "-100\n")
        try put("bus/iio/devices/iio:device2/in_illuminance_input", "1234.5\n")
        let raw = try LightSensor.find(nil, in: sysfs)
        XCTAssertEqual(raw.name, "iio:device1", "the first with an illuminance channel")
        XCTAssertEqual(try raw.lux(), 100, "(raw + offset) × scale")
        XCTAssertEqual(try LightSensor.find("iio:device2", in: sysfs).lux(), 1234.5)
        XCTAssertThrowsError(try LightSensor.find("iio:device0", in: sysfs))
        try FileManager.default.removeItem(at: root.appendingPathComponent("bus/iio/devices/iio:device1"))
        XCTAssertThrowsError(try raw.lux()) { error in
            XCTAssertEqual("\(error)", "open \(self.root.path)/bus/iio/devices/iio:device1/in_illuminance_raw: No such file or directory (errno 2)",
                           "a sensor gone is one line naming its file")
        }
    }

    func testOneExchange() throws {
        try backlight("lvds", max: 100, now: 100)
        try put("bus/iio/devices/iio:device0/in_illuminance_input", "42\n")
        let answer = BacklightAnswer.exchange(BacklightRequest(backlight: nil, readSensor: true, sensor: nil, percent: 35), sysfs: sysfs)
        XCTAssertEqual(try answer.device.get().name, "lvds")
        XCTAssertEqual(try answer.light?.get().lux, 42)
        XCTAssertEqual(try answer.written?.get(), 35)
        XCTAssertEqual(try read("class/backlight/lvds/brightness"), "35\n")
        let none = BacklightAnswer.exchange(BacklightRequest(backlight: "gone", readSensor: false, sensor: nil, percent: 35), sysfs: sysfs)
        XCTAssertThrowsError(try none.device.get())
        XCTAssertNil(none.written, "no device: nothing is tried")
        XCTAssertNil(none.light)
    }

    func testTheRootComesFromTheEnvironment() {
        setenv(Sysfs.rootVariable, "/tmp/fake-sys/", 1)
        XCTAssertEqual(Sysfs.fromEnvironment().path("class/backlight"), "/tmp/fake-sys/class/backlight")
        unsetenv(Sysfs.rootVariable)
        XCTAssertEqual(Sysfs.fromEnvironment().root, "/sys")
    }

    func testTheDropInNamesTheAttributeUnderSys() throws {
        try backlight("10-0045", max: 255)
        let text = BacklightDropIn.text(for: try BacklightDevice.find(nil, in: sysfs))
        XCTAssertTrue(text.contains("\n[Service]\n"), text)
        XCTAssertTrue(text.contains("\nReadWritePaths=-/sys/class/backlight/10-0045/brightness\n"), text)
        XCTAssertFalse(text.contains(root.path), "the drop-in is for the board's /sys, whatever the root here")
    }
}
