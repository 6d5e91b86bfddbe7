import Foundation
import TestSupport
import XCTest

/// `deploy/package/build-deb --arch arm64|armhf`: installable packages of the Embedded build, made on
/// this x86-64 machine (for the architectures `EmbeddedBinaries.tested` names). The control
/// file names the architecture; the program inside is one static, stripped ELF for that machine
/// (nothing for dpkg-shlibdeps, so no library in Depends) whose `--version` is the package's.
final class ARMPackageTests: XCTestCase {
    private func field(_ deb: URL, _ name: String) throws -> String {
        let info = try runProgram("/usr/bin/dpkg-deb", ["-f", deb.path, name])
        XCTAssertEqual(info.status, 0, info.stderr)
        return info.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testARMPackagesHoldAStaticProgramForTheirMachine() throws {
        let dir = try TestEnvironment.temporaryDirectory("arm-deb")
        defer { try? FileManager.default.removeItem(at: dir) }
        let version = try PackagingFixture.packageVersion
        let script = TestEnvironment.packageRoot.appendingPathComponent("deploy/package/build-deb").path
        for arch in EmbeddedBinaries.tested {
            let binary = try EmbeddedBinaries.binary(arch)
            let made = try runProgram(script, ["--arch", arch.rawValue, "--binary", binary, "--out", dir.path], timeout: 300)
            XCTAssertEqual(made.status, 0, "\(arch): \(made.stderr)")
            let deb = URL(fileURLWithPath: made.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            XCTAssertEqual(deb.lastPathComponent, "pulsedot_\(version)_\(arch.rawValue).deb")
            XCTAssertEqual(try field(deb, "Architecture"), arch.rawValue)
            XCTAssertEqual(try field(deb, "Version"), version)
            let depends = try field(deb, "Depends")
            XCTAssertFalse(depends.contains("libc6") || depends.contains("libdrm"), "a static program needs no library: \(depends)")
            XCTAssertTrue(depends.contains("procps") && depends.contains("fonts-dejavu-core") && depends.contains("ca-certificates"), depends)

            let listing = try runProgram("/usr/bin/dpkg-deb", ["-c", deb.path])
            XCTAssertEqual(listing.status, 0, listing.stderr)
            for path in ["./usr/bin/pulsedot", "./etc/pulsedot/pulsedot.conf", "./lib/systemd/system/pulsedot.service"] {
                XCTAssertTrue(listing.stdout.contains(path), "\(arch): \(path) not in the package:\n\(listing.stdout)")
            }
            let root = dir.appendingPathComponent("root-\(arch)")
            let extracted = try runProgram("/usr/bin/dpkg-deb", ["-x", deb.path, root.path])
            XCTAssertEqual(extracted.status, 0, extracted.stderr)
            let program = root.appendingPathComponent("usr/bin/pulsedot").path
            let header = try runProgram("/usr/bin/readelf", ["-h", "-l", "-S", program])
            XCTAssertTrue(header.stdout.contains(arch == .arm64 ? "AArch64" : "Machine:                           ARM"), header.stdout)
            XCTAssertFalse(header.stdout.contains("INTERP"), "\(arch): a dynamically linked program")
            XCTAssertFalse(header.stdout.contains(".symtab"), "\(arch): not stripped")
            // The budget over the measured 7.66 MB (armhf; arm64 9.22 MB before the transit banner,
            // which added 0.99 MB there when measured linked in) catches the duplicated code of every
            // Embedded module coming back (about 6 MB more without a section per function).
            // OpenSSL's libcrypto is 3.0 MB and 4.2 MB of them: its default provider reaches every
            // algorithm through dispatch tables, which --gc-sections cannot drop. The banner's
            // HarfBuzz, fontconfig, expat and FriBiDi are 0.81 MB of armhf's (docs/embedded.md).
            let budget = arch == .armhf ? 8_500_000 : 11_000_000
            let size = try FileManager.default.attributesOfItem(atPath: program)[.size] as? Int ?? 0
            XCTAssertLessThanOrEqual(size, budget, "\(arch): the stripped program has grown to \(size) bytes")
            if arch == .armhf {
                let attributes = try runProgram("/usr/bin/readelf", ["-A", program])
                XCTAssertTrue(attributes.stdout.contains("Tag_ABI_VFP_args: VFP registers"), attributes.stdout)
                XCTAssertTrue(attributes.stdout.contains("Tag_FP_arch: VFPv3-D16"), attributes.stdout)
            }
            let emulator = arch.emulator
            let reported = try runProgram(emulator[0], Array(emulator.dropFirst()) + [program, "--version"])
            XCTAssertEqual(reported.stdout, "pulsedot \(version)\n", reported.stderr)
        }
    }
}
