import Foundation
import TestSupport
import XCTest

/// `pulsedot --help` and `pulsedot COMMAND --help` as a user runs them. The commands come from
/// `pulsedot --help`, which prints the program's own command table: a command added there
/// without a usage fails here.
final class HelpTests: XCTestCase {
    private func pulsedot(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(try TestEnvironment.pulsedotBinary(), args, timeout: 30)
    }

    /// The first word of each line under "commands:", up to the blank line.
    private func listedCommands() throws -> [String] {
        let help = try pulsedot(["--help"])
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "commands:") else { throw TestFailure("no commands: in\n\(help.stdout)") }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The options `pulsedot NAME --help` lists, one per line as `  --name ...`.
    private func listedOptions(_ usage: String) -> [String] {
        usage.split(separator: "\n").filter { $0.hasPrefix("  --") }.map { String($0.dropFirst(4).prefix { $0 != " " }) }
    }

    func testTopLevelHelpListsEveryCommand() throws {
        for flag in ["--help", "-h", "help"] {
            let run = try pulsedot([flag])
            XCTAssertEqual(run.status, 0, flag)
            XCTAssertEqual(run.stderr, "", flag)
            XCTAssertTrue(run.stdout.hasPrefix("usage: pulsedot COMMAND"), run.stdout)
        }
        let names = try listedCommands()
        XCTAssertEqual(Set(names).count, names.count, "\(names)")
        XCTAssertTrue(Set(["run", "check-config", "show", "probe", "watch", "render", "demo", "bench", "console-restore"])
            .isSubset(of: names), "\(names)")
    }

    /// Every command, with --help and with -h: its usage on stdout, nothing on stderr, exit 0,
    /// and one line for each option its synopsis names.
    func testEveryCommandAnswersHelp() throws {
        for name in try listedCommands() {
            for flag in ["--help", "-h"] {
                let run = try pulsedot([name, flag])
                XCTAssertEqual(run.status, 0, "\(name) \(flag): \(run.stderr)")
                XCTAssertEqual(run.stderr, "", "\(name) \(flag)")
                XCTAssertTrue(run.stdout.hasPrefix("usage: pulsedot \(name)"), "\(name) \(flag):\n\(run.stdout)")
                let synopsis = run.stdout.split(separator: "\n").prefix { $0.hasPrefix("usage:") || $0.hasPrefix(" ") }
                let named = synopsis.joined(separator: " ").split(separator: " ").filter { $0.hasPrefix("[--") || $0.hasPrefix("--") }
                    .map { String($0.drop { $0 == "[" }.dropFirst(2).prefix { $0 != "]" && $0 != " " }) }
                XCTAssertEqual(listedOptions(run.stdout), named, "\(name) \(flag): one line per option, in synopsis order")
            }
        }
    }

    /// What the usage lists is what the parser takes: an unknown option's error names the same set.
    func testTheUsageListsWhatTheParserAccepts() throws {
        for name in try listedCommands() {
            let usage = try pulsedot([name, "--help"]).stdout
            let run = try pulsedot([name, "--no-such-option"])
            XCTAssertEqual(run.status, 2, name)
            XCTAssertEqual(run.stdout, "", name)
            let prefix = "pulsedot: \(name): unknown option --no-such-option (this command takes: "
            XCTAssertTrue(run.stderr.hasPrefix(prefix) && run.stderr.hasSuffix(")\n"), run.stderr)
            let list = String(run.stderr.dropFirst(prefix.count).dropLast(2))
            // A command without options (man, completion) says "none".
            let taken = list == "none" ? [] : list.components(separatedBy: ", ").map { String($0.dropFirst(2)) }
            XCTAssertEqual(Set(taken), Set(listedOptions(usage)), name)
        }
    }

    /// --help wins wherever it stands, even after an option the command does not know.
    func testHelpWinsOverOtherArguments() throws {
        for args in [["render", "--bogus", "--help"], ["bench", "--frames", "0", "-h"], ["check-config", "a", "b", "--help"],
                     ["watch", "--count=-1", "--help"]] {
            let run = try pulsedot(args)
            XCTAssertEqual(run.status, 0, "\(args): \(run.stderr)")
            XCTAssertEqual(run.stderr, "", "\(args)")
            XCTAssertTrue(run.stdout.hasPrefix("usage: pulsedot \(args[0])"), "\(args)")
        }
        // As the value of an option it is only that value.
        let asValue = try pulsedot(["render", "--at", "1", "--out", "--help", "--width", "0"])
        XCTAssertEqual(asValue.status, 2)
        XCTAssertEqual(asValue.stdout, "")
    }
}
