import Foundation
import TestSupport
import XCTest

/// The backlight under the unit's hardening: the package's udev rule gives the service's group the
/// brightness attribute, postinst applies it to the backlights already there, and the board's
/// drop-in (`pulsedot backlight --drop-in`) opens the attribute in the read-only /sys without
/// raising the unit's exposure.
final class PackagingBacklightTests: XCTestCase {
    func testTheUdevRuleGivesTheServicesGroupTheBrightness() throws {
        let pkg = try PackagingFixture.package()
        let rule = try String(contentsOf: pkg.root.appendingPathComponent("usr/lib/udev/rules.d/60-pulsedot-backlight.rules"), encoding: .utf8)
        XCTAssertEqual(rule, try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("deploy/package/udev/60-pulsedot-backlight.rules"),
                                        encoding: .utf8))
        let unit = try UnitFile(contentsOf: pkg.root.appendingPathComponent("lib/systemd/system/pulsedot.service"))
        let group = try XCTUnwrap(unit.value("Group"))
        let lines = rule.split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertEqual(lines.count, 1, rule)
        let line = String(try XCTUnwrap(lines.first))
        XCTAssertTrue(line.hasPrefix("SUBSYSTEM==\"backlight\", ACTION==\"add\", "), line)
        XCTAssertTrue(line.contains("RUN+=\"/bin/chgrp \(group) /sys%p/brightness\""), line)
        XCTAssertTrue(line.contains("RUN+=\"/bin/chmod g+w /sys%p/brightness\""), line)
        // udev runs RUN+= programs by absolute path, with no shell.
        for program in ["/bin/chgrp", "/bin/chmod"] {
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: program), program)
        }
    }

    func testPostinstTriggersUdevAfterTheGroupExists() throws {
        let postinst = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("deploy/package/debian/postinst"), encoding: .utf8)
        let users = try XCTUnwrap(postinst.range(of: "systemd-sysusers pulsedot.conf"))
        let guarded = try XCTUnwrap(postinst.range(of: "if [ -d /run/udev ] && command -v udevadm >/dev/null 2>&1; then"), postinst)
        let trigger = try XCTUnwrap(postinst.range(of: "udevadm trigger --subsystem-match=backlight --action=add || true"), postinst)
        XCTAssertLessThan(users.upperBound, guarded.lowerBound, "the group first, then the rule applied")
        XCTAssertLessThan(guarded.upperBound, trigger.lowerBound)
    }

    func testTheDropInVerifiesAndKeepsTheExposure() throws {
        let root = try PackagingFixture.rootWithSystemdUnits(for: self)
        let sys = try PackagingFixture.scratch("dropin-sys", for: self)
        let device = sys.appendingPathComponent("class/backlight/10-0045")
        try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
        try "255\n".write(to: device.appendingPathComponent("max_brightness"), atomically: true, encoding: .utf8)
        try "255\n".write(to: device.appendingPathComponent("brightness"), atomically: true, encoding: .utf8)
        let printed = try runProgram(root.appendingPathComponent("usr/bin/pulsedot").path,
                                     ["backlight", "--config", root.appendingPathComponent("etc/pulsedot/pulsedot.conf").path, "--drop-in"],
                                     environment: ["PULSEDOT_SYSFS_ROOT": sys.path])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let folder = root.appendingPathComponent("etc/systemd/system/pulsedot.service.d")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try printed.stdout.write(to: folder.appendingPathComponent("backlight.conf"), atomically: true, encoding: .utf8)
        let dropIn = try UnitFile(contentsOf: folder.appendingPathComponent("backlight.conf"))
        XCTAssertEqual(dropIn.values("ReadWritePaths"), ["-/sys/class/backlight/10-0045/brightness"])

        let verify = try PackagingFixture.run("/usr/bin/systemd-analyze", ["verify", "--root=" + root.path, "pulsedot.service"])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertEqual(verify.stdout + verify.stderr, "")
        let security = try PackagingFixture.run("/usr/bin/systemd-analyze",
                                                ["security", "--offline=yes", "--no-pager", "--root=" + root.path, "pulsedot.service"])
        XCTAssertEqual(security.status, 0, security.stderr)
        let marker = "Overall exposure level for pulsedot.service: "
        let line = try XCTUnwrap(security.stdout.split(separator: "\n").first { $0.contains(marker) }, security.stdout)
        let exposure = try XCTUnwrap(Double(line[line.range(of: marker)!.upperBound...].split(separator: " ").first.map(String.init) ?? ""))
        XCTAssertLessThanOrEqual(exposure, 1.5, security.stdout)
        // The sandbox stays: /sys is read-only but for the one attribute.
        XCTAssertTrue(security.stdout.split(separator: "\n").contains { $0.hasPrefix("✓") && $0.contains("ProtectKernelTunables=") },
                      security.stdout)
    }
}
