import Foundation
import TestSupport
import XCTest

/// The Embedded builds of the whole daemon (`deploy/embedded/build-embedded`), made once per test run and
/// per architecture, and how each runs here: the ARM ones under qemu-user, on CPUs that trap on
/// what the build must not use (NEON on armhf).
enum EmbeddedBinaries {
    enum Arch: String, CaseIterable {
        case arm64, armhf

        /// qemu-user and its CPU: a Cortex-A53 (arm64); a Cortex-A9 without NEON, Debian's armhf
        /// baseline, where any NEON instruction in the build traps.
        var emulator: [String] {
            switch self {
            case .arm64: return ["/usr/bin/qemu-aarch64-static", "-cpu", "cortex-a53"]
            case .armhf: return ["/usr/bin/qemu-arm-static", "-cpu", "cortex-a9,neon=off"]
            }
        }

        var triple: String { self == .arm64 ? "aarch64-none-none-elf" : "armv7-none-none-eabi" }
    }

    nonisolated(unsafe) private static var built: [Arch: Result<String, TestFailure>] = [:]

    /// The architectures the tests build and run: armhf unless `PULSEDOT_EMBEDDED_ARCHES` says
    /// otherwise (`arm64,armhf`). Each build takes minutes on two cores, and armhf is the one no
    /// other test covers (32-bit, no NEON, 64-bit offsets); arm64's renderer is ARMRendererTests'.
    static var tested: [Arch] {
        guard let list = ProcessInfo.processInfo.environment["PULSEDOT_EMBEDDED_ARCHES"] else { return [.armhf] }
        let named = list.split(separator: ",").compactMap { Arch(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
        // A list naming nothing known still tests something.
        return named.isEmpty ? [.armhf] : named
    }

    /// Skips (with the reason) where the toolchain has no Embedded standard library for the
    /// architecture, or `PULSEDOT_SKIP=arm`.
    static func requireToolchain(_ arch: Arch) throws {
        if TestEnvironment.optedOut("arm") { throw XCTSkip("PULSEDOT_SKIP=arm") }
        let swiftc = try runProgram("/usr/bin/env", ["sh", "-c", "readlink -f \"$(command -v swiftc)\""]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let toolchain = URL(fileURLWithPath: swiftc).deletingLastPathComponent().deletingLastPathComponent()
        let module = toolchain.appendingPathComponent("lib/swift/embedded/Swift.swiftmodule/\(arch.triple).swiftmodule")
        guard FileManager.default.fileExists(atPath: module.path) else {
            throw XCTSkip("the Swift toolchain has no Embedded standard library for \(arch.triple) (\(module.path))")
        }
    }

    /// The program for `arch`, built on first use (minutes: every target, optimised);
    /// `PULSEDOT_EMBEDDED_REUSE=1` takes an earlier build in .build-embedded instead.
    static func binary(_ arch: Arch) throws -> String {
        try requireToolchain(arch)
        if let result = built[arch] { return try result.get() }
        if let earlier = earlierBuild(arch) {
            built[arch] = .success(earlier)
            return earlier
        }
        let script = TestEnvironment.packageRoot.appendingPathComponent("deploy/embedded/build-embedded").path
        let run = try runProgram(script, ["--arch", arch.rawValue], timeout: 1500)
        let path = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let result: Result<String, TestFailure> = run.status == 0 && FileManager.default.isExecutableFile(atPath: path)
            ? .success(path) : .failure(TestFailure("deploy/embedded/build-embedded --arch \(arch.rawValue) failed (\(run.status)):\n\(run.stderr)"))
        built[arch] = result
        return try result.get()
    }

    /// The program for `arch` if this run has built it already (or `PULSEDOT_EMBEDDED_REUSE=1`
    /// finds an earlier build), never building it: for tests that carry the ARM packages along
    /// but must not spend minutes on a build no other test asked for.
    static func alreadyBuilt(_ arch: Arch) -> String? {
        if case .success(let path)? = built[arch] { return path }
        return earlierBuild(arch)
    }

    /// The build in .build-embedded when `PULSEDOT_EMBEDDED_REUSE=1` asks for it.
    private static func earlierBuild(_ arch: Arch) -> String? {
        let earlier = TestEnvironment.packageRoot.appendingPathComponent(".build-embedded/\(arch.rawValue)/pulsedot").path
        guard ProcessInfo.processInfo.environment["PULSEDOT_EMBEDDED_REUSE"] == "1", FileManager.default.isExecutableFile(atPath: earlier) else { return nil }
        return earlier
    }

    /// Runs the `arch` build with `arguments` under its emulator.
    @discardableResult
    static func run(_ arch: Arch, _ arguments: [String], timeout: Double = 300) throws -> (status: Int32, stdout: String, stderr: String) {
        let emulator = arch.emulator
        return try runProgram(emulator[0], Array(emulator.dropFirst()) + [try binary(arch)] + arguments, timeout: timeout)
    }
}
