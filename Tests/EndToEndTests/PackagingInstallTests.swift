import Foundation
import TestSupport
import XCTest

/// `deploy/package/install` for boards installed without a package, and build-deb's refusal to package a
/// program that reports another version than the package would carry.
final class PackagingInstallTests: XCTestCase {
    private func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    func testPrefixMovesProgramAndUnitPathsTogether() throws {
        let dest = try PackagingFixture.scratch("install", for: self)
        let install = try PackagingFixture.run(PackagingFixture.script("install"),
                                               ["--prefix", "/usr/local", "--destdir", dest.path, "--binary", try TestEnvironment.pulsedotBinary()])
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: dest.path + "/usr/local/bin/pulsedot"))
        // systemd searches /usr/local/lib/systemd/system and /usr/local/lib/sysusers.d too.
        let unit = try UnitFile(contentsOf: dest.appendingPathComponent("usr/local/lib/systemd/system/pulsedot.service"))
        XCTAssertEqual(unit.values("ExecStart"), ["/usr/local/bin/pulsedot run --config /etc/pulsedot/pulsedot.conf"])
        XCTAssertEqual(unit.values("ExecReload").first, "/usr/local/bin/pulsedot check-config --quiet /etc/pulsedot/pulsedot.conf")
        XCTAssertEqual(unit.values("ExecStopPost"), ["+/usr/local/bin/pulsedot console-restore --tty /dev/tty1"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: dest.path + "/usr/local/lib/sysusers.d/pulsedot.conf"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dest.path + "/usr/local/lib/tmpfiles.d/pulsedot.conf"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dest.path + "/usr/local/share/pulsedot/examples").count, 4)
        XCTAssertEqual(try read(dest.appendingPathComponent("etc/pulsedot/pulsedot.conf")),
                       try read(TestEnvironment.packageRoot.appendingPathComponent("deploy/package/pulsedot.conf")))
        // Nothing lands outside the destination's prefix and /etc.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dest.path).sorted(), ["etc", "usr"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dest.path + "/usr"), ["local"])
    }

    func testReinstallKeepsTheIntegratorsConfiguration() throws {
        let dest = try PackagingFixture.scratch("reinstall", for: self)
        let binary = try TestEnvironment.pulsedotBinary()
        try PackagingFixture.check(try PackagingFixture.run(PackagingFixture.script("install"), ["--destdir", dest.path, "--binary", binary]), "install")
        let config = dest.appendingPathComponent("etc/pulsedot/pulsedot.conf")
        try "[source]\nposition = 45.5,-73.6\n".write(to: config, atomically: true, encoding: .utf8)
        let again = try PackagingFixture.run(PackagingFixture.script("install"), ["--destdir", dest.path, "--binary", binary])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try read(config), "[source]\nposition = 45.5,-73.6\n")
        XCTAssertEqual(try read(dest.appendingPathComponent("etc/pulsedot/pulsedot.conf.default")),
                       try read(TestEnvironment.packageRoot.appendingPathComponent("deploy/package/pulsedot.conf")))
        XCTAssertTrue(again.stderr.contains("kept \(config.path)"), again.stderr)
    }

    func testBadOptionsAreNamed() throws {
        let relative = try PackagingFixture.run(PackagingFixture.script("install"), ["--prefix", "usr"])
        XCTAssertEqual(relative.status, 2)
        XCTAssertEqual(relative.stderr, "install: --prefix must be an absolute path, not 'usr'\n")
        let unknown = try PackagingFixture.run(PackagingFixture.script("build-deb"), ["--outdir", "/tmp"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.hasPrefix("build-deb: unknown option --outdir\n"), unknown.stderr)
    }

    func testBuildDebRefusesAProgramReportingAnotherVersion() throws {
        let dir = try PackagingFixture.scratch("stale", for: self)
        let stale = dir.appendingPathComponent("pulsedot")
        try "#!/bin/sh\necho pulsedot 0.0.0-stale\n".write(to: stale, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stale.path)
        let build = try PackagingFixture.run(PackagingFixture.script("build-deb"), ["--out", dir.path, "--binary", stale.path])
        XCTAssertEqual(build.status, 1)
        let version = try PackagingFixture.packageVersion
        XCTAssertEqual(build.stderr, "build-deb: \(stale.path) reports 'pulsedot 0.0.0-stale' but Sources/Daemon/Version.swift says \(version): rebuild it\n")
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.hasSuffix(".deb") })
    }

    func testBuildDebRefusesAProgramThatNeedsTheSwiftRuntime() throws {
        // This test bundle is such a program: linked against libswiftCore.so, which no board has.
        let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let dir = try PackagingFixture.scratch("dynamic", for: self)
        let build = try PackagingFixture.run(PackagingFixture.script("build-deb"), ["--out", dir.path, "--binary", me])
        XCTAssertEqual(build.status, 1)
        XCTAssertTrue(build.stderr.hasPrefix("build-deb: \(me) needs the Swift runtime at run time ("), build.stderr)
        XCTAssertTrue(build.stderr.contains("libswiftCore.so"), build.stderr)
        XCTAssertTrue(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
