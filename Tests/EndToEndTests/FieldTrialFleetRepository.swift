import Foundation
import TestSupport

/// The fleet's apt repository for the field trial's apt scenario, made on the host while the
/// kiosk boots and drives: PulseDot at two Debian revisions of the same program
/// (`deploy/package/build-deb --revision 1` and `2`) for amd64 and for every ARM architecture whose
/// Embedded program this run has already built, published by `deploy/package/build-apt-repo` with a
/// throwaway key, in an ext4 image the guest mounts read-only.
struct FleetRepository {
    static let label = "pulsedot-repo"
    /// A line only the first revision's main file has. The shipped file is byte-stable, so two
    /// real revisions ship the same one and dpkg keeps an edited copy without a word; a main file
    /// that changed between the versions (as the short file replacing the long reference did) is
    /// the case where dpkg asks, or with the fleet's options keeps the edit and puts the new file
    /// beside it as `.dpkg-dist`.
    static let earlierLine = "# (The field trial's first revision: an earlier release's main file, one line longer.)\n"

    let directory: URL
    /// The ext4 image of the repository, labelled `label`.
    let image: String
    /// The binary keyring for `signed-by=`.
    let publicKey: Data
    /// "0.1.0-1" and "0.1.0-2"; both carry the program that reports `upstream`.
    let first: String
    let second: String
    let upstream: String
    let architectures: [String]
    /// The main file each revision ships.
    let firstConffile: String
    let secondConffile: String

    /// `binaries`: (Debian architecture, program) pairs, amd64 first.
    static func build(binaries: [(arch: String, path: String)]) throws -> FleetRepository {
        let dir = try TestEnvironment.temporaryDirectory("field-apt")
        do {
            return try build(binaries: binaries, in: dir)
        } catch {
            try? FileManager.default.removeItem(at: dir)
            throw error
        }
    }

