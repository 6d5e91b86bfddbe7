import Foundation
import TestSupport
import XCTest

/// `deploy/package/build-deb` makes a real Debian package: named for the version the program carries and
/// this machine's architecture, with computed dependencies, the configuration as a conffile,
/// maintainer scripts that create the user and enable the unit, every file where the unit
/// looks for it, the licence, changelog and documentation policy asks for, and newer revisions
/// of the same program.
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
        // The Embedded build (deploy/embedded/build-embedded) is one static program: dpkg-shlibdeps finds
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
        XCTAssertTrue(depends.contains("ca-certificates"), fields["Depends"] ?? "")
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
        let shipped = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("deploy/package/pulsedot.conf"), encoding: .utf8)
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
        // Depends brings systemd-sysusers; a script using adduser would need adduser in Depends too.
        XCTAssertFalse(postinst.contains("adduser"), postinst)
        let depends = try XCTUnwrap(try self.control(pkg.deb)["Depends"])
        XCTAssertTrue(depends.contains("systemd | systemd-standalone-sysusers | systemd-sysusers"), depends)
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
        XCTAssertEqual(tmpfiles, try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("deploy/package/tmpfiles.d/pulsedot.conf"), encoding: .utf8))
        let sysusers = try String(contentsOf: pkg.root.appendingPathComponent("usr/lib/sysusers.d/pulsedot.conf"), encoding: .utf8)
        XCTAssertTrue(sysusers.contains("u \(try XCTUnwrap(unit.value("User"))) "), sysusers)
        let examples = try FileManager.default.contentsOfDirectory(atPath: pkg.root.appendingPathComponent("usr/share/pulsedot/examples").path)
        let shipped = try FileManager.default.contentsOfDirectory(atPath: TestEnvironment.packageRoot.appendingPathComponent("deploy/package/examples").path)
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

    private func docdir(_ pkg: PackagingFixture.Built) -> URL {
        pkg.root.appendingPathComponent("usr/share/doc/pulsedot")
    }

    func testCopyrightIsMachineReadableAndStatesTheLicence() throws {
        let pkg = try PackagingFixture.package()
        let copyright = try DEP5(contentsOf: docdir(pkg).appendingPathComponent("copyright"))
        XCTAssertEqual(copyright.header["Format"], "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
        XCTAssertEqual(copyright.header["Upstream-Name"], "PulseDot")
        XCTAssertEqual(copyright.license(ofFiles: "*"), "Expat")
        XCTAssertEqual(copyright.paragraphs.first { $0["Files"] == "*" }?["Copyright"], "2026 The PulseDot developers")
        // Linked in by --static-swift-stdlib, so its licence travels with the program.
        XCTAssertEqual(copyright.license(ofFiles: "swift/*"), "Apache-2.0 with Runtime-Library exception")
        XCTAssertEqual(copyright.unexplainedLicenses, [])
        // The package states the same licence as the source's LICENSE file, word for word.
        func words(_ text: String) -> [Substring] {
            text.split(whereSeparator: { $0.isWhitespace }).filter { $0 != "." }
        }
        let license = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("LICENSE"), encoding: .utf8)
        XCTAssertTrue(license.contains("Copyright (c) 2026 The PulseDot developers"), license)
        let body = try XCTUnwrap(license.range(of: "Permission is hereby granted")).lowerBound
        XCTAssertEqual(words(try XCTUnwrap(copyright.text(ofLicense: "Expat"))), words(String(license[body...])))
        // A dynamic program carries no C library: only the static packages list them.
        XCTAssertNil(copyright.license(ofFiles: "glibc/*"))
        XCTAssertNil(try control(pkg.deb)["Static-Built-Using"])
    }

    func testChangelogIsTheNativeReleaseHistory() throws {
        let pkg = try PackagingFixture.package()
        let changelog = docdir(pkg).appendingPathComponent("changelog.gz")
        let parsed = try PackagingFixture.run("/bin/sh", ["-c", "gzip -dc \"$1\" | dpkg-parsechangelog -l - -S Version", "sh", changelog.path])
        try PackagingFixture.check(parsed, "dpkg-parsechangelog")
        XCTAssertEqual(parsed.stdout, try PackagingFixture.packageVersion + "\n")
        // A native version has no Debian revision, so no changelog.Debian.gz (lintian refuses one).
        XCTAssertFalse(FileManager.default.fileExists(atPath: docdir(pkg).appendingPathComponent("changelog.Debian.gz").path))
    }

    func testDocumentationTheUnitAndTheReadmeLinkToIsInstalled() throws {
        let pkg = try PackagingFixture.package()
        let unit = try UnitFile(contentsOf: pkg.root.appendingPathComponent("lib/systemd/system/pulsedot.service"))
        let links = unit.values("Documentation", in: "Unit").flatMap { $0.split(separator: " ").map(String.init) }
        XCTAssertGreaterThanOrEqual(links.count, 2, "\(links)")
        for link in links {
            XCTAssertTrue(link.hasPrefix("file:/usr/share/doc/pulsedot/") || link.hasPrefix("man:"), "\(link): not a local document")
            guard link.hasPrefix("file:") else { continue }
            XCTAssertTrue(FileManager.default.fileExists(atPath: pkg.root.path + link.dropFirst("file:".count)), "\(link) is not in the package")
        }
        // The README's relative links resolve inside the installed documentation as in the source.
        let readme = try String(contentsOf: docdir(pkg).appendingPathComponent("README.md"), encoding: .utf8)
        var checked = 0
        var rest = readme[...]
        while let open = rest.range(of: "](") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            // A link within the page (#deployment) or to another site needs no file.
            let target = String(rest[..<close]).components(separatedBy: "#")[0]
            rest = rest[close...]
            guard !target.isEmpty, !target.contains(":") else { continue }
            XCTAssertTrue(FileManager.default.fileExists(atPath: docdir(pkg).appendingPathComponent(target).path),
                          "README.md links to \(target), which the package does not install")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 5, "README.md's local links")
    }

    func testFieldCheckIsShippedForTheBoard() throws {
        let pkg = try PackagingFixture.package()
        let installed = pkg.root.appendingPathComponent("usr/share/pulsedot/field-check")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: installed.path))
        let shipped = try String(contentsOf: installed, encoding: .utf8)
        let source = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("deploy/package/field-check"), encoding: .utf8)
        // The same script; its usage names the installed path instead of the source tree's.
        XCTAssertEqual(shipped.replacingOccurrences(of: "/usr/share/pulsedot/field-check", with: "deploy/package/field-check"), source)
        let syntax = try PackagingFixture.run("/bin/bash", ["-n", installed.path])
        XCTAssertEqual(syntax.status, 0, syntax.stderr)
    }

    func testRevisionMakesANewerPackageOfTheSameProgram() throws {
        let dir = try PackagingFixture.scratch("revision", for: self)
        let version = try PackagingFixture.packageVersion
        let made = try runProgram(PackagingFixture.script("build-deb"),
                                  ["--out", dir.path, "--binary", try TestEnvironment.pulsedotBinary(), "--revision", "2",
                                   "--maintainer", "Fleet Operations <fleet@example.org>", "--changes", "Rebuilt for the winter timetable."],
                                  environment: ["SOURCE_DATE_EPOCH": "1796191200"], timeout: 300)
        try PackagingFixture.check(made, "build-deb --revision 2")
        let deb = URL(fileURLWithPath: made.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(deb.lastPathComponent, "pulsedot_\(version)-2_\(try control(deb)["Architecture"] ?? "").deb")
        let fields = try control(deb)
        XCTAssertEqual(fields["Version"], "\(version)-2")
        XCTAssertEqual(fields["Maintainer"], "Fleet Operations <fleet@example.org>")
        for older in [version, "\(version)-1"] {
            let newer = try PackagingFixture.run("/usr/bin/dpkg", ["--compare-versions", "\(version)-2", "gt", older])
            XCTAssertEqual(newer.status, 0, "\(version)-2 is not newer than \(older)")
        }
        let root = dir.appendingPathComponent("root")
        try PackagingFixture.check(try PackagingFixture.run("/usr/bin/dpkg-deb", ["-x", deb.path, root.path]), "dpkg-deb -x")
        let doc = root.appendingPathComponent("usr/share/doc/pulsedot")
        let changelog = doc.appendingPathComponent("changelog.Debian.gz").path
        let entry = try PackagingFixture.run("/bin/sh", ["-c", "gzip -dc \"$1\" | dpkg-parsechangelog -l -", "sh", changelog])
        try PackagingFixture.check(entry, "dpkg-parsechangelog changelog.Debian.gz")
        XCTAssertTrue(entry.stdout.contains("\nVersion: \(version)-2\n"), entry.stdout)
        XCTAssertTrue(entry.stdout.contains("\nMaintainer: Fleet Operations <fleet@example.org>\n"), entry.stdout)
        XCTAssertTrue(entry.stdout.contains("\n   * Rebuilt for the winter timetable.\n"), entry.stdout)
        // Every version of the package: the release's own entry follows, and the program inside
        // is still that release. A non-native package has no changelog.gz of its own to repeat it.
        let release = try PackagingFixture.run("/bin/sh", ["-c", "gzip -dc \"$1\" | dpkg-parsechangelog -l - --offset 1 --count 1 -S Version", "sh", changelog])
        XCTAssertEqual(release.stdout, version + "\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: doc.appendingPathComponent("changelog.gz").path))
        let reported = try PackagingFixture.run(root.appendingPathComponent("usr/bin/pulsedot").path, ["--version"])
        XCTAssertEqual(reported.stdout, "pulsedot \(version)\n")
        // Rebuilt with the same SOURCE_DATE_EPOCH, the package is the same bytes (a fleet's
        // repository and the field trial's image cache rely on it).
        let again = dir.appendingPathComponent("again")
        let remade = try runProgram(PackagingFixture.script("build-deb"),
                                    ["--out", again.path, "--binary", try TestEnvironment.pulsedotBinary(), "--revision", "2",
                                     "--maintainer", "Fleet Operations <fleet@example.org>", "--changes", "Rebuilt for the winter timetable."],
                                    environment: ["SOURCE_DATE_EPOCH": "1796191200"], timeout: 300)
        try PackagingFixture.check(remade, "build-deb --revision 2, again")
        XCTAssertEqual(try Data(contentsOf: deb), try Data(contentsOf: again.appendingPathComponent(deb.lastPathComponent)))
    }

    func testRevisionAndMaintainerAreChecked() throws {
        let dir = try PackagingFixture.scratch("badrev", for: self)
        let binary = try TestEnvironment.pulsedotBinary()
        let cases: [([String], String)] = [
            (["--revision", "two"], "build-deb: --revision must be a Debian revision (digits first, then letters, digits, . + ~), not 'two'\n"),
            (["--maintainer", "PulseDot <pulsedot@localhost>"], "build-deb: the maintainer must read 'Name <user@host.domain>', not 'PulseDot <pulsedot@localhost>'\n"),
            (["--changes", "no revision"], "build-deb: --changes describes a revision: give --revision too\n"),
        ]
        for (arguments, message) in cases {
            let run = try PackagingFixture.run(PackagingFixture.script("build-deb"), ["--out", dir.path, "--binary", binary] + arguments)
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertEqual(run.stderr, message)
        }
        XCTAssertTrue(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
