import Foundation
import TestSupport
import XCTest

/// The installed unit, judged by systemd's own tools on a scratch root (the package's files plus a
/// copy of /lib/systemd/system), and held to what the operations issue asks of it.
final class PackagingUnitTests: XCTestCase {
    func testVerifyIsCleanOnTheInstalledRoot() throws {
        let root = try PackagingFixture.rootWithSystemdUnits(for: self)
        let verify = try PackagingFixture.run("/usr/bin/systemd-analyze", ["verify", "--root=" + root.path, "pulsedot.service"])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        // Clean means silent: verify prints warnings (unknown keys, missing binaries) but may still exit 0.
        XCTAssertEqual(verify.stdout + verify.stderr, "")
    }

    func testVerifyNoticesAMissingBinary() throws {
        // The check above can fail: without the program in the root, verify complains.
        let root = try PackagingFixture.rootWithSystemdUnits(for: self)
        try FileManager.default.removeItem(at: root.appendingPathComponent("usr/bin/pulsedot"))
        let verify = try PackagingFixture.run("/usr/bin/systemd-analyze", ["verify", "--root=" + root.path, "pulsedot.service"])
        XCTAssertNotEqual(verify.status, 0)
        XCTAssertTrue(verify.stderr.contains("/usr/bin/pulsedot is not executable"), verify.stderr)
    }

    func testSecurityExposureIsAtMostOnePointFive() throws {
        let root = try PackagingFixture.rootWithSystemdUnits(for: self)
        let security = try PackagingFixture.run("/usr/bin/systemd-analyze",
                                                ["security", "--offline=yes", "--no-pager", "--root=" + root.path, "pulsedot.service"])
        XCTAssertEqual(security.status, 0, security.stderr)
        let marker = "Overall exposure level for pulsedot.service: "
        let line = try XCTUnwrap(security.stdout.split(separator: "\n").first { $0.contains(marker) }, security.stdout)
        let figure = line[line.range(of: marker)!.upperBound...].split(separator: " ").first.map(String.init) ?? ""
        let exposure = try XCTUnwrap(Double(figure), "cannot read the exposure in: \(line)")
        XCTAssertLessThanOrEqual(exposure, 1.5, security.stdout.split(separator: "\n").filter { $0.hasPrefix("✗") }.joined(separator: "\n"))
    }

    func testHardeningNeverBreaksGpsdDevicesOrGroups() throws {
        let unit = try UnitFile(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("systemd/pulsedot.service"))
        // These would lower the exposure figure, and break gpsd over the network, /dev/dri and
        // /dev/fb*, or the video and tty memberships.
        for key in ["PrivateNetwork", "PrivateDevices", "PrivateUsers", "IPAddressDeny"] {
            XCTAssertEqual(unit.values(key), [], "\(key)= must not be set")
        }
        XCTAssertEqual(unit.values("DeviceAllow"), ["char-drm rw", "char-fb rw", "/dev/tty1 rw"])
        XCTAssertEqual(unit.value("DevicePolicy"), "closed")
        XCTAssertEqual(unit.value("RestrictAddressFamilies"), "AF_UNIX AF_INET AF_INET6 AF_NETLINK")
        XCTAssertEqual(unit.value("SupplementaryGroups"), "video tty")
        XCTAssertEqual(unit.value("CapabilityBoundingSet"), "")
    }

    func testServiceNeverGivesUpAndReloadChecksFirst() throws {
        let unit = try UnitFile(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("systemd/pulsedot.service"))
        XCTAssertEqual(unit.value("Type"), "notify")
        XCTAssertNotNil(unit.value("WatchdogSec"))
        XCTAssertEqual(unit.value("Restart"), "always")
        XCTAssertEqual(unit.value("StartLimitIntervalSec", in: "Unit"), "0")
        // Order matters: systemd stops at the first failing ExecReload=, so a bad file never reaches
        // the daemon and `systemctl reload` reports the failure.
        XCTAssertEqual(unit.values("ExecReload"), ["/usr/bin/pulsedot check-config --quiet /etc/pulsedot/pulsedot.conf", "/bin/kill -HUP $MAINPID"])
        XCTAssertEqual(unit.values("Wants", in: "Unit"), ["gpsd.socket"])
        XCTAssertTrue(unit.values("After", in: "Unit").contains("gpsd.socket"))
        // The console: no getty drawing over the dot, and text mode back even after a SIGKILL.
        XCTAssertEqual(unit.values("Conflicts", in: "Unit"), ["getty@tty1.service"])
        XCTAssertEqual(unit.value("TTYPath"), "/dev/tty1")
        XCTAssertEqual(unit.values("ExecStopPost"), ["+/usr/bin/pulsedot console-restore --tty /dev/tty1"])
    }
}

/// docs/kiosk.md's allow-list drop-in, as printed there, beside the packaged unit.
final class PackagingAllowListTests: XCTestCase {
    func dropIn() throws -> String {
        let doc = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("docs/kiosk.md"), encoding: .utf8)
        guard let start = doc.range(of: "<!-- allow-list:begin -->\n```systemd\n"), let end = doc.range(of: "```\n<!-- allow-list:end -->") else {
            throw TestFailure("docs/kiosk.md has no allow-list block")
        }
        return String(doc[start.upperBound..<end.lowerBound])
    }

    func testTheDropInVerifiesAndKeepsTheExposureLow() throws {
        let text = try dropIn()
        XCTAssertTrue(text.contains("IPAddressDeny=any\n"), text)
        let root = try PackagingFixture.rootWithSystemdUnits(for: self)
        let folder = root.appendingPathComponent("etc/systemd/system/pulsedot.service.d")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try text.write(to: folder.appendingPathComponent("allow-list.conf"), atomically: true, encoding: .utf8)
        let verify = try PackagingFixture.run("/usr/bin/systemd-analyze", ["verify", "--root=" + root.path, "pulsedot.service"])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertFalse((verify.stdout + verify.stderr).lowercased().contains("invalid"), verify.stdout + verify.stderr)
        XCTAssertEqual(verify.stdout + verify.stderr, "")
        let security = try PackagingFixture.run("/usr/bin/systemd-analyze",
                                                ["security", "--offline=yes", "--no-pager", "--root=" + root.path, "pulsedot.service"])
        XCTAssertEqual(security.status, 0, security.stderr)
        // The drop-in is read: systemd sees an allow list (without it: "does not define an IP
        // address allow list"), its entries beyond localhost the proxy and the DNS servers.
        let ipLine = security.stdout.split(separator: "\n").first { $0.contains("IPAddressDeny=") }
        XCTAssertTrue(ipLine?.contains("defines IP address allow list with non-localhost entries") ?? false, "\(ipLine ?? "no IPAddressDeny= line"):\n\(security.stdout)")
        let marker = "Overall exposure level for pulsedot.service: "
        let line = try XCTUnwrap(security.stdout.split(separator: "\n").first { $0.contains(marker) }, security.stdout)
        let exposure = try XCTUnwrap(Double(line[line.range(of: marker)!.upperBound...].split(separator: " ").first.map(String.init) ?? ""))
        XCTAssertLessThanOrEqual(exposure, 1.5)
    }
}
