import Foundation
import TestSupport
import XCTest

/// `pulsedot completion bash` loaded into a real bash, its function called as bash's programmable
/// completion calls it (COMP_WORDS, COMP_CWORD), checked against what `--help` and the settings
/// table say the program takes.
final class CompletionTests: XCTestCase {
    private var dir: URL!
    private var script: URL!

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("completion")
        script = dir.appendingPathComponent("completion.bash")
        let run = try pulsedot(["completion", "bash"])
        XCTAssertEqual(run.status, 0, run.stderr)
        try run.stdout.write(to: script, atomically: true, encoding: .utf8)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: dir)
    }

    private func pulsedot(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(try TestEnvironment.pulsedotBinary(), args, timeout: 30)
    }

    /// What the completion offers for the command line `words` (the last is the word being
    /// completed, "" for a new one), sorted.
    private func complete(_ words: [String]) throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let run = try runProgram("/bin/bash", ["--norc", "--noprofile", "-c", """
            set -u
            source '\(script.path)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            _pulsedot
            printf '%s\\n' "${COMPREPLY[@]}"
            """])
        XCTAssertEqual(run.status, 0, "\(words): \(run.stderr)")
        XCTAssertEqual(run.stderr, "", "\(words)")
        return run.stdout.split(separator: "\n").map(String.init).sorted()
    }

    private func listedCommands() throws -> [String] {
        let lines = try pulsedot(["--help"]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "commands:") else { throw TestFailure("no commands: in pulsedot --help") }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    func testTheScriptRegistersItsFunction() throws {
        let syntax = try runProgram("/bin/bash", ["-n", script.path])
        XCTAssertEqual(syntax.status, 0, syntax.stderr)
        let run = try runProgram("/bin/bash", ["--norc", "--noprofile", "-c", "source '\(script.path)' && complete -p pulsedot"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "complete -F _pulsedot pulsedot\n")
        let other = try pulsedot(["completion", "fish"])
        XCTAssertEqual(other.status, 2)
        XCTAssertTrue(other.stderr.hasPrefix("pulsedot: completion: expected bash"), other.stderr)
    }

    func testCommandsAndEachCommandsOptions() throws {
        let commands = try listedCommands()
        XCTAssertEqual(try complete(["pulsedot", ""]), (commands + ["--help", "--version"]).sorted())
        XCTAssertEqual(try complete(["pulsedot", "ch"]), ["check-config"])
        XCTAssertEqual(try complete(["pulsedot", "co"]), ["completion", "console-restore"])
        // Exactly the options each command's usage lists: hidden hooks are not offered.
        for name in commands {
            let usage = try pulsedot([name, "--help"]).stdout
            let options = usage.split(separator: "\n").filter { $0.hasPrefix("  --") }.map { "--" + $0.dropFirst(4).prefix { $0 != " " } }
            XCTAssertEqual(try complete(["pulsedot", name, "--"]), (options + ["--help"]).sorted(), name)
        }
        XCTAssertFalse(try complete(["pulsedot", "run", "--"]).contains("--frames"))
        XCTAssertEqual(try complete(["pulsedot", "run", "--c"]), ["--config"])
    }

    func testSetOffersEveryKeyOfTheSettingsTable() throws {
        XCTAssertEqual(try complete(["pulsedot", "run", "--set", "display.ro"]), ["display.rotation="])
        XCTAssertEqual(try complete(["pulsedot", "check-config", "--set", "annotationC"]), ["annotationColor="])
        XCTAssertEqual(try complete(["pulsedot", "status", "--config", "x.conf", "--set", "metrics.e"]), ["metrics.every="])
        // As many keys as the table the binary prints; bare in [dot], section.key elsewhere.
        let table = try pulsedot(["check-config", "--keys-markdown"]).stdout
        let rows = table.split(separator: "\n").filter { $0.hasPrefix("| `") && !$0.hasPrefix("| `key`") }.count
        let all = try complete(["pulsedot", "run", "--set", ""])
        XCTAssertEqual(all.count, rows)
        XCTAssertTrue(all.contains("scale=") && all.contains("source.gpsd=") && all.contains("map.zoom="), "\(all)")
        // A value after KEY= is the user's: nothing is offered (bash splits the word at "=").
        XCTAssertEqual(try complete(["pulsedot", "run", "--set", "display.rotation", "=", "9"]), [])
    }

    func testOptionValuesAndOperands() throws {
        FileManager.default.createFile(atPath: dir.appendingPathComponent("pulsedot.conf").path, contents: Data())
        FileManager.default.createFile(atPath: dir.appendingPathComponent("other.conf").path, contents: Data())
        let prefix = dir.path + "/pu"
        XCTAssertEqual(try complete(["pulsedot", "run", "--config", prefix]), [dir.path + "/pulsedot.conf"])
        XCTAssertEqual(try complete(["pulsedot", "run", "--config", "=", prefix]), [dir.path + "/pulsedot.conf"], "--config=FILE")
        XCTAssertEqual(try complete(["pulsedot", "check-config", prefix]), [dir.path + "/pulsedot.conf"], "the FILE operand")
        XCTAssertEqual(try complete(["pulsedot", "show", "--rotation", ""]), ["0", "180", "270", "90"])
        XCTAssertEqual(try complete(["pulsedot", "show", "--fps", ""]), [], "a number is the user's")
        XCTAssertEqual(try complete(["pulsedot", "man", ""]), ["5", "8"])
        XCTAssertEqual(try complete(["pulsedot", "completion", ""]), ["bash"])
    }
}
