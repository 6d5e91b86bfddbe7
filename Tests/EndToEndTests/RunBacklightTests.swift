import Foundation
import Glibc
import TestSupport
import XCTest

/// `pulsedot run` driving a backlight in a folder shaped like sysfs ($PULSEDOT_SYSFS_ROOT; QEMU's
/// machines have none): the level, the dimming spans, the light sensor through the curve after a
/// reload, the metric, and what happens when the attribute is read-only or the sensor goes.
final class RunBacklightTests: XCTestCase {
    private var dir: URL!
    private var sys: URL { dir.appendingPathComponent("sys") }
    private var brightness: URL { sys.appendingPathComponent("class/backlight/10-0045/brightness") }
    private var lux: URL { sys.appendingPathComponent("bus/iio/devices/iio:device0/in_illuminance_input") }

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("run-backlight")
        try put(sys.appendingPathComponent("class/backlight/10-0045/max_brightness"), "255\n")
        try put(brightness, "255\n")
        try put(sys.appendingPathComponent("class/backlight/10-0045/actual_brightness"), "255\n")
        try put(lux, "20\n")
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    private func put(_ url: URL, _ text: String) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    private func config(_ brightnessKeys: String) -> String {
        """
        [source]
        position = 45.50845,-73.56857
        \(ConfigSnippet.pngDisplay(dir.appendingPathComponent("frames").path, mode: "320x240", fps: 10, pngFps: 2))
        \(brightnessKeys)
        [metrics]
        textfile = \(dir.appendingPathComponent("pulsedot.prom").path)
        every = 1
        """
    }

    private func waitForBrightness(_ value: String, _ daemon: RunningDaemon, timeout: Double = 20) throws {
        var seen = ""
        let ok = ChildProcess.waitUntil(timeout: timeout) {
            seen = (try? String(contentsOf: brightness, encoding: .utf8)) ?? ""
            return seen == value + "\n"
        }
        guard ok else { throw TestFailure("brightness stayed '\(seen)', not \(value), within \(timeout) s; log:\n\(daemon.log)") }
    }

    private func metric(_ name: String) -> Double? {
        let text = (try? String(contentsOf: dir.appendingPathComponent("pulsedot.prom"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
    }

    func testLevelDimmingAndTheSensorThroughTheCurve() throws {
        let env = ["PULSEDOT_SYSFS_ROOT": sys.path]
        // The span covers the whole day, so the dimming level is the one written whatever the time.
        let daemon = try RunningDaemon(config: config("""
            brightness = 80
            dim = 00:00-24:00 30%
            brightnessSmoothing = 0
            """), in: dir, environment: env)
        // 30 % of 255 steps.
        try waitForBrightness("77", daemon)
        try daemon.waitForLog("brightness: backlight 10-0045 (max_brightness 255) set to 30 %")
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 10) { self.metric("pulsedot_backlight_brightness_percent") == 30 }, daemon.log)

        // Reloaded to follow the sensor: 20 lx on 0:10,100:90 is 26 %, 66 steps (rounded).
        try daemon.rewrite(config("""
            brightness = ambient
            ambientCurve = 0:10,100:90
            brightnessSmoothing = 0
            """))
        daemon.child.signal(SIGHUP)
        try waitForBrightness("66", daemon)
        try put(lux, "75.5\n")
        // 75.5 lx: 70.4 %, written as 70 % = 179 steps.
        try waitForBrightness("179", daemon)
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 10) { self.metric("pulsedot_backlight_brightness_percent") == 70 }, daemon.log)

