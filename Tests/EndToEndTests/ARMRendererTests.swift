import Foundation
import TestSupport
import XCTest

/// The renderer on ARM: `deploy/embedded/arm-check --quick` compiles the frame step `pulsedot bench` runs
/// as Embedded Swift for aarch64, armv7 with NEON and armv7 VFPv3-D16, runs each under qemu-user
/// (the D16 build on a CPU without NEON, where any NEON instruction traps) and holds every frame's
/// hash against the host's, plus a libm value that proves the float ABI. Any difference or trap
/// fails. `PULSEDOT_SKIP=arm` opts out on a machine without the cross tools.
final class ARMRendererTests: XCTestCase {
    func testFramesAreBitIdenticalOnAArch64AndBothArmv7Builds() throws {
        if TestEnvironment.optedOut("arm") { throw XCTSkip("PULSEDOT_SKIP=arm") }
        let script = TestEnvironment.packageRoot.appendingPathComponent("deploy/embedded/arm-check").path
        let run = try runProgram(script, ["--quick"], environment: ["PULSEDOT_BIN": try TestEnvironment.pulsedotBinary()],
                                 timeout: 900)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        for arch in ["aarch64", "armv7-neon", "armv7-d16"] {
            let line = run.stdout.split(separator: "\n").first { $0.hasPrefix(arch + ":") }
            XCTAssertNotNil(line, "no result for \(arch):\n\(run.stdout)\(run.stderr)")
            if let line {
                XCTAssertTrue(line.contains("bit-identical to x86-64") && !line.contains(" 0 of "), String(line))
            }
        }
        XCTAssertTrue(run.stdout.contains("arm-check: all hashes equal"), run.stdout)
        XCTAssertFalse(run.stdout.contains("FAIL"), run.stdout)
    }
}
