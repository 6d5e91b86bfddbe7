import Foundation
import TestSupport
import XCTest

/// `deploy/build-deb` makes a real Debian package: named for the version the program carries and
/// this machine's architecture, with computed dependencies, the configuration as a conffile,
/// maintainer scripts that create the user and enable the unit, and every file where the unit
/// looks for it.
final class PackagingDebTests: XCTestCase {
    private func control(_ deb: URL) throws -> [String: String] {
        let info = try PackagingFixture.run("/usr/bin/dpkg-deb", ["-f", deb.path])
        try PackagingFixture.check(info, "dpkg-deb -f")
        var fields: [String: String] = [:]
        var last: String?
        for line in info.stdout.split(separator: "\n") {
            if line.hasPrefix(" "), let key = last { fields[key, default: ""] += "\n" + line; continue }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon])
            fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            last = key
        }
        return fields
    }

    func testPackageIsNamedForTheProgramsVersionAndThisArchitecture() throws {
        let pkg = try PackagingFixture.package()
        let version = try PackagingFixture.packageVersion
        let arch = try PackagingFixture.run("/usr/bin/dpkg", ["--print-architecture"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(pkg.deb.lastPathComponent, "pulsedot_\(version)_\(arch).deb")
        let fields = try control(pkg.deb)
        XCTAssertEqual(fields["Package"], "pulsedot")
        XCTAssertEqual(fields["Version"], version)
        XCTAssertEqual(fields["Architecture"], arch)
        // The packaged program reports the same version (`pulsedot --version`, seen in field reports).
        let reported = try PackagingFixture.run(pkg.root.appendingPathComponent("usr/bin/pulsedot").path, ["--version"])
        XCTAssertEqual(reported.stdout, "pulsedot \(version)\n")
    }

    func testDependsComeFromWhatTheBinaryLinks() throws {
        let fields = try control(try PackagingFixture.package().deb)
        let depends = try XCTUnwrap(fields["Depends"]).split(separator: ",").map {
            String($0.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        // The Embedded build (deploy/build-embedded) is one static program: dpkg-shlibdeps finds
        // no library in it, and the package must then name none.
        let program = try PackagingFixture.package().root.appendingPathComponent("usr/bin/pulsedot").path
        let headers = try PackagingFixture.run("/usr/bin/readelf", ["-l", program])
        try PackagingFixture.check(headers, "readelf -l")
        let dynamic = headers.stdout.contains("INTERP")
        for library in ["libc6", "libpng16-16", "libdrm2", "libsqlite3-0", "libturbojpeg0", "libfreetype6"] {
            XCTAssertEqual(depends.contains(library), dynamic,
                           "\(dynamic ? "a dynamic" : "a static") program; Depends: \(fields["Depends"] ?? "")")
        }
        // /bin/kill is the unit's ExecReload=; the attribution's font is a file, not a linked library.
        XCTAssertTrue(depends.contains("procps"), fields["Depends"] ?? "")
        XCTAssertTrue(depends.contains("fonts-dejavu-core"), fields["Depends"] ?? "")
        // Versioned, as dpkg-shlibdeps writes them, not a hand-kept list.
        if dynamic { XCTAssertTrue(fields["Depends"]!.contains("libc6 (>= "), fields["Depends"]!) }
        let size = try XCTUnwrap(Int(fields["Installed-Size"] ?? ""), "Installed-Size: \(fields["Installed-Size"] ?? "none")")
        XCTAssertGreaterThan(size, 100)
    }

    func testConfigurationIsAConffileSoUpgradesKeepLocalChanges() throws {
        let pkg = try PackagingFixture.package()
        let conffiles = try PackagingFixture.run("/usr/bin/dpkg-deb", ["-I", pkg.deb.path, "conffiles"])
        try PackagingFixture.check(conffiles, "dpkg-deb -I conffiles")
        XCTAssertEqual(conffiles.stdout, "/etc/pulsedot/pulsedot.conf\n")
        let installed = try String(contentsOf: pkg.root.appendingPathComponent("etc/pulsedot/pulsedot.conf"), encoding: .utf8)
        let shipped = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("deploy/pulsedot.conf"), encoding: .utf8)
        XCTAssertEqual(installed, shipped)
    }

    func testMaintainerScriptsCreateTheUserAndEnableTheUnit() throws {
        let pkg = try PackagingFixture.package()
        let control = pkg.directory.appendingPathComponent("control")
        try PackagingFixture.check(try PackagingFixture.run("/usr/bin/dpkg-deb", ["-e", pkg.deb.path, control.path]), "dpkg-deb -e")
        for name in ["postinst", "prerm", "postrm"] {
            let path = control.appendingPathComponent(name).path
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: path), "\(name) missing or not executable")
            let syntax = try PackagingFixture.run("/bin/sh", ["-n", path])
            XCTAssertEqual(syntax.status, 0, "\(name): \(syntax.stderr)")
        }
        let postinst = try String(contentsOf: control.appendingPathComponent("postinst"), encoding: .utf8)
        XCTAssertTrue(postinst.contains("systemd-sysusers pulsedot.conf"))
        XCTAssertTrue(postinst.contains("adduser --system"))
        XCTAssertTrue(postinst.contains("systemd-tmpfiles --create pulsedot.conf"), "the metrics link on install")
        XCTAssertTrue(postinst.contains("deb-systemd-helper enable pulsedot.service"))
        XCTAssertTrue(postinst.contains("deb-systemd-invoke \"$action\" pulsedot.service"))
        let prerm = try String(contentsOf: control.appendingPathComponent("prerm"), encoding: .utf8)
        XCTAssertTrue(prerm.contains("deb-systemd-invoke stop pulsedot.service"))
        let postrm = try String(contentsOf: control.appendingPathComponent("postrm"), encoding: .utf8)
        XCTAssertTrue(postrm.contains("deb-systemd-helper purge pulsedot.service"))
    }

    func testFilesAreWhereTheUnitExpectsThem() throws {
        let pkg = try PackagingFixture.package()
        let unit = try UnitFile(contentsOf: pkg.root.appendingPathComponent("lib/systemd/system/pulsedot.service"))
        let commands = unit.values("ExecStart") + unit.values("ExecReload") + unit.values("ExecStopPost")
        XCTAssertEqual(commands.count, 4, "\(commands)")
        for command in commands {
            let words = command.split(separator: " ").map(String.init)
            let program = words[0].drop(while: { "-+!@:".contains($0) })
            guard program.hasPrefix("/usr/bin/pulsedot") else { continue }
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: pkg.root.path + program), "\(command): no \(program) in the package")
            // Every file the command names (the configuration) is in the package too.
            for word in words.dropFirst() where word.hasPrefix("/etc/") {
                XCTAssertTrue(FileManager.default.fileExists(atPath: pkg.root.path + word), "\(command): no \(word) in the package")
            }
        }
        XCTAssertEqual(unit.values("ExecStart"), ["/usr/bin/pulsedot run --config /etc/pulsedot/pulsedot.conf"])
        let modules = try String(contentsOf: pkg.root.appendingPathComponent("usr/lib/modules-load.d/pulsedot.conf"), encoding: .utf8)
        XCTAssertEqual(modules.split(separator: "\n").filter { !$0.hasPrefix("#") }, ["drm"], "the DRM core at boot, for DeviceAllow=char-drm")
        let tmpfiles = try String(contentsOf: pkg.root.appendingPathComponent("usr/lib/tmpfiles.d/pulsedot.conf"), encoding: .utf8)
        XCTAssertEqual(tmpfiles, try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("deploy/tmpfiles.d/pulsedot.conf"), encoding: .utf8))
        let sysusers = try String(contentsOf: pkg.root.appendingPathComponent("usr/lib/sysusers.d/pulsedot.conf"), encoding: .utf8)
        XCTAssertTrue(sysusers.contains("u \(try XCTUnwrap(unit.value("User"))) "), sysusers)
        let examples = try FileManager.default.contentsOfDirectory(atPath: pkg.root.appendingPathComponent("usr/share/pulsedot/examples").path)
        let shipped = try FileManager.default.contentsOfDirectory(atPath: TestEnvironment.packageRoot.appendingPathComponent("deploy/examples").path)
        XCTAssertEqual(examples.sorted(), shipped.filter { $0.hasSuffix(".conf") }.sorted())
        XCTAssertEqual(examples.count, 4)
    }

    func testSysusersEntryMakesASystemUserInVideoAndTty() throws {
        let pkg = try PackagingFixture.package()
        let root = try PackagingFixture.scratch("sysusers", for: self)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("etc"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("usr/lib/sysusers.d"), withIntermediateDirectories: true)
        // A board's own groups, as base-passwd leaves them.
        try "root:x:0:0:root:/root:/bin/sh\n".write(to: root.appendingPathComponent("etc/passwd"), atomically: true, encoding: .utf8)
        try "root:x:0:\ntty:x:5:\nvideo:x:44:\n".write(to: root.appendingPathComponent("etc/group"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: pkg.root.appendingPathComponent("usr/lib/sysusers.d/pulsedot.conf"),
                                         to: root.appendingPathComponent("usr/lib/sysusers.d/pulsedot.conf"))
        try PackagingFixture.check(try PackagingFixture.run("/usr/bin/systemd-sysusers", ["--root=" + root.path]), "systemd-sysusers")
        let passwd = try String(contentsOf: root.appendingPathComponent("etc/passwd"), encoding: .utf8)
        let user = try XCTUnwrap(passwd.split(separator: "\n").first { $0.hasPrefix("pulsedot:") }, passwd).split(separator: ":", omittingEmptySubsequences: false)
        let uid = try XCTUnwrap(Int(user[2]))
        XCTAssertTrue((1..<1000).contains(uid), "uid \(uid) is not a system uid")
        XCTAssertEqual(user[5], "/var/lib/pulsedot")
        XCTAssertEqual(user[6], "/usr/sbin/nologin")
        let group = try String(contentsOf: root.appendingPathComponent("etc/group"), encoding: .utf8)
        XCTAssertTrue(group.contains("\ntty:x:5:pulsedot\n"), group)
        XCTAssertTrue(group.contains("\nvideo:x:44:pulsedot\n"), group)
    }
}