        // The sensor unplugged: one line, the level holds, the dot goes on.
        try FileManager.default.removeItem(at: lux.deletingLastPathComponent())
        try daemon.waitForLog("brightness: light sensor: no light sensor in \(sys.path)/bus/iio/devices")
        let frames = daemon.frames(in: dir.appendingPathComponent("frames")).count
        try daemon.waitForFrames(in: dir.appendingPathComponent("frames"), "frames after the sensor went") { $0.count > frames + 3 }
        XCTAssertEqual(daemon.log.components(separatedBy: "brightness: light sensor:").count - 1, 1, daemon.log)
        XCTAssertEqual(try String(contentsOf: brightness, encoding: .utf8), "179\n")
        // Back: said once, followed again.
        try put(lux, "0\n")
        try waitForBrightness("26", daemon)
        try daemon.waitForLog("brightness: light sensor iio:device0 read again")
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
    }

    /// The unit's ProtectKernelTunables=yes in miniature: the attribute on a read-only bind mount
    /// in a mount namespace of the daemon's own, so a write fails with EROFS as it would on a board
    /// without the drop-in.
    func testAReadOnlyAttributeIsSaidOnceAndTheDotGoesOn() throws {
        guard runProgram2("/usr/bin/unshare", ["-m", "true"]) == 0 else {
            throw XCTSkip("unshare -m is not allowed here (needs root, or user namespaces)")
        }
        let configPath = dir.appendingPathComponent("pulsedot.conf").path
        try config("brightness = 50\nbrightnessSmoothing = 0").write(toFile: configPath, atomically: true, encoding: .utf8)
        let child = try ChildProcess("/usr/bin/unshare", [
            "-m", "/bin/sh", "-c", "mount --bind -o ro \"$1\" \"$1\" && exec \"$2\" run --config \"$3\"",
            "sh", brightness.path, try TestEnvironment.pulsedotBinary(), configPath,
        ], environment: ["PULSEDOT_SYSFS_ROOT": sys.path], label: "pulsedot run (read-only brightness)")
        defer { child.terminate() }
        let line = "brightness: cannot write the level: open \(brightness.path): Read-only file system (errno 30) (under the unit's ProtectKernelTunables=yes /sys is read-only: install the drop-in `pulsedot backlight --drop-in` prints)"
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 20) { child.stderr.contains(line) || !child.isRunning }, child.stderr)
        XCTAssertTrue(child.stderr.contains("<4>" + line), child.stderr)
        // Past one retry (every 10 s): still one line, still drawing.
        let frames = dir.appendingPathComponent("frames/frames.jsonl")
        let before = ((try? String(contentsOf: frames, encoding: .utf8)) ?? "").split(separator: "\n").count
        usleep(12_000_000)
        let after = ((try? String(contentsOf: frames, encoding: .utf8)) ?? "").split(separator: "\n").count
        XCTAssertTrue(child.isRunning, child.stderr)
        XCTAssertGreaterThan(after, before + 15, "frames go on at pngFps 2")
        XCTAssertEqual(child.stderr.components(separatedBy: "cannot write the level").count - 1, 1, child.stderr)
        XCTAssertEqual(try String(contentsOf: brightness, encoding: .utf8), "255\n")
        XCTAssertNil(metric("pulsedot_backlight_brightness_percent"), "no level was set")
        child.signal(SIGTERM)
        XCTAssertEqual(child.wait(timeout: 10), 0, child.stderr)
    }

    private func runProgram2(_ path: String, _ args: [String]) -> Int32? {
        (try? runProgram(path, args, timeout: 10))?.status
    }

    func testTheDropInCommand() throws {
        let env = ["PULSEDOT_SYSFS_ROOT": sys.path]
        let binary = try TestEnvironment.pulsedotBinary()
        let conf = dir.appendingPathComponent("none.conf").path
        try "".write(toFile: conf, atomically: true, encoding: .utf8)
        let dropIn = try runProgram(binary, ["backlight", "--config", conf, "--drop-in"], environment: env)
        XCTAssertEqual(dropIn.status, 0, dropIn.stderr)
        XCTAssertTrue(dropIn.stdout.hasPrefix("# /etc/systemd/system/pulsedot.service.d/backlight.conf, printed by `pulsedot backlight --drop-in`:\n"), dropIn.stdout)
        XCTAssertTrue(dropIn.stdout.contains("\n[Service]\n"), dropIn.stdout)
        XCTAssertTrue(dropIn.stdout.contains("\nReadWritePaths=-/sys/class/backlight/10-0045/brightness\n"), dropIn.stdout)
        let list = try runProgram(binary, ["backlight", "--config", conf], environment: env)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("backlight 10-0045: brightness 255 of max_brightness 255  (chosen: [display] backlight = auto)"), list.stdout)
        XCTAssertTrue(list.stdout.contains("light sensor iio:device0: 20 lx"), list.stdout)
        let missing = try runProgram(binary, ["backlight", "--config", conf, "--set", "display.backlight=lvds", "--drop-in"], environment: env)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "pulsedot: backlight: no backlight lvds in \(sys.path)/class/backlight (there: 10-0045)\n")
    }
}