    private static func build(binaries: [(arch: String, path: String)], in dir: URL) throws -> FleetRepository {
        let root = TestEnvironment.packageRoot.path
        let debs = dir.appendingPathComponent("debs")
        var made: [String] = []
        for (arch, binary) in binaries {
            for revision in ["1", "2"] {
                var args = ["--binary", binary, "--out", debs.path, "--revision", revision,
                            "--changes", "Field trial: revision \(revision) of the same program, for the apt upgrade scenario."]
                if arch != "amd64" { args += ["--arch", arch] }
                let r = try runProgram(root + "/deploy/package/build-deb", args, timeout: 300)
                guard r.status == 0, let deb = r.stdout.split(separator: "\n").last.map(String.init) else {
                    throw TestFailure("deploy/package/build-deb \(args.joined(separator: " ")) failed (\(r.status)): \(r.stderr.suffix(2000))")
                }
                if revision == "1" { try prependEarlierLine(deb, scratch: dir.appendingPathComponent("unpacked-\(arch)")) }
                made.append(deb)
            }
        }
        let repo = dir.appendingPathComponent("repo")
        let key = dir.appendingPathComponent("fleet.gpg")
        let published = try runProgram(root + "/deploy/package/build-apt-repo",
                                       ["--out", repo.path, "--public-key", key.path, "--throwaway-key"] + made, timeout: 120)
        guard published.status == 0 else { throw TestFailure("deploy/package/build-apt-repo failed (\(published.status)): \(published.stderr)") }
        let first = try field(made[0], "Version"), second = try field(made[1], "Version")
        let upstream = String(first.prefix { $0 != "-" })
        try checkIndex(repo, versions: [first, second], architectures: binaries.map(\.arch))

        // No journal: the guest only ever reads it.
        let bytes = made.compactMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }.reduce(0, +)
        let image = dir.appendingPathComponent("repo.ext4").path
        let mkfs = try runProgram("/sbin/mkfs.ext4", ["-q", "-O", "^has_journal", "-L", label, "-d", repo.path, image, "\(bytes / 1_000_000 + 16)M"])
        guard mkfs.status == 0 else { throw TestFailure("mkfs.ext4 -d \(repo.path) failed: \(mkfs.stderr)") }
        return FleetRepository(directory: dir, image: image, publicKey: try Data(contentsOf: key), first: first, second: second,
                               upstream: upstream, architectures: binaries.map(\.arch),
                               firstConffile: try conffile(made[0]), secondConffile: try conffile(made[1]))
    }

    /// Repacks the first revision with the earlier main file (gzip: this package is the trial's
    /// own, and xz would take ten seconds more per package).
    private static func prependEarlierLine(_ deb: String, scratch: URL) throws {
        let unpack = try runProgram("/usr/bin/dpkg-deb", ["-R", deb, scratch.path])
        guard unpack.status == 0 else { throw TestFailure("dpkg-deb -R \(deb): \(unpack.stderr)") }
        let conf = scratch.appendingPathComponent("etc/pulsedot/pulsedot.conf")
        let shipped = try String(contentsOf: conf, encoding: .utf8)
        try (shipped + earlierLine).write(to: conf, atomically: false, encoding: .utf8)
        let pack = try runProgram("/usr/bin/dpkg-deb", ["--root-owner-group", "-Zgzip", "-b", scratch.path, deb])
        guard pack.status == 0 else { throw TestFailure("dpkg-deb -b \(scratch.path): \(pack.stderr)") }
        try FileManager.default.removeItem(at: scratch)
    }

    private static func field(_ deb: String, _ name: String) throws -> String {
        let r = try runProgram("/usr/bin/dpkg-deb", ["-f", deb, name])
        guard r.status == 0 else { throw TestFailure("dpkg-deb -f \(deb) \(name): \(r.stderr)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func conffile(_ deb: String) throws -> String {
        let r = try runProgram("/bin/sh", ["-c", "dpkg-deb --fsys-tarfile \"$1\" | tar -xOf - ./etc/pulsedot/pulsedot.conf", "sh", deb])
        guard r.status == 0, !r.stdout.isEmpty else { throw TestFailure("no /etc/pulsedot/pulsedot.conf in \(deb): \(r.stderr)") }
        return r.stdout
    }

    /// The index apt will read lists each version for each architecture, by the file it names.
    private static func checkIndex(_ repo: URL, versions: [String], architectures: [String]) throws {
        let text = try String(contentsOf: repo.appendingPathComponent("Packages"), encoding: .utf8)
        let stanzas = text.components(separatedBy: "\n\n").map { stanza in
            Dictionary(stanza.split(separator: "\n").compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(" ") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }, uniquingKeysWith: { a, _ in a })
        }
        for arch in architectures {
            for version in versions {
                guard stanzas.contains(where: { $0["Package"] == "pulsedot" && $0["Version"] == version && $0["Architecture"] == arch
                    && $0["Filename"] == "./pulsedot_\(version)_\(arch).deb" }) else {
                    throw TestFailure("the repository's Packages lacks pulsedot \(version) for \(arch):\n\(text)")
                }
            }
        }
    }
}

/// The repository built on a thread of its own, so the packages (about ten seconds each, mostly
/// xz) are made while the guest runs the other scenarios rather than before or after them.
final class FleetRepositoryBuild: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<FleetRepository, Error>?
    private(set) var seconds = 0.0

    init(binaries: [(arch: String, path: String)]) {
        Thread { [self] in
            let started = Date()
            do { result = .success(try FleetRepository.build(binaries: binaries)) } catch { result = .failure(error) }
            seconds = Date().timeIntervalSince(started)
            done.signal()
        }.start()
    }

    /// The repository, once built; an error if the build failed or takes longer than `timeout`.
    func wait(timeout: Double) throws -> FleetRepository {
        if done.wait(timeout: .now() + timeout) == .timedOut {
            throw TestFailure("the fleet repository was not built within \(Int(timeout)) s")
        }
        done.signal()  // a later wait returns at once
        return try result!.get()
    }

    /// Removes the repository's files once the build has ended.
    func remove() {
        done.wait()
        done.signal()
        if case .success(let repo)? = result { try? FileManager.default.removeItem(at: repo.directory) }
    }
}
