import Foundation
import TestSupport
import XCTest

/// The .deb built once by the real `deploy/package/build-deb` from the binary under test, and its contents
/// unpacked into a scratch root with `dpkg-deb -x`, as the packaging tests share them.
/// XCTest runs test methods one after another, so the lazily built value needs no lock.
enum PackagingFixture {
    struct Built {
        let directory: URL
        let deb: URL
        /// `dpkg-deb -x` of the package: what a board's / would hold.
        let root: URL
        let buildOutput: String
    }

    /// Success or the failure, kept: a failed build is reported by every test that needs it
    /// without building (and leaving behind) another package each time.
    nonisolated(unsafe) private static var built: Result<Built, TestFailure>?

    static func package() throws -> Built {
        if built == nil { built = build() }
        return try built!.get()
    }

    private static func build() -> Result<Built, TestFailure> {
        let dir: URL
        do { dir = try TestEnvironment.temporaryDirectory("deb") } catch { return .failure(TestFailure("\(error)")) }
        do {
            let out = dir.appendingPathComponent("out")
            let result = try run(script("build-deb"), ["--out", out.path, "--binary", try TestEnvironment.pulsedotBinary()])
            // A package needs the static release binary: deploy/test builds it and sets PULSEDOT_BIN.
            guard result.status == 0 else { throw TestFailure("build-deb failed (\(result.status)): \(result.stderr)") }
            let deb = URL(fileURLWithPath: result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            let root = dir.appendingPathComponent("root")
            let extract = try run("/usr/bin/dpkg-deb", ["-x", deb.path, root.path])
            guard extract.status == 0 else { throw TestFailure("dpkg-deb -x failed: \(extract.stderr)") }
            // The package and its root hold the binary twice over: gone when the test process ends.
            removeAtExit = dir.path
            atexit { if let path = PackagingFixture.removeAtExit { try? FileManager.default.removeItem(atPath: path) } }
            return .success(Built(directory: dir, deb: deb, root: root, buildOutput: result.stderr))
        } catch {
            try? FileManager.default.removeItem(at: dir)
            return .failure(error as? TestFailure ?? TestFailure("\(error)"))
        }
    }

    nonisolated(unsafe) private static var removeAtExit: String?

    /// A fresh empty directory, removed when `test` ends.
    static func scratch(_ prefix: String, for test: XCTestCase) throws -> URL {
        let dir = try TestEnvironment.temporaryDirectory(prefix)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    /// A fresh scratch root for `systemd-analyze --root=`: the package's files plus a copy of
    /// systemd's own units (which verify resolves Wants=/After=/Conflicts= against).
    static func rootWithSystemdUnits(for test: XCTestCase) throws -> URL {
        let pkg = try package()
        let root = try scratch("unitroot", for: test)
        try check(run("/bin/cp", ["-a", pkg.root.path + "/.", root.path]), "copy the package root")
        try check(run("/bin/cp", ["-an", "/lib/systemd/system/.", root.appendingPathComponent("lib/systemd/system").path]),
                  "copy /lib/systemd/system")
        return root
    }

    static func script(_ name: String) -> String {
        TestEnvironment.packageRoot.appendingPathComponent("deploy/package/\(name)").path
    }

    static var packageVersion: String {
        get throws {
            let source = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("Sources/Daemon/Version.swift"),
                                    encoding: .utf8)
            guard let line = source.split(separator: "\n").first(where: { $0.contains("static let string") }),
                  let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\""), open < close
            else { throw TestFailure("no version string in Sources/Daemon/Version.swift") }
            return String(line[line.index(after: open)..<close])
        }
    }

    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(program, arguments, timeout: 300)
    }

    static func check(_ result: (status: Int32, stdout: String, stderr: String), _ what: String) throws {
        guard result.status == 0 else { throw TestFailure("\(what) failed (\(result.status)): \(result.stderr)") }
    }
}

/// The settings of a systemd unit file, in order, as (section, key, value); repeated keys repeat.
struct UnitFile {
    let settings: [(section: String, key: String, value: String)]

    init(contentsOf url: URL) throws {
        var section = ""
        var settings: [(String, String, String)] = []
        for raw in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: true) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") { section = String(line.dropFirst().dropLast()); continue }
            guard let eq = line.firstIndex(of: "=") else { throw TestFailure("\(url.path): not a setting: \(line)") }
            settings.append((section, String(line[..<eq]), String(line[line.index(after: eq)...])))
        }
        self.settings = settings
    }

    func values(_ key: String, in section: String = "Service") -> [String] {
        settings.filter { $0.section == section && $0.key == key }.map(\.value)
    }

    func value(_ key: String, in section: String = "Service") -> String? { values(key, in: section).last }
}
