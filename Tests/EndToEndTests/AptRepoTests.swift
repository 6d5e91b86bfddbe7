import Foundation
import TestSupport
import XCTest

/// `deploy/package/build-apt-repo` judged by apt itself, on this machine, with apt's state in a scratch
/// folder: the repository it signs is accepted with `signed-by=` its public key and offers every
/// version for every architecture; signed by another key, or altered after signing, apt refuses
/// it. The packages are small ones made here: the script must not care what they hold (the field
/// trial's apt scenario installs the real ones).
final class AptRepoTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        for tool in ["/usr/bin/apt-ftparchive", "/usr/bin/gpg", "/usr/bin/gpgv"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw TestFailure("\(tool) is missing: deploy/install-deps --test installs apt-utils, gpg, gpg-agent and gpgv")
        }
        dir = try PackagingFixture.scratch("apt-repo", for: self)
    }

    /// A package `fleet-demo` of `version` for `arch` holding one file.
    private func deb(_ version: String, _ arch: String) throws -> String {
        let root = dir.appendingPathComponent("pkg-\(version)-\(arch)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("DEBIAN"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("usr/share/fleet-demo"), withIntermediateDirectories: true)
        try "fleet-demo \(version)\n".write(to: root.appendingPathComponent("usr/share/fleet-demo/version"), atomically: true, encoding: .utf8)
        try """
            Package: fleet-demo
            Version: \(version)
            Architecture: \(arch)
            Maintainer: PulseDot developers <pulsedot@pulsedot.invalid>
            Description: a package for the apt repository tests
             It holds one file.

            """.write(to: root.appendingPathComponent("DEBIAN/control"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("fleet-demo_\(version)_\(arch).deb").path
        let made = try runProgram("/usr/bin/dpkg-deb", ["--root-owner-group", "-b", root.path, out])
        XCTAssertEqual(made.status, 0, made.stderr)
        return out
    }

    /// Runs deploy/package/build-apt-repo with a throwaway key; the repository folder and the keyring.
    private func publish(_ name: String, _ debs: [String], expect status: Int32 = 0) throws -> (repo: URL, key: URL, stderr: String) {
        let repo = dir.appendingPathComponent(name), key = dir.appendingPathComponent("\(name)-key.gpg")
        let tmp = dir.appendingPathComponent("\(name)-tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let r = try runProgram(PackagingFixture.script("build-apt-repo"), ["--out", repo.path, "--public-key", key.path, "--throwaway-key"] + debs,
                               environment: ["TMPDIR": tmp.path], timeout: 120)
        XCTAssertEqual(r.status, status, r.stderr)
        // The throwaway secret key lived in the script's own folder, gone with it.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), [], "build-apt-repo left files behind")
        return (repo, key, r.stderr)
    }

    /// apt-get with its lists, cache and dpkg status in `state`, reading only `source`.
    private func apt(_ tool: String, _ arguments: [String], source: String, state: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        let list = state.appendingPathComponent("sources.list")
        for sub in ["lists/partial", "cache/archives/partial"] {
            try FileManager.default.createDirectory(at: state.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        if !FileManager.default.fileExists(atPath: state.appendingPathComponent("status").path) {
            try Data().write(to: state.appendingPathComponent("status"))
        }
        try (source + "\n").write(to: list, atomically: true, encoding: .utf8)
        let options = ["Dir::Etc::sourcelist=\(list.path)", "Dir::Etc::sourceparts=-", "Dir::State::lists=\(state.path)/lists",
                       "Dir::State::status=\(state.path)/status", "Dir::Cache=\(state.path)/cache", "APT::Sandbox::User=root",
                       "APT::Architecture=amd64", "APT::Architectures::=amd64", "APT::Architectures::=arm64", "APT::Architectures::=armhf"]
        // In the state folder: apt-get download writes there.
        return try runProgram("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", state.path, "/usr/bin/\(tool)"] + options.flatMap { ["-o", $0] } + arguments,
                              timeout: 120)
    }

    func testAptAcceptsTheSignedRepositoryAndOffersEveryVersion() throws {
        let debs = try ["1.0", "2.0"].flatMap { v in try ["amd64", "arm64", "armhf"].map { try deb(v, $0) } }
        let (repo, key, _) = try publish("repo", debs)
        let release = try String(contentsOf: repo.appendingPathComponent("Release"), encoding: .utf8)
        XCTAssertTrue(release.contains("Architectures: amd64 arm64 armhf\n"), release)
        XCTAssertTrue(release.contains("Origin: PulseDot\n"), release)
        XCTAssertFalse(release.contains("Valid-Until"), "a repository on a stick must not expire: \(release)")

        let state = dir.appendingPathComponent("apt")
        let source = "deb [signed-by=\(key.path)] file:\(repo.path) ./"
        let update = try apt("apt-get", ["update"], source: source, state: state)
        XCTAssertEqual(update.status, 0, update.stdout + update.stderr)
        XCTAssertFalse(update.stderr.contains("E:") || update.stderr.contains("GPG error"), update.stderr)
        let madison = try apt("apt-cache", ["madison", "fleet-demo", "fleet-demo:arm64", "fleet-demo:armhf"], source: source, state: state)
        let offered = madison.stdout.split(separator: "\n").map { $0.split(separator: "|").prefix(2).map { $0.trimmingCharacters(in: .whitespaces) } }
        XCTAssertEqual(offered.map { $0.joined(separator: " ") }.sorted(),
                       ["fleet-demo 1.0", "fleet-demo 2.0", "fleet-demo:arm64 1.0", "fleet-demo:arm64 2.0", "fleet-demo:armhf 1.0", "fleet-demo:armhf 2.0"],
                       madison.stdout + madison.stderr)
        let policy = try apt("apt-cache", ["policy", "fleet-demo"], source: source, state: state)
        XCTAssertTrue(policy.stdout.contains("Candidate: 2.0"), policy.stdout)
        // What apt downloads is what was published: the Filename apt reads and the package's bytes.
        let download = try apt("apt-get", ["download", "fleet-demo:armhf=1.0"], source: source, state: state)
        XCTAssertEqual(download.status, 0, download.stderr)
        XCTAssertEqual(try Data(contentsOf: state.appendingPathComponent("fleet-demo_1.0_armhf.deb")), try Data(contentsOf: URL(fileURLWithPath: debs[2])))
    }

    func testAptRefusesAnotherKeyAndAnAlteredIndex() throws {
        let (repo, _, _) = try publish("repo", [try deb("1.0", "amd64")])
        let (_, otherKey, _) = try publish("other", [try deb("2.0", "amd64")])
        let wrongKey = try apt("apt-get", ["update"], source: "deb [signed-by=\(otherKey.path)] file:\(repo.path) ./", state: dir.appendingPathComponent("apt-wrong"))
        XCTAssertEqual(wrongKey.status, 100, "apt took a repository signed by a key it was not given:\n\(wrongKey.stdout)\(wrongKey.stderr)")
        XCTAssertTrue(wrongKey.stdout.contains("NO_PUBKEY") || wrongKey.stderr.contains("NO_PUBKEY"), wrongKey.stdout + wrongKey.stderr)

        // One changed byte in the signed text: the signature no longer matches.
        let (signed, key, _) = try publish("altered", [try deb("3.0", "amd64")])
        let inRelease = signed.appendingPathComponent("InRelease")
        let text = try String(contentsOf: inRelease, encoding: .utf8)
        try text.replacingOccurrences(of: "Origin: PulseDot", with: "Origin: PulseDoT").write(to: inRelease, atomically: true, encoding: .utf8)
        let altered = try apt("apt-get", ["update"], source: "deb [signed-by=\(key.path)] file:\(signed.path) ./", state: dir.appendingPathComponent("apt-altered"))
        XCTAssertEqual(altered.status, 100, "apt took an InRelease altered after signing:\n\(altered.stdout)\(altered.stderr)")
        XCTAssertTrue((altered.stdout + altered.stderr).contains("BADSIG"), altered.stdout + altered.stderr)
    }

    func testRefusesWhatWouldPublishTheWrongThing() throws {
        let one = try deb("1.0", "amd64")
        let script = PackagingFixture.script("build-apt-repo")
        let key = dir.appendingPathComponent("k.gpg").path
        let unsigned = try runProgram(script, ["--out", dir.appendingPathComponent("u").path, "--public-key", key, one])
        XCTAssertEqual(unsigned.status, 2, unsigned.stderr)
        XCTAssertTrue(unsigned.stderr.contains("--throwaway-key"), unsigned.stderr)
        let twice = try runProgram(script, ["--out", dir.appendingPathComponent("t").path, "--public-key", key, "--throwaway-key", one, one])
        XCTAssertEqual(twice.status, 2, twice.stderr)
        XCTAssertTrue(twice.stderr.contains("fleet-demo_1.0_amd64 is given twice"), twice.stderr)
        let notADeb = dir.appendingPathComponent("notes.deb")
        try "not a package".write(to: notADeb, atomically: true, encoding: .utf8)
        let bad = try runProgram(script, ["--out", dir.appendingPathComponent("b").path, "--public-key", key, "--throwaway-key", notADeb.path])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("notes.deb is not a Debian package"), bad.stderr)
        let (_, _, _) = try publish("used", [one])
        let again = try runProgram(script, ["--out", dir.appendingPathComponent("used").path, "--public-key", key, "--throwaway-key", one])
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertTrue(again.stderr.contains("is not empty"), again.stderr)
        let home = dir.appendingPathComponent("empty-gnupg")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let unknownKey = try runProgram(script, ["--out", dir.appendingPathComponent("k").path, "--public-key", key, "--key", "0000000000000000DEADBEEF", one],
                                        environment: ["GNUPGHOME": home.path])
        // gpg started an agent for that keyring: it ends with the test.
        _ = try runProgram("/usr/bin/gpgconf", ["--kill", "gpg-agent"], environment: ["GNUPGHOME": home.path])
        XCTAssertEqual(unknownKey.status, 1, unknownKey.stderr)
        XCTAssertTrue(unknownKey.stderr.contains("no secret key"), unknownKey.stderr)
    }
}
