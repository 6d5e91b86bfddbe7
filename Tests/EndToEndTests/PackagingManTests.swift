import Foundation
import TestSupport
import XCTest

/// What the .deb installs for people at a board's shell: pulsedot(8) and pulsedot.conf(5) where
/// man finds them, compressed reproducibly, equal to the committed pages; the bash completion
/// the program writes; and the short conffile that points at them.
final class PackagingManTests: XCTestCase {
    private func pulsedot(_ args: [String]) throws -> String {
        let run = try runProgram(try TestEnvironment.pulsedotBinary(), args, timeout: 30)
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }

    func testManualPagesAreInstalledCompressedAndFoundByMan() throws {
        let root = try PackagingFixture.package().root
        for (installed, committed) in [("usr/share/man/man8/pulsedot.8.gz", "docs/man/pulsedot.8"),
                                       ("usr/share/man/man5/pulsedot.conf.5.gz", "docs/man/pulsedot.conf.5")] {
            let path = root.appendingPathComponent(installed).path
            // gzip -n: no file name and no time stamp in the header, so the package is reproducible.
            let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(10))
            XCTAssertEqual(Array(header.prefix(3)), [0x1F, 0x8B, 8], installed)
            XCTAssertEqual(header[3] & 0x08, 0, "\(installed): carries a file name")
            XCTAssertEqual(Array(header[4..<8]), [0, 0, 0, 0], "\(installed): carries a time stamp")
            let text = try runProgram("/bin/gzip", ["-dc", path])
            XCTAssertEqual(text.status, 0, text.stderr)
            XCTAssertEqual(text.stdout, try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent(committed), encoding: .utf8),
                           installed)
        }
        // What the conffile tells a user to type finds the page.
        let man = try runProgram("/usr/bin/man", ["-M", root.appendingPathComponent("usr/share/man").path, "-P", "cat", "pulsedot.conf"],
                                 environment: ["MANWIDTH": "100", "LC_ALL": "C.UTF-8"])
        XCTAssertEqual(man.status, 0, man.stderr)
        XCTAssertTrue(man.stdout.contains("pulsedot.conf - configuration of the PulseDot daemon"), man.stdout)
        XCTAssertTrue(man.stdout.contains("annotationColor = #007AFF"), man.stdout)
    }

    func testCompletionAndConffileAreInstalled() throws {
        let root = try PackagingFixture.package().root
        let completion = root.appendingPathComponent("usr/share/bash-completion/completions/pulsedot")
        XCTAssertEqual(try String(contentsOf: completion, encoding: .utf8), try pulsedot(["completion", "bash"]))
        let mode = try FileManager.default.attributesOfItem(atPath: completion.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o644)
        let conffile = try Data(contentsOf: root.appendingPathComponent("etc/pulsedot/pulsedot.conf"))
        XCTAssertEqual(conffile, try Data(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("deploy/package/pulsedot.conf")))
        XCTAssertTrue(String(decoding: conffile, as: UTF8.self).contains("man pulsedot.conf"))
    }
}
